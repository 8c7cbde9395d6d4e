package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code update_token_counts} (docs/behaviour.md#token-counts). Incremental by default: the five token
 * counters are increased; {@link Builder#absolute(boolean) absolute} sets them instead. Cost status,
 * source and pricing version take the given value when not null (last wins); billing provider, base
 * URL, mode and model are only filled while still NULL (first wins). {@code apiCallCount} (schema 17)
 * grows, or is set when absolute; a store kept at version 6 refuses a non-zero one.
 */
public record TokenUsage(
        long inputTokens,
        long outputTokens,
        long cacheReadTokens,
        long cacheWriteTokens,
        long reasoningTokens,
        @Nullable String model,
        @Nullable Double estimatedCostUsd,
        @Nullable Double actualCostUsd,
        @Nullable String costStatus,
        @Nullable String costSource,
        @Nullable String pricingVersion,
        @Nullable String billingProvider,
        @Nullable String billingBaseUrl,
        @Nullable String billingMode,
        long apiCallCount,
        boolean absolute) {

    /** The arguments of version 6's {@code update_token_counts} (no API call count). */
    public TokenUsage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                      long reasoningTokens, @Nullable String model, @Nullable Double estimatedCostUsd,
                      @Nullable Double actualCostUsd, @Nullable String costStatus, @Nullable String costSource,
                      @Nullable String pricingVersion, @Nullable String billingProvider,
                      @Nullable String billingBaseUrl, @Nullable String billingMode, boolean absolute) {
        this(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens, model, estimatedCostUsd,
                actualCostUsd, costStatus, costSource, pricingVersion, billingProvider, billingBaseUrl, billingMode, 0,
                absolute);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private long inputTokens;
        private long outputTokens;
        private long cacheReadTokens;
        private long cacheWriteTokens;
        private long reasoningTokens;
        private @Nullable String model;
        private @Nullable Double estimatedCostUsd;
        private @Nullable Double actualCostUsd;
        private @Nullable String costStatus;
        private @Nullable String costSource;
        private @Nullable String pricingVersion;
        private @Nullable String billingProvider;
        private @Nullable String billingBaseUrl;
        private @Nullable String billingMode;
        private long apiCallCount;
        private boolean absolute;

        private Builder() {
        }

        public Builder inputTokens(long value) {
            this.inputTokens = value;
            return this;
        }

        public Builder outputTokens(long value) {
            this.outputTokens = value;
            return this;
        }

        public Builder cacheReadTokens(long value) {
            this.cacheReadTokens = value;
            return this;
        }

        public Builder cacheWriteTokens(long value) {
            this.cacheWriteTokens = value;
            return this;
        }

        public Builder reasoningTokens(long value) {
            this.reasoningTokens = value;
            return this;
        }

        public Builder model(@Nullable String value) {
            this.model = value;
            return this;
        }

        public Builder estimatedCostUsd(@Nullable Double value) {
            this.estimatedCostUsd = value;
            return this;
        }

        public Builder actualCostUsd(@Nullable Double value) {
            this.actualCostUsd = value;
            return this;
        }

        public Builder costStatus(@Nullable String value) {
            this.costStatus = value;
            return this;
        }

        public Builder costSource(@Nullable String value) {
            this.costSource = value;
            return this;
        }

        public Builder pricingVersion(@Nullable String value) {
            this.pricingVersion = value;
            return this;
        }

        public Builder billingProvider(@Nullable String value) {
            this.billingProvider = value;
            return this;
        }

        public Builder billingBaseUrl(@Nullable String value) {
            this.billingBaseUrl = value;
            return this;
        }

        public Builder billingMode(@Nullable String value) {
            this.billingMode = value;
            return this;
        }

        /** Model API calls to add (or, when absolute, the total); schema 17. */
        public Builder apiCallCount(long value) {
            this.apiCallCount = value;
            return this;
        }

        public Builder absolute(boolean value) {
            this.absolute = value;
            return this;
        }

        public TokenUsage build() {
            return new TokenUsage(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens,
                    model, estimatedCostUsd, actualCostUsd, costStatus, costSource, pricingVersion,
                    billingProvider, billingBaseUrl, billingMode, apiCallCount, absolute);
        }
    }
}
