package dev.hermes.state.core;

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
        /* nullable */ String content,
        /* nullable */ String toolCallId,
        /* nullable */ Object toolCalls,
        /* nullable */ String toolName,
        Instant timestamp,
        /* nullable */ Long tokenCount,
        /* nullable */ String finishReason,
        /* nullable */ String reasoning,
        /* nullable */ String reasoningDetails,
        /* nullable */ String codexReasoningItems) {
}
