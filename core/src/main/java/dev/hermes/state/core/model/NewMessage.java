package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code append_message} (everything but the session id). Build with
 * {@link #builder(String)}; {@link #of(String, String)} for the common role + content case.
 *
 * @param toolCalls           plain Java JSON value; a List adds its size to tool_call_count, any other
 *                            non-null value adds 1 (an empty list/map is stored as NULL)
 * @param reasoningDetails    plain Java JSON value, stored as JSON text (empty → NULL)
 * @param codexReasoningItems plain Java JSON value, stored as JSON text (empty → NULL)
 */
public record NewMessage(
        String role,
        @Nullable String content,
        @Nullable String toolName,
        @Nullable Object toolCalls,
        @Nullable String toolCallId,
        @Nullable Long tokenCount,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable Object reasoningDetails,
        @Nullable Object codexReasoningItems) {

    public static NewMessage of(String role, @Nullable String content) {
        return builder(role).content(content).build();
    }

    public static Builder builder(String role) {
        return new Builder(role);
    }

    public static final class Builder {
        private final String role;
        private @Nullable String content;
        private @Nullable String toolName;
        private @Nullable Object toolCalls;
        private @Nullable String toolCallId;
        private @Nullable Long tokenCount;
        private @Nullable String finishReason;
        private @Nullable String reasoning;
        private @Nullable Object reasoningDetails;
        private @Nullable Object codexReasoningItems;

        private Builder(String role) {
            this.role = role;
        }

        public Builder content(@Nullable String content) {
            this.content = content;
            return this;
        }

        public Builder toolName(@Nullable String toolName) {
            this.toolName = toolName;
            return this;
        }

        public Builder toolCalls(@Nullable Object toolCalls) {
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

        public Builder reasoningDetails(@Nullable Object reasoningDetails) {
            this.reasoningDetails = reasoningDetails;
            return this;
        }

        public Builder codexReasoningItems(@Nullable Object codexReasoningItems) {
            this.codexReasoningItems = codexReasoningItems;
            return this;
        }

        public NewMessage build() {
            return new NewMessage(role, content, toolName, toolCalls, toolCallId, tokenCount, finishReason,
                    reasoning, reasoningDetails, codexReasoningItems);
        }
    }
}
