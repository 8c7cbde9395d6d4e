package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code sessions}, every column of schema version 17 (docs/behaviour.md#file-and-schema, docs/schema-versions.md#what-versions-717-add).
 * Nullable components are marked; counters and token sums are never null (a NULL in the file reads as
 * 0), flags are booleans. A column the store's file lacks (an older file) reads as its default, and
 * {@link #columns()} says which columns the row really has.
 *
 * @param modelConfig                     JSON text as stored (nullable)
 * @param sessionKey                      the gateway's routing key (schema 17)
 * @param chatId                          the chat or room the session started in (schema 17)
 * @param chatType                        {@code dm}, {@code group}... (schema 17)
 * @param threadId                        the thread within the chat (schema 17)
 * @param cwd                             the working directory a front end reported
 * @param gitBranch                       the branch checked out in {@code cwd} when the session started or resumed
 * @param gitRepoRoot                     the git repository {@code cwd} belongs to
 * @param apiCallCount                    model API calls made for the session
 * @param handoffState                    null, {@code pending}, {@code running}, {@code completed} or {@code failed}
 * @param handoffPlatform                 where a handoff goes
 * @param handoffError                    why the last handoff failed
 * @param compressionFailureCooldownUntil until when compression is not retried after a failure
 * @param compressionFailureError         the failure that started the cooldown
 * @param rewindCount                     how many rewinds the transcript has had
 * @param archived                        hidden from listings and counts (its messages are kept)
 * @param columns                         the columns the row was read from
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
        @Nullable String title,
        @Nullable String sessionKey,
        @Nullable String chatId,
        @Nullable String chatType,
        @Nullable String threadId,
        @Nullable String cwd,
        @Nullable String gitBranch,
        @Nullable String gitRepoRoot,
        long apiCallCount,
        @Nullable String handoffState,
        @Nullable String handoffPlatform,
        @Nullable String handoffError,
        @Nullable Instant compressionFailureCooldownUntil,
        @Nullable String compressionFailureError,
        long rewindCount,
        boolean archived,
        SessionColumns columns) {

    public Session {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(columns, "columns");
    }

    /** A row of a version-6 file: the 26 columns of schema 6, every later one at its default. */
    public Session(String id, String source, @Nullable String userId, @Nullable String model,
                   @Nullable String modelConfig, @Nullable String systemPrompt, @Nullable String parentSessionId,
                   Instant startedAt, @Nullable Instant endedAt, @Nullable String endReason, long messageCount,
                   long toolCallCount, long inputTokens, long outputTokens, long cacheReadTokens,
                   long cacheWriteTokens, long reasoningTokens, @Nullable String billingProvider,
                   @Nullable String billingBaseUrl, @Nullable String billingMode, @Nullable Double estimatedCostUsd,
                   @Nullable Double actualCostUsd, @Nullable String costStatus, @Nullable String costSource,
                   @Nullable String pricingVersion, @Nullable String title) {
        this(id, source, userId, model, modelConfig, systemPrompt, parentSessionId, startedAt, endedAt, endReason,
                messageCount, toolCallCount, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens,
                reasoningTokens, billingProvider, billingBaseUrl, billingMode, estimatedCostUsd, actualCostUsd,
                costStatus, costSource, pricingVersion, title, null, null, null, null, null, null, null, 0, null,
                null, null, null, null, 0, false, SessionColumns.V6);
    }

    public boolean isEnded() {
        return endedAt != null;
    }
}
