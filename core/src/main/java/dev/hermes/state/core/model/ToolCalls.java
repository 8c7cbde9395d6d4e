package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The {@code tool_calls} of a message: the column's JSON text exactly as stored ({@link #json()}),
 * its value decoded only when asked for ({@link #value()}), and the typed calls in the OpenAI shape
 * the Python agent writes ({@link #calls()}). Made from typed calls ({@link #of}), or from whatever
 * JSON value the agent hands over ({@link #json(Object)}, the RPC's way), or from stored text
 * ({@link #ofJson}). Storing follows {@link JsonValue}'s rules; what a message adds to its session's
 * {@code tool_call_count} is the agent's count of {@link #value()}: a list's size, 1 for any other
 * value but null (an empty map too, though it is stored as NULL).
 *
 * <p>Two values are equal when their JSON texts are. Immutable.
 */
public final class ToolCalls {
    private final JsonValue json;
    /** The calls {@link #of} was given, so reading them back decodes nothing; null otherwise. */
    private final @Nullable List<ToolCall> typed;

    private ToolCalls(JsonValue json, @Nullable List<ToolCall> typed) {
        this.json = json;
        this.typed = typed;
    }

    /** These calls, stored as the agent stores them ({@code [{"id", "type", "function": {"name", "arguments"}}]}). */
    public static ToolCalls of(List<ToolCall> calls) {
        List<ToolCall> copy = List.copyOf(calls);
        return new ToolCalls(JsonValue.of(ToolCall.toJson(copy)), copy);
    }

    /**
     * Any JSON value the agent would pass as {@code tool_calls} (plain Java values), stored as it stores
     * it; ToolCalls are themselves, a {@link JsonValue} keeps its text.
     */
    public static ToolCalls json(@Nullable Object value) {
        if (value instanceof ToolCalls calls) {
            return calls;
        }
        return new ToolCalls(JsonValue.of(value), null);
    }

    /** The value of a column holding {@code json}, kept byte for byte (also text that is not JSON). */
    public static ToolCalls ofJson(String json) {
        return new ToolCalls(JsonValue.ofJson(json), null);
    }

    /** The JSON text, exactly as stored (see {@link JsonValue#json()}). */
    public String json() {
        return json.json();
    }

    /**
     * The value as the agent's {@code get_messages} gives it: decoded; an empty list when the text is
     * not JSON (the agent's fallback); an empty text as itself (the agent decodes only a non-empty one).
     * A value made by {@link #json(Object)} or {@link #of} is the one given.
     */
    public @Nullable Object value() {
        if (json.isJson()) {
            return json.value();
        }
        String text = json.json();
        return text.isEmpty() ? text : List.of();
    }

    /** False when the stored text is not one JSON document. */
    public boolean isJson() {
        return json.isJson();
    }

    /**
     * The typed calls: empty for JSON null or an empty list; arguments stored as a JSON object rather
     * than JSON text (some writers do) come back as that object's JSON text.
     *
     * @throws dev.hermes.state.InvalidArgumentException the value is not in the OpenAI shape
     */
    public List<ToolCall> calls() {
        return calls(null);
    }

    /** {@link #calls()}, the error naming the message when there is one. */
    List<ToolCall> calls(@Nullable Long messageId) {
        return typed != null ? typed : ToolCall.fromJson(value(), messageId);
    }

    /** The JSON column value these tool calls are stored as (see {@link JsonValue}). */
    public JsonValue jsonValue() {
        return json;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return this == other || (other instanceof ToolCalls that && json.equals(that.json));
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
