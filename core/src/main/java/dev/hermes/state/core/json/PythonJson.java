package dev.hermes.state.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text read the way Python's {@code json.loads} reads it, into plain Java values: the store's
 * JSON columns (tool_calls, reasoning_details...) and the command line's JSON-RPC requests both read
 * with it. Objects become {@link LinkedHashMap}s (a repeated key keeps its last value), arrays
 * {@link ArrayList}s, integers {@link Long} or, beyond its range, {@link java.math.BigInteger} (a
 * Python int has no size limit), other numbers {@link Double} ({@code NaN}, {@code Infinity} and
 * {@code -Infinity} included, as Python accepts them), strings of any length; anything after the
 * document other than whitespace is an error. Jackson's streaming core only: no object mapper to
 * warm up on a start-up path. {@link #dumps} writes the text Python's {@code json.dumps} writes with
 * its defaults.
 */
public final class PythonJson {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            // a message may be as long as the agent made it: the heap is the only limit, as in Python
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .build();

    private PythonJson() {
    }

    /**
     * The value of the one JSON document {@code text} holds.
     *
     * @throws InvalidArgumentException "Malformed JSON: ..." (with the column) when it is not JSON
     */
    public static @Nullable Object parse(String text) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new InvalidArgumentException("Malformed JSON: empty input");
            }
            Object value = read(parser, first);
            if (parser.nextToken() != null) {
                throw new InvalidArgumentException("Malformed JSON: unexpected content after the JSON value at column "
                        + parser.currentLocation().getColumnNr());
            }
            return value;
        } catch (JsonParseException e) {
            throw new InvalidArgumentException("Malformed JSON: " + e.getOriginalMessage().lines().findFirst().orElse("")
                    + " at column " + e.getLocation().getColumnNr());
        } catch (IOException e) {
            throw new InvalidArgumentException("Malformed JSON: " + e.getMessage());
        }
    }

    /**
     * True when {@code text} is one JSON document that {@link #parse} reads; checked token by token
     * without building its value, for a reader that only needs to know (whether a key is present).
     */
    public static boolean isJson(String text) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException notJson) {
            return false;
        }
    }

    private static @Nullable Object read(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT -> {
                Map<String, @Nullable Object> object = new LinkedHashMap<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String name = parser.currentName();
                    object.put(name, read(parser, parser.nextToken()));
                }
                return object;
            }
            case START_ARRAY -> {
                List<@Nullable Object> array = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(read(parser, next));
                }
                return array;
            }
            case VALUE_STRING -> {
                return parser.getText();
            }
            case VALUE_NUMBER_INT -> {
                return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? parser.getBigIntegerValue()
                        : (Object) parser.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return parser.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new JsonParseException(parser, "unexpected token " + token);
        }
    }

    /**
     * The text Python's {@code json.dumps(value)} writes with its default options: {@code ", "} and
     * {@code ": "} between items, every character outside ASCII escaped as {@code \\uXXXX} (surrogate
     * pairs beyond the BMP), floats as Python's {@code repr} ({@code 1.0}, {@code 1e+16},
     * {@code NaN}, {@code Infinity}). Plain values only (Map, List, arrays, String, Number, Boolean, null).
     *
     * @throws InvalidArgumentException for a value of another type, a null map key, a container that
     *         holds itself (Python: "Circular reference detected") or one nested deeper than
     *         {@value #MAX_DEPTH} levels (Python stops at its recursion limit, about as deep)
     */
    public static String dumps(@Nullable Object value) {
        StringBuilder out = new StringBuilder();
        dump(out, value, new Containers());
        return out.toString();
    }

    /** How deep containers may nest in a value written: Jackson's default for what it reads, too. */
    static final int MAX_DEPTH = 1000;

    /** The containers being written, outermost first: a value met again inside itself has no JSON text. */
    private static final class Containers {
        /** By identity: the path is short (a tool call nests three or four deep), a scan beats hashing. */
        private final List<Object> open = new ArrayList<>(8);

        void enter(Object container) {
            if (open.size() >= MAX_DEPTH) {
                throw new InvalidArgumentException("a value nested deeper than " + MAX_DEPTH + " levels cannot be written as JSON");
            }
            for (Object outer : open) {
                if (outer == container) {
                    throw new InvalidArgumentException("Circular reference detected: a value that contains itself cannot be written as JSON");
                }
            }
            open.add(container);
        }

        void leave() {
            open.remove(open.size() - 1);
        }
    }

    private static void dump(StringBuilder out, @Nullable Object value, Containers containers) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof CharSequence text) {
            quote(out, text);
        } else if (value instanceof Boolean bool) {
            out.append(bool ? "true" : "false");
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof java.math.BigInteger) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            out.append(floatRepr(((Number) value).doubleValue()));
        } else if (value instanceof java.math.BigDecimal decimal) {
            out.append(floatRepr(decimal.doubleValue()));
        } else if (value instanceof Map<?, ?> map) {
            containers.enter(map);
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                Object key = entry.getKey();
                if (key == null) {
                    throw new InvalidArgumentException("a JSON object key is null");
                }
                quote(out, key instanceof CharSequence text ? text : key.toString());
                out.append(": ");
                dump(out, entry.getValue(), containers);
            }
            out.append('}');
            containers.leave();
        } else if (value instanceof Iterable<?> list) {
            containers.enter(list);
            out.append('[');
            boolean first = true;
            for (Object element : list) {
                if (!first) {
                    out.append(", ");
                }
                first = false;
                dump(out, element, containers);
            }
            out.append(']');
            containers.leave();
        } else if (value.getClass().isArray()) {
            containers.enter(value);
            out.append('[');
            for (int i = 0, length = java.lang.reflect.Array.getLength(value); i < length; i++) {
                if (i > 0) {
                    out.append(", ");
                }
                dump(out, java.lang.reflect.Array.get(value, i), containers);
            }
            out.append(']');
            containers.leave();
        } else {
            throw new InvalidArgumentException("a " + value.getClass().getSimpleName() + " cannot be written as JSON");
        }
    }

    private static void quote(StringBuilder out, CharSequence text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Python's {@code float.__repr__}: the shortest digits that read back, in Python's notation. */
    static String floatRepr(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        java.math.BigDecimal shortest = new java.math.BigDecimal(Double.toString(value)).stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - shortest.scale(); // of the first digit
        String sign = value < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
        }
        String plain = shortest.abs().toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }
}
