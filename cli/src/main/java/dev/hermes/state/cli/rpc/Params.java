package dev.hermes.state.cli.rpc;

import dev.hermes.state.InvalidArgumentException;

import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The keyword arguments of one RPC call, checked like Python checks a call: an unknown name or a
 * missing required one is an error before anything runs; an absent optional one takes the Hermes
 * default. Values must have the JSON type the parameter needs (a string where Hermes takes a str,
 * an integer where it takes an int...), else the call fails with {@code invalid_argument}.
 */
final class Params {
    private final String caller;
    private final Map<String, Object> values;

    /**
     * @param caller   what takes the parameters, for messages: {@code append_message()}
     * @param accepted every parameter name it takes
     * @throws InvalidArgumentException naming the first unknown parameter
     */
    Params(String caller, Map<String, Object> values, List<String> accepted) {
        this.caller = caller;
        this.values = values;
        for (String name : values.keySet()) {
            if (!accepted.contains(name)) {
                throw new InvalidArgumentException(caller + " got an unexpected parameter '" + name + "'"
                        + (accepted.isEmpty() ? "; it takes none" : "; it takes " + String.join(", ", accepted)));
            }
        }
    }

    /** A parameter without default; its value may still be null (the store then says what is wrong). */
    @Nullable String requiredString(String name) {
        require(name);
        return string(name);
    }

    /** True when the caller gave the parameter (even as null). */
    boolean has(String name) {
        return values.containsKey(name);
    }

    /** An integer parameter without default; it must not be null. */
    long requiredLong(String name) {
        require(name);
        Long value = optionalLong(name);
        if (value == null) {
            throw wrongType(name, "an integer", null);
        }
        return value;
    }

    /** A string or null; null when absent. */
    @Nullable String string(String name) {
        Object value = values.get(name);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw wrongType(name, "a string", value);
    }

    /** A string; {@code defaultValue} when absent (an explicit null stays null). */
    @Nullable String string(String name, @Nullable String defaultValue) {
        return values.containsKey(name) ? string(name) : defaultValue;
    }

    /**
     * A number of rows (a limit, an offset); {@code defaultValue} when absent or null. Python's ints
     * have no bound, and callers pass {@code sys.maxsize} or {@code 10**12} to mean "all of them": a
     * count above {@link Integer#MAX_VALUE} asks for more rows than one answer can hold, so it is read
     * as {@link Integer#MAX_VALUE}, which gives the same answer. A negative count is left for the store
     * to refuse with its own message.
     */
    int count(String name, int defaultValue) {
        if (values.get(name) instanceof BigInteger big && big.signum() > 0) {
            return Integer.MAX_VALUE;
        }
        Long value = optionalLong(name);
        if (value == null) {
            return defaultValue;
        }
        if (value < Integer.MIN_VALUE) {
            throw new InvalidArgumentException(caller + ": parameter '" + name + "' is out of range: " + value);
        }
        return (int) Math.min(value, Integer.MAX_VALUE);
    }

    /** An integer; {@code defaultValue} when absent or null. */
    long longValue(String name, long defaultValue) {
        Long value = optionalLong(name);
        return value == null ? defaultValue : value;
    }

    /** An integer or null. A float with an integral value (3.0) is accepted, as Python's int columns would. */
    @Nullable Long optionalLong(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Long number) {
            return number;
        }
        if (value instanceof BigInteger) {
            throw new InvalidArgumentException(caller + ": parameter '" + name + "' is out of range: " + value);
        }
        if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 9.0e15) {
            return number.longValue();
        }
        throw wrongType(name, "an integer", value);
    }

    /** A number or null. */
    @Nullable Double optionalDouble(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Number number && !(value instanceof Boolean)) {
            return number.doubleValue();
        }
        throw wrongType(name, "a number", value);
    }

    /** A number; {@code defaultValue} when absent or null. */
    double number(String name, double defaultValue) {
        Double value = optionalDouble(name);
        return value == null ? defaultValue : value;
    }

    /** true or false; {@code defaultValue} when absent or null. */
    boolean bool(String name, boolean defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        throw wrongType(name, "true or false", value);
    }

    /** A list of strings, or null when absent or null. */
    @Nullable List<String> stringList(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof List<?> items)) {
            throw wrongType(name, "a list of strings", value);
        }
        List<String> strings = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof String text)) {
                throw wrongType(name, "a list of strings", value);
            }
            strings.add(text);
        }
        return strings;
    }

    /**
     * A string, or an integer read as Python's {@code str()} writes it (the agent converts the
     * Telegram ids it is given with {@code str()}); null when absent or null.
     */
    @Nullable String text(String name) {
        Object value = values.get(name);
        if (value instanceof Long || value instanceof BigInteger) {
            return value.toString();
        }
        return string(name);
    }

    /** A text parameter without default ({@link #text}). */
    @Nullable String requiredText(String name) {
        require(name);
        return text(name);
    }

    /** true, false or null; null when absent. */
    @Nullable Boolean optionalBool(String name) {
        Object value = values.get(name);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        throw wrongType(name, "true, false or null", value);
    }

    /** A folder path (a string), or null when absent or null. */
    @Nullable Path path(String name) {
        String value = string(name);
        if (value == null) {
            return null;
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException invalid) {
            throw new InvalidArgumentException(caller + ": parameter '" + name + "' is not a path: " + invalid.getMessage());
        }
    }

    /**
     * The strings of a list whose other items are passed over (the agent keeps only the non-empty
     * strings of {@code delete_sessions}' ids); the parameter is required.
     */
    List<String> stringsOf(String name) {
        require(name);
        Object value = values.get(name);
        if (!(value instanceof List<?> items)) {
            throw wrongType(name, "a list", value);
        }
        List<String> strings = new ArrayList<>();
        for (Object item : items) {
            if (item instanceof String text) {
                strings.add(text);
            }
        }
        return strings;
    }

    /** An object of string keys and string (or null) values; required. */
    Map<String, String> stringMap(String name) {
        require(name);
        Object value = values.get(name);
        if (!(value instanceof Map<?, ?> map)) {
            throw wrongType(name, "an object of strings", value);
        }
        Map<String, String> strings = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (entry.getValue() != null && !(entry.getValue() instanceof String)) {
                throw wrongType(name, "an object of strings", value);
            }
            strings.put(String.valueOf(entry.getKey()), (String) entry.getValue());
        }
        return strings;
    }

    /** Any JSON value as plain Java values (objects are Maps, arrays Lists), or null. */
    @Nullable Object json(String name) {
        return values.get(name);
    }

    /** A list of JSON objects (for batch parameters), never null. */
    List<Map<String, Object>> objectList(String name) {
        require(name);
        Object value = values.get(name);
        if (!(value instanceof List<?> items)) {
            throw wrongType(name, "a list of objects", value);
        }
        List<Map<String, Object>> objects = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof Map<?, ?> map)) {
                throw wrongType(name, "a list of objects", value);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) map;
            objects.add(object);
        }
        return objects;
    }

    /** Fails the call when the parameter is absent (Python's missing required argument). */
    void require(String name) {
        if (!values.containsKey(name)) {
            throw new InvalidArgumentException(caller + " is missing the required parameter '" + name + "'");
        }
    }

    private InvalidArgumentException wrongType(String name, String expected, @Nullable Object value) {
        return new InvalidArgumentException(caller + ": parameter '" + name + "' must be " + expected + ", got "
                + jsonType(value));
    }

    private static String jsonType(@Nullable Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof Number) {
            return "the number " + value;
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof Map) {
            return "an object";
        }
        return value.getClass().getSimpleName();
    }
}
