package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The columns of a {@code messages} row as the Python agent's {@code get_messages} dict holds them, up
 * to its flags: tool_calls decoded, the other JSON columns as text, content as its text or (schema 17)
 * its decoded list or dict, in the order of the agent's own table. The flags ({@code observed},
 * {@code active}, {@code compacted}) are left to the caller: the command line writes them as the
 * integers the agent stores, the HTTP server as booleans.
 */
public final class MessageRows {
    private MessageRows() {
    }

    /** The row of {@code m} without its flags, a new map the caller adds them to; {@code v17}: with schema 17's columns. */
    public static Map<String, @Nullable Object> withoutFlags(Message m, boolean v17) {
        Map<String, @Nullable Object> row = new LinkedHashMap<>();
        row.put("id", m.id());
        row.put("session_id", m.sessionId());
        row.put("role", m.role());
        MessageContent content = m.content();
        row.put("content", content == null ? null : content.value());
        row.put("tool_call_id", m.toolCallId());
        ToolCalls toolCalls = m.toolCalls();
        row.put("tool_calls", toolCalls == null ? null : toolCalls.value());
        row.put("tool_name", m.toolName());
        row.put("timestamp", m.timestamp());
        row.put("token_count", m.tokenCount());
        row.put("finish_reason", m.finishReason());
        row.put("reasoning", m.reasoning());
        if (v17) {
            row.put("reasoning_content", m.reasoningContent());
        }
        row.put("reasoning_details", text(m.reasoningDetails()));
        row.put("codex_reasoning_items", text(m.codexReasoningItems()));
        if (v17) {
            row.put("codex_message_items", text(m.codexMessageItems()));
            row.put("platform_message_id", m.platformMessageId());
        }
        return row;
    }

    private static @Nullable String text(@Nullable JsonValue value) {
        return value == null ? null : value.json();
    }
}
