package dev.hermes.state.core.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.JsonValue;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The JSON text columns (model_config, tool_calls, reasoning_details, codex_reasoning_items) the way
 * the Python agent writes them: {@code json.dumps(v) if v else None}, so every value Python counts as
 * false (null, empty list/map/string, false, zero) is stored as NULL. They are read back with
 * {@link PythonJson}.
 *
 * <p>Plain values (maps, lists, arrays, strings, numbers, booleans, null) are written with Jackson's
 * streaming core, which starts in a fraction of the time its object mapper needs (the first tool
 * call of a new process would otherwise wait for it); other objects (records, beans,
 * {@link JsonNode}s) go through the object mapper, loaded on first need.
 */
public final class JsonColumns {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonColumns() {
    }

    /** Loaded only when a caller hands over something that is not a plain value. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = JsonMapper.builder(FACTORY).build();
    }

    /** The text to store for {@code value}: null when Python would store NULL. */
    public static @Nullable String encode(@Nullable Object value, String name) {
        return isEmpty(value) ? null : text(value, name);
    }

    /**
     * The text to store for a message's JSON column, null when Python would store NULL (a value it
     * counts false); {@code asPython}: the very text the agent's {@code json.dumps} writes (its
     * separators, non-ASCII escaped), which the agent's full-text index then holds for the row (it
     * indexes tool_calls text too), else compact JSON with the characters as they are, as a store kept
     * at schema 6 always wrote. Text that came from a store is kept as it is: JSON under the rules of
     * 17, and text that is not JSON under either (the store held it; it is handed back unchanged).
     */
    public static @Nullable String encode(@Nullable JsonValue value, String name, boolean asPython) {
        if (value == null) {
            return null;
        }
        if (!value.isJson()) {
            String text = value.json();
            return text.isEmpty() ? null : text;
        }
        Object decoded = value.value();
        if (isEmpty(decoded)) {
            return null;
        }
        if (!asPython) {
            return text(decoded, name);
        }
        try {
            return value.json();
        } catch (InvalidArgumentException notJson) {
            throw new InvalidArgumentException(name + " cannot be written as JSON: " + notJson.getMessage(), notJson);
        }
    }

    /** The JSON text of a list of strings (a query's filter list, say); null for null. */
    public static @Nullable String text(@Nullable List<String> values) {
        return values == null ? null : text(values, "list");
    }

    private static String text(@Nullable Object value, String name) {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = FACTORY.createGenerator(text)) {
            write(json, value);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidArgumentException(name + " cannot be written as JSON: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }

    private static void write(JsonGenerator json, @Nullable Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof CharSequence text) {
            json.writeString(text.toString());
        } else if (value instanceof Boolean bool) {
            json.writeBoolean(bool);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double number) {
            json.writeNumber(number);
        } else if (value instanceof Float number) {
            json.writeNumber(number);
        } else if (value instanceof BigDecimal decimal) {
            json.writeNumber(decimal);
        } else if (value instanceof BigInteger integer) {
            json.writeNumber(integer);
        } else if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (entry.getKey() == null) {
                    throw new IllegalArgumentException("a map key is null");
                }
                json.writeFieldName(entry.getKey().toString());
                write(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof Collection<?> list) {
            json.writeStartArray();
            for (Object element : list) {
                write(json, element);
            }
            json.writeEndArray();
        } else if (value.getClass().isArray()) {
            json.writeStartArray();
            for (int i = 0, length = Array.getLength(value); i < length; i++) {
                write(json, Array.get(value, i));
            }
            json.writeEndArray();
        } else {
            json.writeRawValue(Mapper.INSTANCE.writeValueAsString(value));
        }
    }

    /**
     * How many tool calls an assistant message adds to its session: the number of elements of a list,
     * 1 for any other non-null value (even an empty map, which is stored as NULL), 0 for null.
     */
    public static int toolCallCount(@Nullable Object toolCalls) {
        if (toolCalls == null) {
            return 0;
        }
        if (toolCalls instanceof Collection<?> list) {
            return list.size();
        }
        if (toolCalls.getClass().isArray()) {
            return Array.getLength(toolCalls);
        }
        if (toolCalls instanceof JsonNode node && node.isArray()) {
            return node.size();
        }
        return 1;
    }

    /** Python's falsiness for the values a caller can hand us. */
    private static boolean isEmpty(@Nullable Object value) {
        if (value == null || Boolean.FALSE.equals(value)) {
            return true;
        }
        if (value instanceof CharSequence text) {
            return text.isEmpty();
        }
        if (value instanceof Collection<?> collection) {
            return collection.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return map.isEmpty();
        }
        if (value.getClass().isArray()) {
            return Array.getLength(value) == 0;
        }
        if (value instanceof Number number) {
            return isZero(number);
        }
        if (value instanceof JsonNode node) {
            return node.isNull() || node.isMissingNode() || (node.isContainerNode() && node.isEmpty())
                    || (node.isTextual() && node.textValue().isEmpty()) || (node.isBoolean() && !node.booleanValue())
                    || (node.isNumber() && isZero(node.numberValue()));
        }
        return false;
    }

    private static boolean isZero(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal.signum() == 0;
        }
        if (number instanceof BigInteger integer) {
            return integer.signum() == 0;
        }
        return number.doubleValue() == 0.0;
    }
}
