package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;

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
 * @param toolCalls           {@code tool_calls} as stored, decoded only when asked for ({@link ToolCalls#value()}:
 *                            an empty list when the stored text is not valid JSON, Hermes' rule); null when
 *                            the column is NULL
 * @param reasoningDetails    as stored (null when NULL); the agent's {@code get_messages} hands it over as its
 *                            text ({@link JsonValue#json()}), not decoded
 * @param codexReasoningItems as stored, like {@code reasoningDetails}
 * @param reasoningContent    the provider's own reasoning text (schema 7), kept apart from {@code reasoning};
 *                            an empty text is a value, not an absence
 * @param codexMessageItems   as stored (schema 9), like {@code reasoningDetails}
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
        @Nullable ToolCalls toolCalls,
        @Nullable String toolName,
        Instant timestamp,
        @Nullable Long tokenCount,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable JsonValue reasoningDetails,
        @Nullable JsonValue codexReasoningItems,
        @Nullable String reasoningContent,
        @Nullable JsonValue codexMessageItems,
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

    /**
     * The typed tool calls ({@link ToolCalls#calls()}): empty when the message has none.
     *
     * @throws dev.hermes.state.InvalidArgumentException naming this message, when its tool_calls are
     *                                                   not in the OpenAI shape
     */
    public List<ToolCall> calls() {
        return toolCalls == null ? List.of() : toolCalls.calls(id);
    }
}
