package dev.hermes.state.core.sessions;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.TokenUsage;
import org.jooq.Field;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * update_token_counts (docs/behaviour.md#token-counts). Incremental: the five token counters grow by the given
 * amounts, estimated cost grows by the given one (from 0), actual cost grows only when given.
 * Absolute: the counters are set, estimated cost becomes the given one (or 0), actual cost is set
 * only when given. Both: cost status, source and pricing version take a given value (last wins);
 * billing provider, base URL, mode and model are filled only while still NULL (first wins).
 */
public final class TokenAccounting {

    /** A {@link TokenUsage}, checked before the write transaction starts. */
    public record Update(long input, long output, long cacheRead, long cacheWrite, long reasoning,
                         @Nullable Double estimated, @Nullable Double actual, @Nullable String model,
                         @Nullable String costStatus, @Nullable String costSource, @Nullable String pricingVersion,
                         @Nullable String billingProvider, @Nullable String billingBaseUrl,
                         @Nullable String billingMode, long apiCalls, boolean absolute) {

        public static Update of(@Nullable TokenUsage given) {
            TokenUsage usage = Arguments.required(given, "token usage");
            return new Update(
                    Arguments.tokens(usage.inputTokens(), "input tokens"),
                    Arguments.tokens(usage.outputTokens(), "output tokens"),
                    Arguments.tokens(usage.cacheReadTokens(), "cache read tokens"),
                    Arguments.tokens(usage.cacheWriteTokens(), "cache write tokens"),
                    Arguments.tokens(usage.reasoningTokens(), "reasoning tokens"),
                    Arguments.optionalAmount(usage.estimatedCostUsd(), "estimated cost"),
                    Arguments.optionalAmount(usage.actualCostUsd(), "actual cost"),
                    Arguments.optionalLabel(usage.model(), "model"),
                    Arguments.optionalLabel(usage.costStatus(), "cost status"),
                    Arguments.optionalLabel(usage.costSource(), "cost source"),
                    Arguments.optionalLabel(usage.pricingVersion(), "pricing version"),
                    Arguments.optionalLabel(usage.billingProvider(), "billing provider"),
                    Arguments.optionalLabel(usage.billingBaseUrl(), "billing base URL"),
                    Arguments.optionalLabel(usage.billingMode(), "billing mode"),
                    Arguments.tokens(usage.apiCallCount(), "API call count"),
                    usage.absolute());
        }
    }

    /**
     * Applies {@code usage} to the session's row; returns the rows changed. At version 6's rules an
     * unknown id changes nothing (0) and an API call count is refused; at schema 17's the row is first
     * made if missing (source {@code unknown}, as the agent's upsert), so the counts are never lost,
     * and the API call count grows with the tokens (or is set, when absolute).
     */
    public int update(Transaction transaction, Sessions sessions, String sessionId, Update usage, double now)
            throws SQLException {
        boolean v17 = transaction.schema().v17();
        if (!v17 && usage.apiCalls() != 0) {
            throw new InvalidArgumentException("api_call_count needs a store at schema version 17; this one is kept at "
                    + transaction.schema().version());
        }
        if (v17) {
            sessions.create(transaction, new NewSessionRow(sessionId, "unknown", null, usage.model(), null, null, null), now);
        }
        boolean absolute = usage.absolute();
        double estimated = usage.estimated() == null ? 0.0 : usage.estimated();
        UpdateSetMoreStep<?> update = transaction.dsl().update(SESSIONS)
                .set(SESSIONS.INPUT_TOKENS, tokens(SESSIONS.INPUT_TOKENS, usage.input(), absolute))
                .set(SESSIONS.OUTPUT_TOKENS, tokens(SESSIONS.OUTPUT_TOKENS, usage.output(), absolute))
                .set(SESSIONS.CACHE_READ_TOKENS, tokens(SESSIONS.CACHE_READ_TOKENS, usage.cacheRead(), absolute))
                .set(SESSIONS.CACHE_WRITE_TOKENS, tokens(SESSIONS.CACHE_WRITE_TOKENS, usage.cacheWrite(), absolute))
                .set(SESSIONS.REASONING_TOKENS, tokens(SESSIONS.REASONING_TOKENS, usage.reasoning(), absolute))
                .set(SESSIONS.ESTIMATED_COST_USD, absolute
                        ? DSL.val(estimated)
                        : DSL.coalesce(SESSIONS.ESTIMATED_COST_USD, DSL.inline(0.0)).plus(estimated));
        Double actual = usage.actual();
        if (actual != null) {
            update = update.set(SESSIONS.ACTUAL_COST_USD, absolute
                    ? DSL.val(actual)
                    : DSL.coalesce(SESSIONS.ACTUAL_COST_USD, DSL.inline(0.0)).plus(actual));
        }
        update = lastWins(update, SESSIONS.COST_STATUS, usage.costStatus());
        update = lastWins(update, SESSIONS.COST_SOURCE, usage.costSource());
        update = lastWins(update, SESSIONS.PRICING_VERSION, usage.pricingVersion());
        update = firstWins(update, SESSIONS.BILLING_PROVIDER, usage.billingProvider());
        update = firstWins(update, SESSIONS.BILLING_BASE_URL, usage.billingBaseUrl());
        update = firstWins(update, SESSIONS.BILLING_MODE, usage.billingMode());
        update = firstWins(update, SESSIONS.MODEL, usage.model());
        if (v17) {
            update = update.set(SESSIONS.API_CALL_COUNT, tokens(SESSIONS.API_CALL_COUNT, usage.apiCalls(), absolute));
        }
        return update.where(SESSIONS.ID.eq(sessionId)).execute();
    }

    private static Field<Long> tokens(Field<Long> column, long amount, boolean absolute) {
        return absolute ? DSL.val(amount) : DSL.coalesce(column, DSL.inline(0L)).plus(amount);
    }

    private static UpdateSetMoreStep<?> lastWins(UpdateSetMoreStep<?> update, Field<String> column, @Nullable String value) {
        return value == null ? update : update.set(column, value);
    }

    private static UpdateSetMoreStep<?> firstWins(UpdateSetMoreStep<?> update, Field<String> column, @Nullable String value) {
        return value == null ? update : update.set(column, DSL.coalesce(column, DSL.val(value)));
    }
}
