package dev.hermes.state.core.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.json.PythonJson;
import org.jspecify.annotations.Nullable;

/**
 * The value of one of a message's JSON columns ({@code reasoning_details}, {@code codex_reasoning_items},
 * {@code codex_message_items}; {@link ToolCalls} for {@code tool_calls}): the JSON text exactly as the
 * column holds it, and its value, decoded only when asked for ({@link PythonJson}'s rules, those of
 * Python's {@code json.loads}). A store may hold text there that is not JSON ({@link #isJson()}); it
 * is kept as it is, so a value read and written again is the same text.
 *
 * <p>Made from a value ({@link #of}), {@link #json()} is the text the agent of schema 17 writes for it
 * ({@code json.dumps}), encoded when first asked for; a store kept at schema 6 writes such a value as
 * compact JSON, as it always did. Appending a value Python counts false (null, false, zero, an empty
 * text, list or map) stores NULL, as the agent does ({@code json.dumps(v) if v else None}); a value
 * that cannot be written as JSON is refused by the append ({@link InvalidArgumentException}).
 *
 * <p>Two values are equal when their JSON texts are. Immutable: {@link #value()} decodes anew on
 * each call, so what it returns belongs to the caller.
 */
public final class JsonValue {
    private static final byte UNCHECKED = 0;
    private static final byte JSON = 1;
    private static final byte NOT_JSON = 2;

    /** The value {@link #of} was given; null for a value made from text (and for JSON null). */
    private final @Nullable Object given;
    private final boolean fromValue;
    /** The text; for a value made by {@link #of}, filled when first asked for (a String is safely shared). */
    private @Nullable String json;
    /** Whether the text is JSON, once checked (a race only checks twice, with the same answer). */
    private byte validity;

    private JsonValue(@Nullable String json, @Nullable Object given, boolean fromValue) {
        this.json = json;
        this.given = given;
        this.fromValue = fromValue;
        this.validity = fromValue ? JSON : UNCHECKED;
    }

    /** The value of a column holding {@code json}, kept byte for byte (also text that is not JSON). */
    public static JsonValue ofJson(String json) {
        if (json == null) {
            throw new InvalidArgumentException("the JSON text must not be null");
        }
        return new JsonValue(json, null, false);
    }

    /**
     * A plain Java JSON value (Map, List, array, String, Number, Boolean, null; other objects such as
     * records by way of Jackson's object mapper), stored as the store stores it. A JsonValue is itself,
     * and {@link ToolCalls} their JSON value.
     */
    public static JsonValue of(@Nullable Object value) {
        if (value instanceof JsonValue json) {
            return json;
        }
        if (value instanceof ToolCalls calls) {
            return calls.jsonValue();
        }
        return new JsonValue(null, value, true);
    }

    /**
     * The JSON text: as the column holds it, or for a value made by {@link #of} the text the agent of
     * schema 17 writes for it.
     *
     * @throws InvalidArgumentException a value made by {@link #of} that cannot be written as JSON
     */
    public String json() {
        String text = json;
        if (text == null) {
            text = pythonText(given);
            json = text;
        }
        return text;
    }

    /**
     * The value: decoded from the text (Map, List, String, Long/BigInteger, Double, Boolean, null), or
     * the one {@link #of} was given. Null for JSON null and for text that is not JSON ({@link #isJson()}
     * tells them apart), as the agent's replay reads an undecodable column as None.
     */
    public @Nullable Object value() {
        if (fromValue) {
            return given;
        }
        String text = json();
        if (validity == NOT_JSON) {
            return null;
        }
        try {
            Object value = PythonJson.parse(text);
            validity = JSON;
            return value;
        } catch (InvalidArgumentException notJson) {
            validity = NOT_JSON;
            return null;
        }
    }

    /** False when the text is not one JSON document (a store can hold any text in the column). */
    public boolean isJson() {
        byte known = validity;
        if (known == UNCHECKED) {
            known = PythonJson.isJson(json()) ? JSON : NOT_JSON;
            validity = known;
        }
        return known == JSON;
    }

    /** The agent's text for a value; anything but a plain value goes through its JSON first. */
    private static String pythonText(@Nullable Object value) {
        try {
            return PythonJson.dumps(value);
        } catch (InvalidArgumentException notPlain) {
            try {
                return PythonJson.dumps(PythonJson.parse(Mapper.INSTANCE.writeValueAsString(value)));
            } catch (JsonProcessingException | IllegalArgumentException e) {
                throw new InvalidArgumentException("the value cannot be written as JSON: " + e.getMessage(), e);
            }
        }
    }

    /** Loaded only when a caller hands over something that is not a plain value. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = JsonMapper.builder().build();
    }

    @Override
    public boolean equals(@Nullable Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof JsonValue that)) {
            return false;
        }
        try {
            return json().equals(that.json());
        } catch (InvalidArgumentException unwritable) {
            return false; // a value that has no JSON text equals only itself
        }
    }

    @Override
    public int hashCode() {
        try {
            return json().hashCode();
        } catch (InvalidArgumentException unwritable) {
            return System.identityHashCode(this);
        }
    }

    /** The JSON text (or, for a value that cannot be written as JSON, a note saying so). */
    @Override
    public String toString() {
        try {
            return json();
        } catch (InvalidArgumentException unwritable) {
            return "<not JSON: " + (given == null ? "null" : given.getClass().getSimpleName()) + ">";
        }
    }
}
