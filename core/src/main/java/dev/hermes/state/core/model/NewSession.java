package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code create_session}. Build with {@link #builder(String, String)}.
 *
 * @param modelConfig plain Java JSON value (Map/List/...) stored as JSON text; null or empty → NULL
 */
public record NewSession(
        String id,
        String source,
        @Nullable String model,
        @Nullable Object modelConfig,
        @Nullable String systemPrompt,
        @Nullable String userId,
        @Nullable String parentSessionId) {

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

        public NewSession build() {
            return new NewSession(id, source, model, modelConfig, systemPrompt, userId, parentSessionId);
        }
    }
}
