package dev.hermes.state.core;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hermes.state.InvalidArgumentException;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON text columns (model_config, tool_calls, reasoning_details, codex_reasoning_items) the way
 * the Python agent writes and reads them: {@code json.dumps(v) if v else None} on the way in, so
 * every value Python counts as false (null, empty list/map/string, false, zero) is stored as NULL;
 * {@code json.loads} on the way out, which also accepts NaN/Infinity and refuses trailing data.
 *
 * <p>Plain values (maps, lists, arrays, strings, numbers, booleans, null) are written and read with
 * Jackson's streaming core, which starts in a fraction of the time its object mapper needs (the
 * first tool call of a new process would otherwise wait for it); other objects (records, beans,
 * {@link JsonNode}s) go through the object mapper, loaded on first need.
 */
final class JsonValues {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private JsonValues() {
    }

    /** Loaded only when a caller hands over something that is not a plain value. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = JsonMapper.builder(FACTORY).build();
    }

    /** The text to store for {@code value}: null when Python would store NULL. */
    static String encode(Object value, String name) {
        if (isEmpty(value)) {
            return null;
        }
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

    private static void write(JsonGenerator json, Object value) throws IOException {
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
     * Decodes stored JSON text into plain Java values: LinkedHashMap, ArrayList, String, Integer/Long/
     * BigInteger, Double, Boolean, null.
     */
    static Object decode(String text) throws IOException {
        try (JsonParser json = FACTORY.createParser(text)) {
            JsonToken first = json.nextToken();
            if (first == null) {
                throw new JsonParseException(json, "no JSON value");
            }
            Object value = read(json, first);
            if (json.nextToken() != null) {
                throw new JsonParseException(json, "extra data after the JSON value");
            }
            return value;
        }
    }

    private static Object read(JsonParser json, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken next = json.nextToken(); next != JsonToken.END_OBJECT; next = json.nextToken()) {
                    String key = json.currentName();
                    map.put(key, read(json, json.nextToken()));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (JsonToken next = json.nextToken(); next != JsonToken.END_ARRAY; next = json.nextToken()) {
                    list.add(read(json, next));
                }
                return list;
            }
            case VALUE_STRING -> {
                return json.getText();
            }
            case VALUE_NUMBER_INT -> {
                return json.getNumberValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return json.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new JsonParseException(json, "unexpected " + token);
        }
    }

    /**
     * How many tool calls an assistant message adds to its session: the number of elements of a list,
     * 1 for any other non-null value (even an empty map, which is stored as NULL), 0 for null.
     */
    static int toolCallCount(Object toolCalls) {
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
    static boolean isEmpty(Object value) {
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
