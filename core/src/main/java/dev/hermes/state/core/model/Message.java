package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One row of {@code messages}, every column, as {@code get_messages} returns it.
 *
 * <p>Under the rules of schema 17 the content is what the agent stored decoded: structured content
 * (a multimodal list of parts, a dict) comes back as {@link MessageContent.Structured}, never as its
 * stored marker text. A store kept at schema 6 returns the stored text as it is (the agent of that
 * schema did not decode), so there the content is always {@link MessageContent.Text}. A column the
 * store's file lacks reads as the agent's default for it: null, or for the flags {@code observed =
 * false}, {@code active = true}, {@code compacted = false}.
 *
 * @param toolCalls           the decoded JSON of {@code tool_calls}: a {@code List}/{@code Map}/scalar of plain
 *                            Java values (Map, List, String, Number, Boolean, null); null when the column is
 *                            NULL; an empty list when the stored text is not valid JSON (Hermes' rule)
 * @param reasoningDetails    JSON text as stored (nullable), not decoded (Hermes' rule)
 * @param codexReasoningItems JSON text as stored (nullable), not decoded (Hermes' rule)
 * @param reasoningContent    the provider's own reasoning text (schema 7), kept apart from {@code reasoning};
 *                            an empty text is a value, not an absence
 * @param codexMessageItems   JSON text as stored (schema 9), not decoded (Hermes' rule)
 * @param platformMessageId   the messaging platform's own id of the message (schema 12)
 * @param observed            a group-chat line the agent saw but was not addressed by (schema 13)
 * @param active              false for a row hidden from the transcript: rewound, or archived by a compaction
 * @param compacted           the row was summarised away by an in-place compaction (it stays searchable)
 */
public record Message(
        long id,
        String sessionId,
        String role,
        @Nullable MessageContent content,
        @Nullable String toolCallId,
        @Nullable Object toolCalls,
        @Nullable String toolName,
        Instant timestamp,
        @Nullable Long tokenCount,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable String reasoningDetails,
        @Nullable String codexReasoningItems,
        @Nullable String reasoningContent,
        @Nullable String codexMessageItems,
        @Nullable String platformMessageId,
        boolean observed,
        boolean active,
        boolean compacted) {

    /**
     * The content as one text, for code that only handles text: the text itself, or the text parts of
     * structured content joined by newlines (see {@link MessageContent#plainText()}); null without content.
     */
    public @Nullable String text() {
        return content == null ? null : content.plainText();
    }
}
