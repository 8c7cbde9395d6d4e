package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;

/**
 * The arguments of {@code append_message} (everything but the session id), also one message of
 * {@code replace_messages} and {@code archive_and_compact}. Build with {@link #builder(String)};
 * {@link #of(String, String)} for the common role + text case.
 *
 * <p>The columns of schema 7 and later ({@code reasoningContent}, {@code codexMessageItems},
 * {@code platformMessageId}, {@code observed}) and structured content need a store that follows the
 * rules of schema 17: a store kept at 6 refuses them ({@link dev.hermes.state.InvalidArgumentException})
 * rather than drop them.
 *
 * @param content             text, or structured content (a list of parts, a dict), stored as the agent stores it
 * @param toolCalls           typed calls ({@link ToolCalls#of}) or any JSON value ({@link ToolCalls#json(Object)});
 *                            a list adds its size to tool_call_count, any other value but JSON null adds 1
 *                            (an empty list/map is stored as NULL)
 * @param reasoningDetails    stored as {@link JsonValue} says (a value Python counts false → NULL)
 * @param codexReasoningItems stored as {@link JsonValue} says
 * @param reasoningContent    stored verbatim, an empty text included
 * @param codexMessageItems   stored as {@link JsonValue} says
 * @param platformMessageId   the messaging platform's own id of the message
 * @param observed            a group-chat line the agent saw but was not addressed by
 * @param timestamp           when the message was said; null = the store's clock at the write
 */
public record NewMessage(
        String role,
        @Nullable MessageContent content,
        @Nullable String toolName,
        @Nullable ToolCalls toolCalls,
        @Nullable String toolCallId,
        @Nullable Long tokenCount,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable JsonValue reasoningDetails,
        @Nullable JsonValue codexReasoningItems,
        @Nullable String reasoningContent,
        @Nullable JsonValue codexMessageItems,
        @Nullable String platformMessageId,
        boolean observed,
        @Nullable Instant timestamp) {

    public static NewMessage of(String role, @Nullable String content) {
        return builder(role).content(content).build();
    }

    public static NewMessage of(String role, @Nullable MessageContent content) {
        return builder(role).content(content).build();
    }

    /** The content as one text, for code that handles only text (see {@link MessageContent#plainText()}). */
    public @Nullable String text() {
        return content == null ? null : content.plainText();
    }

    public static Builder builder(String role) {
        return new Builder(role);
    }

    /** A builder holding this message's values, to change some of them. */
    public Builder toBuilder() {
        return new Builder(role).content(content).toolName(toolName).toolCalls(toolCalls).toolCallId(toolCallId)
                .tokenCount(tokenCount).finishReason(finishReason).reasoning(reasoning)
                .reasoningDetails(reasoningDetails).codexReasoningItems(codexReasoningItems)
                .reasoningContent(reasoningContent).codexMessageItems(codexMessageItems)
                .platformMessageId(platformMessageId).observed(observed).timestamp(timestamp);
    }

    public static final class Builder {
        private final String role;
        private @Nullable MessageContent content;
        private @Nullable String toolName;
        private @Nullable ToolCalls toolCalls;
        private @Nullable String toolCallId;
        private @Nullable Long tokenCount;
        private @Nullable String finishReason;
        private @Nullable String reasoning;
        private @Nullable JsonValue reasoningDetails;
        private @Nullable JsonValue codexReasoningItems;
        private @Nullable String reasoningContent;
        private @Nullable JsonValue codexMessageItems;
        private @Nullable String platformMessageId;
        private boolean observed;
        private @Nullable Instant timestamp;

        private Builder(String role) {
            this.role = role;
        }

        /** Text content; null = no content. */
        public Builder content(@Nullable String content) {
            this.content = MessageContent.text(content);
            return this;
        }

        public Builder content(@Nullable MessageContent content) {
            this.content = content;
            return this;
        }

        /** Multimodal content: a list of parts such as {@code {"type": "text", "text": ...}}. */
        public Builder parts(List<?> parts) {
            this.content = MessageContent.parts(parts);
            return this;
        }

        public Builder toolName(@Nullable String toolName) {
            this.toolName = toolName;
            return this;
        }

        public Builder toolCalls(@Nullable ToolCalls toolCalls) {
            this.toolCalls = toolCalls;
            return this;
        }

        public Builder toolCallId(@Nullable String toolCallId) {
            this.toolCallId = toolCallId;
            return this;
        }

        public Builder tokenCount(@Nullable Long tokenCount) {
            this.tokenCount = tokenCount;
            return this;
        }

        public Builder finishReason(@Nullable String finishReason) {
            this.finishReason = finishReason;
            return this;
        }

        public Builder reasoning(@Nullable String reasoning) {
            this.reasoning = reasoning;
            return this;
        }

        public Builder reasoningDetails(@Nullable JsonValue reasoningDetails) {
            this.reasoningDetails = reasoningDetails;
            return this;
        }

        public Builder codexReasoningItems(@Nullable JsonValue codexReasoningItems) {
            this.codexReasoningItems = codexReasoningItems;
            return this;
        }

        public Builder reasoningContent(@Nullable String reasoningContent) {
            this.reasoningContent = reasoningContent;
            return this;
        }

        public Builder codexMessageItems(@Nullable JsonValue codexMessageItems) {
            this.codexMessageItems = codexMessageItems;
            return this;
        }

        public Builder platformMessageId(@Nullable String platformMessageId) {
            this.platformMessageId = platformMessageId;
            return this;
        }

        public Builder observed(boolean observed) {
            this.observed = observed;
            return this;
        }

        /** When the message was said (kept to the nanosecond the stored double can hold); null = now. */
        public Builder timestamp(@Nullable Instant timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        public NewMessage build() {
            return new NewMessage(role, content, toolName, toolCalls, toolCallId, tokenCount, finishReason,
                    reasoning, reasoningDetails, codexReasoningItems, reasoningContent, codexMessageItems,
                    platformMessageId, observed, timestamp);
        }
    }
}
