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
        private String model;
        private Object modelConfig;
        private String systemPrompt;
        private String userId;
        private String parentSessionId;

        private Builder(String id, String source) {
            this.id = id;
            this.source = source;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder modelConfig(Object modelConfig) {
            this.modelConfig = modelConfig;
            return this;
        }

        public Builder systemPrompt(String systemPrompt) {
            this.systemPrompt = systemPrompt;
            return this;
        }

        public Builder userId(String userId) {
            this.userId = userId;
            return this;
        }

        public Builder parentSessionId(String parentSessionId) {
            this.parentSessionId = parentSessionId;
            return this;
        }

        public NewSession build() {
            return new NewSession(id, source, model, modelConfig, systemPrompt, userId, parentSessionId);
        }
    }
}
