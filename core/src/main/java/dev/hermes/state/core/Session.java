package dev.hermes.state.core;

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
        /* nullable */ String userId,
        /* nullable */ String model,
        /* nullable */ String modelConfig,
        /* nullable */ String systemPrompt,
        /* nullable */ String parentSessionId,
        Instant startedAt,
        /* nullable */ Instant endedAt,
        /* nullable */ String endReason,
        long messageCount,
        long toolCallCount,
        long inputTokens,
        long outputTokens,
        long cacheReadTokens,
        long cacheWriteTokens,
        long reasoningTokens,
        /* nullable */ String billingProvider,
        /* nullable */ String billingBaseUrl,
        /* nullable */ String billingMode,
        /* nullable */ Double estimatedCostUsd,
        /* nullable */ Double actualCostUsd,
        /* nullable */ String costStatus,
        /* nullable */ String costSource,
        /* nullable */ String pricingVersion,
        /* nullable */ String title) {

    public boolean isEnded() {
        return endedAt != null;
    }
}
