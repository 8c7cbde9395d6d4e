package dev.hermes.state.core.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.InvalidArgumentException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One tool call of an assistant message, as the chat-memory adapters and Hermes know it. Hermes keeps
 * an assistant's tool calls in its {@code tool_calls} column in the OpenAI shape the Python agent
 * writes: {@code [{"id": ..., "type": "function", "function": {"name": ..., "arguments": "<JSON text>"}}]}.
 * This is the typed view of one element of that shape ({@link ToolCalls#calls()}); the column's JSON
 * itself is kept exactly ({@link ToolCalls#json()}), fields this type has no name for included, so a
 * read and a write through the store or the RPC loses nothing.
 *
 * @param type       the OpenAI call type; {@code "function"} when the framework has none
 * @param arguments  the arguments as JSON text, exactly as the model sent them
 */
public record ToolCall(@Nullable String id, String type, String name, @Nullable String arguments) {
    private static final String FUNCTION = "function";
    private static final ObjectMapper JSON = new ObjectMapper();

    public ToolCall {
        type = type == null ? FUNCTION : type;
    }

    /** A call of the OpenAI kind, "function" (what the frameworks' tool requests are). */
    public static ToolCall function(@Nullable String id, String name, @Nullable String arguments) {
        return new ToolCall(id, FUNCTION, name, arguments);
    }

    /** The JSON value of the {@code tool_calls} column for these calls (an empty list stores NULL). */
    static List<Map<String, @Nullable Object>> toJson(List<ToolCall> calls) {
        List<Map<String, @Nullable Object>> json = new ArrayList<>(calls.size());
        for (ToolCall call : calls) {
            Map<String, @Nullable Object> function = new LinkedHashMap<>();
            function.put("name", call.name());
            function.put("arguments", call.arguments());
            Map<String, @Nullable Object> entry = new LinkedHashMap<>();
            entry.put("id", call.id());
            entry.put("type", call.type());
            entry.put("function", function);
            json.add(entry);
        }
        return json;
    }

    /**
     * The calls of a decoded {@code tool_calls} value: empty for null or an empty list. Arguments stored
     * as a JSON object instead of JSON text (some writers do) come back as that object's JSON text.
     * Anything not in the OpenAI shape is refused, naming the message when there is one.
     */
    static List<ToolCall> fromJson(@Nullable Object toolCalls, @Nullable Long messageId) {
        if (toolCalls == null) {
            return List.of();
        }
        if (!(toolCalls instanceof List<?> list)) {
            throw notOpenAiShape(messageId, "it is not a list");
        }
        List<ToolCall> calls = new ArrayList<>(list.size());
        for (Object element : list) {
            if (!(element instanceof Map<?, ?> entry) || !(entry.get("function") instanceof Map<?, ?> function)) {
                throw notOpenAiShape(messageId, "an element has no \"function\" object");
            }
            if (!(function.get("name") instanceof String name)) {
                throw notOpenAiShape(messageId, "a function has no name");
            }
            calls.add(new ToolCall(text(entry.get("id"), messageId),
                    Objects.requireNonNullElse(text(entry.get("type"), messageId), FUNCTION), name,
                    arguments(function.get("arguments"), messageId)));
        }
        return calls;
    }

    private static @Nullable String text(@Nullable Object value, @Nullable Long messageId) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw notOpenAiShape(messageId, "an id or type is not text");
    }

    private static @Nullable String arguments(@Nullable Object arguments, @Nullable Long messageId) {
        if (arguments == null || arguments instanceof String) {
            return (String) arguments;
        }
        try {
            return JSON.writeValueAsString(arguments);
        } catch (JsonProcessingException e) {
            throw notOpenAiShape(messageId, "its arguments cannot be written as JSON");
        }
    }

    private static InvalidArgumentException notOpenAiShape(@Nullable Long messageId, String why) {
        return new InvalidArgumentException("The tool_calls" + (messageId == null ? "" : " of message " + messageId)
                + " are not in the OpenAI shape ([{id, type, function: {name, arguments}}]): " + why);
    }
}
