package dev.hermes.state.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hermes.state.InvalidArgumentException;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * The JSON text columns (model_config, tool_calls, reasoning_details, codex_reasoning_items) the way
 * the Python agent writes and reads them: {@code json.dumps(v) if v else None} on the way in, so
 * every value Python counts as false (null, empty list/map/string, false, zero) is stored as NULL;
 * {@code json.loads} on the way out, which also accepts NaN/Infinity and refuses trailing data.
 */
final class JsonValues {

    private JsonValues() {
    }

    /** Jackson is loaded on first use: listing sessions from the command line never needs it. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = JsonMapper.builder()
                .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    /** The text to store for {@code value}: null when Python would store NULL. */
    static String encode(Object value, String name) {
        if (isEmpty(value)) {
            return null;
        }
        try {
            return Mapper.INSTANCE.writeValueAsString(value);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidArgumentException(name + " cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** Decodes stored JSON text into plain Java values (Map, List, String, Number, Boolean, null). */
    static Object decode(String text) throws JsonProcessingException {
        return Mapper.INSTANCE.readValue(text, Object.class);
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
