package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One row of {@code sessions}, every column (SPEC section 1). Nullable components are marked;
 * counters and token sums are never null (a NULL in the file reads as 0).
 *
 * @param modelConfig JSON text as stored (nullable)
 */
public record Session(
        String id,
        String source,
        @Nullable String userId,
        @Nullable String model,
        @Nullable String modelConfig,
        @Nullable String systemPrompt,
        @Nullable String parentSessionId,
        Instant startedAt,
        @Nullable Instant endedAt,
        @Nullable String endReason,
        long messageCount,
        long toolCallCount,
        long inputTokens,
        long outputTokens,
        long cacheReadTokens,
        long cacheWriteTokens,
        long reasoningTokens,
        @Nullable String billingProvider,
        @Nullable String billingBaseUrl,
        @Nullable String billingMode,
        @Nullable Double estimatedCostUsd,
        @Nullable Double actualCostUsd,
        @Nullable String costStatus,
        @Nullable String costSource,
        @Nullable String pricingVersion,
        @Nullable String title) {

    public boolean isEnded() {
        return endedAt != null;
    }
}
