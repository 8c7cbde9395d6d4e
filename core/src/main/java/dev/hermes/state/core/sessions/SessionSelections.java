package dev.hermes.state.core.sessions;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.model.SessionSelection;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * A {@link SessionSelection} as one condition on {@code sessions}, the same for the listing, prune,
 * archive and export, on either engine. Ages are measured from the store's clock, once, when the
 * condition is built, so a long operation does not see its window move.
 */
public final class SessionSelections {
    private static final Messages LATEST = MESSAGES.as("selection_latest");

    /**
     * The session's last activity in stored epoch seconds: its newest message, else its start (the
     * listing's {@code last_active}), compared as the stored doubles so that no conversion hides a
     * boundary.
     */
    private static final Field<Double> LAST_ACTIVE = DSL.coalesce(
            DSL.select(DSL.max(EpochSeconds.column(LATEST.TIMESTAMP))).from(LATEST)
                    .where(LATEST.SESSION_ID.eq(SESSIONS.ID)).<Double>asField(),
            EpochSeconds.column(SESSIONS.STARTED_AT));

    private SessionSelections() {
    }

    /**
     * Every filter of {@code selection} (AND), archived sessions left out unless it includes them.
     * A filter on a column {@code schema} lacks is an {@link InvalidArgumentException}.
     */
    public static Condition condition(Backend backend, StoreSchema schema, SessionSelection selection, Clock clock) {
        return filters(backend, schema, selection, clock).and(archivedRule(schema, selection.includeArchived()));
    }

    /** The filters alone, archived sessions matching as any other. */
    public static Condition filters(Backend backend, StoreSchema schema, SessionSelection selection, Clock clock) {
        Condition filter = DSL.noCondition();
        double now = EpochSeconds.now(clock);
        if (selection.olderThan() != null) {
            filter = filter.and(LAST_ACTIVE.lt(now - seconds(selection.olderThan())));
        }
        if (selection.newerThan() != null) {
            filter = filter.and(LAST_ACTIVE.ge(now - seconds(selection.newerThan())));
        }
        if (selection.startedBefore() != null) {
            filter = filter.and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(epoch(selection.startedBefore())));
        }
        if (selection.startedAfter() != null) {
            filter = filter.and(EpochSeconds.column(SESSIONS.STARTED_AT).ge(epoch(selection.startedAfter())));
        }
        filter = filter.and(equal(schema, SESSIONS.SOURCE, selection.source(), "--source"))
                .and(equal(schema, SESSIONS.MODEL, selection.model(), "--model"))
                .and(equal(schema, SESSIONS.BILLING_PROVIDER, selection.provider(), "--provider"))
                .and(equal(schema, SESSIONS.GIT_BRANCH, selection.gitBranch(), "--branch"))
                .and(equal(schema, SESSIONS.END_REASON, selection.endReason(), "--end-reason"));
        if (selection.titleContains() != null) {
            require(schema, SESSIONS.TITLE, "--title");
            String escaped = selection.titleContains().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
            filter = filter.and(SESSIONS.TITLE.isNotNull())
                    .and(backend.like(SESSIONS.TITLE, DSL.val("%" + escaped + "%"), '\\'));
        }
        if (selection.cwd() != null) {
            require(schema, SESSIONS.CWD, "--cwd");
            filter = filter.and(SessionFilters.cwdWithin(backend, schema, selection.cwd()));
        }
        filter = filter.and(range(schema, counter(SESSIONS.MESSAGE_COUNT), selection.minMessages(),
                selection.maxMessages(), "--min-messages/--max-messages", SESSIONS.MESSAGE_COUNT));
        filter = filter.and(range(schema, counter(SESSIONS.TOOL_CALL_COUNT), selection.minToolCalls(),
                selection.maxToolCalls(), "--min-tool-calls/--max-tool-calls", SESSIONS.TOOL_CALL_COUNT));
        if (selection.minTokens() != null || selection.maxTokens() != null) {
            require(schema, SESSIONS.INPUT_TOKENS, "--min-tokens/--max-tokens");
            require(schema, SESSIONS.OUTPUT_TOKENS, "--min-tokens/--max-tokens");
            Field<Long> tokens = counter(SESSIONS.INPUT_TOKENS).plus(counter(SESSIONS.OUTPUT_TOKENS));
            filter = filter.and(bounds(tokens, selection.minTokens(), selection.maxTokens()));
        }
        if (selection.minCost() != null || selection.maxCost() != null) {
            require(schema, SESSIONS.ESTIMATED_COST_USD, "--min-cost/--max-cost");
            require(schema, SESSIONS.ACTUAL_COST_USD, "--min-cost/--max-cost");
            Field<Double> cost = DSL.coalesce(SESSIONS.ACTUAL_COST_USD, SESSIONS.ESTIMATED_COST_USD);
            filter = filter.and(cost.isNotNull());
            if (selection.minCost() != null) {
                filter = filter.and(cost.ge(selection.minCost()));
            }
            if (selection.maxCost() != null) {
                filter = filter.and(cost.le(selection.maxCost()));
            }
        }
        return filter;
    }

    /** Archived sessions out unless included; a store without the column has none. */
    private static Condition archivedRule(StoreSchema schema, boolean includeArchived) {
        return includeArchived || !schema.has(SESSIONS.ARCHIVED) ? DSL.noCondition()
                : DSL.condition("{0} = 0", SESSIONS.ARCHIVED);
    }

    private static Condition equal(StoreSchema schema, TableField<?, String> column, @Nullable String value, String flag) {
        if (value == null) {
            return DSL.noCondition();
        }
        require(schema, column, flag);
        return column.eq(value);
    }

    private static Condition range(StoreSchema schema, Field<Long> value, @Nullable Long min, @Nullable Long max,
                                   String flag, TableField<?, ?> column) {
        if (min == null && max == null) {
            return DSL.noCondition();
        }
        require(schema, column, flag);
        return bounds(value, min, max);
    }

    private static Condition bounds(Field<Long> value, @Nullable Long min, @Nullable Long max) {
        Condition bounded = DSL.noCondition();
        if (min != null) {
            bounded = bounded.and(value.ge(min));
        }
        if (max != null) {
            bounded = bounded.and(value.le(max));
        }
        return bounded;
    }

    /** A NULL counter reads as 0, as the store's records read it. */
    private static Field<Long> counter(Field<Long> column) {
        return DSL.coalesce(column, DSL.inline(0L));
    }

    private static void require(StoreSchema schema, TableField<?, ?> column, String flag) {
        if (!schema.has(column)) {
            throw new InvalidArgumentException(flag + " filters on sessions." + column.getName() + ", which this store"
                    + " (schema version " + schema.version() + ") does not have; nothing was done");
        }
    }

    private static double seconds(Duration duration) {
        return duration.getSeconds() + duration.getNano() / 1e9;
    }

    private static double epoch(Instant instant) {
        return instant.getEpochSecond() + instant.getNano() / 1e9;
    }
}
