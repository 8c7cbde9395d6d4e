package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code create_session} (and of {@code ensure_session}'s keywords). Build with
 * {@link #builder(String, String)}. The gateway fields and {@code cwd} are schema 17's: a store kept at
 * version 6 refuses them.
 *
 * @param modelConfig plain Java JSON value (Map/List/...) stored as JSON text; null or empty → NULL
 * @param sessionKey  the gateway's routing key
 * @param chatId      the chat or room the session starts in
 * @param chatType    the kind of chat ({@code dm}, {@code group}...)
 * @param threadId    the thread within the chat
 * @param cwd         the working directory
 */
public record NewSession(
        String id,
        String source,
        @Nullable String model,
        @Nullable Object modelConfig,
        @Nullable String systemPrompt,
        @Nullable String userId,
        @Nullable String parentSessionId,
        @Nullable String sessionKey,
        @Nullable String chatId,
        @Nullable String chatType,
        @Nullable String threadId,
        @Nullable String cwd) {

    /** The arguments of version 6's {@code create_session}. */
    public NewSession(String id, String source, @Nullable String model, @Nullable Object modelConfig,
                      @Nullable String systemPrompt, @Nullable String userId, @Nullable String parentSessionId) {
        this(id, source, model, modelConfig, systemPrompt, userId, parentSessionId, null, null, null, null, null);
    }

    public static Builder builder(String id, String source) {
        return new Builder(id, source);
    }

    public static final class Builder {
        private final String id;
        private final String source;
        private @Nullable String model;
        private @Nullable Object modelConfig;
        private @Nullable String systemPrompt;
        private @Nullable String userId;
        private @Nullable String parentSessionId;
        private @Nullable String sessionKey;
        private @Nullable String chatId;
        private @Nullable String chatType;
        private @Nullable String threadId;
        private @Nullable String cwd;

        private Builder(String id, String source) {
            this.id = id;
            this.source = source;
        }

        public Builder model(@Nullable String model) {
            this.model = model;
            return this;
        }

        public Builder modelConfig(@Nullable Object modelConfig) {
            this.modelConfig = modelConfig;
            return this;
        }

        public Builder systemPrompt(@Nullable String systemPrompt) {
            this.systemPrompt = systemPrompt;
            return this;
        }

        public Builder userId(@Nullable String userId) {
            this.userId = userId;
            return this;
        }

        public Builder parentSessionId(@Nullable String parentSessionId) {
            this.parentSessionId = parentSessionId;
            return this;
        }

        public Builder sessionKey(@Nullable String sessionKey) {
            this.sessionKey = sessionKey;
            return this;
        }

        public Builder chatId(@Nullable String chatId) {
            this.chatId = chatId;
            return this;
        }

        public Builder chatType(@Nullable String chatType) {
            this.chatType = chatType;
            return this;
        }

        public Builder threadId(@Nullable String threadId) {
            this.threadId = threadId;
            return this;
        }

        public Builder cwd(@Nullable String cwd) {
            this.cwd = cwd;
            return this;
        }

        public NewSession build() {
            return new NewSession(id, source, model, modelConfig, systemPrompt, userId, parentSessionId, sessionKey,
                    chatId, chatType, threadId, cwd);
        }
    }
}
