package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One row of {@code messages}, every column, as {@code get_messages} returns it.
 *
 * @param toolCalls           the decoded JSON of {@code tool_calls}: a {@code List}/{@code Map}/scalar of plain
 *                            Java values (Map, List, String, Number, Boolean, null); null when the column is
 *                            NULL; an empty list when the stored text is not valid JSON (Hermes' rule)
 * @param reasoningDetails    JSON text as stored (nullable), not decoded (Hermes' rule)
 * @param codexReasoningItems JSON text as stored (nullable), not decoded (Hermes' rule)
 */
public record Message(
        long id,
        String sessionId,
        String role,
        @Nullable String content,
        @Nullable String toolCallId,
        @Nullable Object toolCalls,
        @Nullable String toolName,
        Instant timestamp,
        @Nullable Long tokenCount,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable String reasoningDetails,
        @Nullable String codexReasoningItems) {
}
