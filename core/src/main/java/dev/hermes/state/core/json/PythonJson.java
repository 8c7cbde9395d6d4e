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
 * warm up on a start-up path.
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
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new JsonParseException(parser, "unexpected token " + token);
        }
    }
}
