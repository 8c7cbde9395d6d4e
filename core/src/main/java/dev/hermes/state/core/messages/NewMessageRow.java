package dev.hermes.state.core.messages;

import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.rows.JsonColumns;
import org.jspecify.annotations.Nullable;

/** One new message's columns, checked and encoded before the write transaction starts. */
public record NewMessageRow(String role, @Nullable String content, @Nullable String toolName, @Nullable String toolCalls,
                            @Nullable String toolCallId, @Nullable Long tokenCount, @Nullable String finishReason,
                            @Nullable String reasoning, @Nullable String reasoningDetails,
                            @Nullable String codexReasoningItems, int toolCallCount) {

    public static NewMessageRow of(@Nullable NewMessage given) {
        NewMessage message = Arguments.required(given, "message");
        String role = Arguments.label(message.role(), "role");
        // Hermes: tool results do not count as tool calls, whatever they carry.
        int toolCallCount = "tool".equals(role) ? 0 : JsonColumns.toolCallCount(message.toolCalls());
        return new NewMessageRow(role,
                Arguments.optionalText(message.content(), "content"),
                Arguments.optionalLabel(message.toolName(), "tool name"),
                Arguments.optionalText(JsonColumns.encode(message.toolCalls(), "tool_calls"), "tool_calls"),
                Arguments.optionalLabel(message.toolCallId(), "tool call id"),
                message.tokenCount(),
                Arguments.optionalLabel(message.finishReason(), "finish reason"),
                Arguments.optionalText(message.reasoning(), "reasoning"),
                Arguments.optionalText(JsonColumns.encode(message.reasoningDetails(), "reasoning_details"), "reasoning_details"),
                Arguments.optionalText(JsonColumns.encode(message.codexReasoningItems(), "codex_reasoning_items"), "codex_reasoning_items"),
                toolCallCount);
    }
}
