package dev.hermes.state.core.listing;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.lineage.Lineage;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.paging.Cursors;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.text.PythonText;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SortField;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * list_sessions_rich: one page of sessions, newest first, each with the preview of its first user
 * message and its last activity, compression roots projected onto the tip of their chain.
 *
 * <p>Only the page's rows cost anything: an inner query picks the page's ids (filters, order,
 * paging on the sessions table alone), the outer query computes preview and last_active for those
 * ids only, and projection walks the chains of the page's compression roots only.
 */
public final class RichListing {
    /** Hermes reads 63 characters of the first user message and shows 60 of them. */
    private static final int PREVIEW_READ = 63;
    private static final int PREVIEW_SHOWN = 60;

    /**
     * The listing's computed columns, built on first listing: their query parts load much of jOOQ,
     * which a command that never lists need not pay.
     */
    private static final class Columns {
        private static final Messages FIRST = MESSAGES.as("first_user_message");
        private static final Messages LATEST = MESSAGES.as("latest_message");

        /** First 63 characters of the session's first user message with content, CR/LF as spaces. */
        static final Field<String> PREVIEW_RAW = DSL.select(
                        DSL.replace(DSL.replace(DSL.substring(FIRST.CONTENT, DSL.inline(1), DSL.inline(PREVIEW_READ)),
                                DSL.inline("\n"), DSL.inline(" ")), DSL.inline("\r"), DSL.inline(" ")))
                .from(FIRST)
                .where(FIRST.SESSION_ID.eq(SESSIONS.ID))
                .and(FIRST.ROLE.eq(DSL.inline("user")))
                .and(FIRST.CONTENT.isNotNull())
                .orderBy(FIRST.TIMESTAMP, FIRST.ID)
                .limit(DSL.inline(1))
                .asField("preview_raw");

        /** Latest message timestamp, else the session's start. */
        private static final Field<Instant> LATEST_MESSAGE_AT =
                DSL.select(DSL.max(LATEST.TIMESTAMP)).from(LATEST).where(LATEST.SESSION_ID.eq(SESSIONS.ID)).asField();
        static final Field<Instant> LAST_ACTIVE =
                DSL.coalesce(LATEST_MESSAGE_AT, (Field<?>) SESSIONS.STARTED_AT).as("last_active");

        /** started_at exactly as stored, for keyset cursors (the Instant is rounded to microseconds). */
        static final Field<Double> STARTED_AT_RAW = EpochSeconds.column(SESSIONS.STARTED_AT);
    }

    /** One session's row of the listing, for a projected tip. */
    private static final PreparedQuery RICH_ROW_BY_ID = PreparedQuery.of(schema -> DSL
            .select(schema.fields(SESSIONS)).select(Columns.PREVIEW_RAW, Columns.LAST_ACTIVE, Columns.STARTED_AT_RAW)
            .from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");

    private final Lineage lineage;
    private final Backend backend;

    public RichListing(Lineage lineage, Backend backend) {
        this.lineage = lineage;
        this.backend = backend;
    }

    /**
     * The offset page: {@code limit} rows after skipping {@code offset}, in Hermes' order (started_at
     * descending). Offset pages keep Hermes' single sort key on purpose: the started_at index then
     * gives the order by itself, and skipped rows are never sorted.
     */
    public List<RichSession> page(Transaction transaction, ListSessionsQuery query, int limit, int offset)
            throws SQLException {
        return slice(transaction, query, false, null, limit, offset).items();
    }

    /**
     * The keyset page: the rows after the {@code after} position (a total order: started_at, then id,
     * descending; null = the first page), with the cursor of the next page when more follow.
     */
    public Page<RichSession> keysetPage(Transaction transaction, ListSessionsQuery query,
                                        Cursors.@Nullable Position after, int limit) throws SQLException {
        Slice slice = slice(transaction, query, true, after, limit, 0);
        String lastId = slice.lastId();
        return new Page<>(slice.items(), slice.more() && lastId != null
                ? Optional.of(Cursors.sessions(slice.lastStartedAt(), lastId))
                : Optional.empty());
    }

    /** One page of rows plus the position of its last base row (for the keyset cursor). */
    private record Slice(List<RichSession> items, boolean more, double lastStartedAt, @Nullable String lastId) {
    }

    /** The page's rows; one extra row is read to tell whether more follow. */
    private Slice slice(Transaction transaction, ListSessionsQuery query, boolean keyset, Cursors.@Nullable Position after,
                        int limit, int offset) throws SQLException {
        Condition filter = filter(query);
        if (after != null) {
            filter = filter.and(Columns.STARTED_AT_RAW.le(after.timestamp()))
                    .and(Columns.STARTED_AT_RAW.lt(after.timestamp()).or(SESSIONS.ID.lt(after.id())));
        }
        List<SortField<?>> order = keyset
                ? List.of(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                : List.of(SESSIONS.STARTED_AT.desc());
        var pageIds = DSL.select(SESSIONS.ID).from(SESSIONS)
                .where(filter)
                .orderBy(order)
                .limit((long) limit + 1) // limit may be Integer.MAX_VALUE: "all of them"
                .offset(offset);
        List<Record> rows = transaction.dsl().select(transaction.schema().fields(SESSIONS)).select(Columns.PREVIEW_RAW, Columns.LAST_ACTIVE, Columns.STARTED_AT_RAW)
                .from(SESSIONS)
                .where(SESSIONS.ID.in(pageIds))
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch();
        boolean more = rows.size() > limit;
        if (more) {
            rows = rows.subList(0, limit);
        }
        boolean project = query.projectCompressionTips() && !query.includeChildren();
        List<RichSession> items = new ArrayList<>(rows.size());
        for (Record row : rows) {
            RichSession base = richSession(row);
            items.add(project ? projected(transaction, base) : base);
        }
        Record last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        return new Slice(items, more, last == null ? 0 : last.get(Columns.STARTED_AT_RAW), last == null ? null : last.get(SESSIONS.ID));
    }

    /**
     * Children hidden unless asked for; source equal (Hermes ignores an empty one); excluded sources
     * out. "Is a root" matches most sessions: with an index on it the planner would fetch and sort
     * every root for every page; unindexed, it walks the started_at index and stops after the page.
     */
    private Condition filter(ListSessionsQuery query) {
        Condition filter = DSL.noCondition();
        if (!query.includeChildren()) {
            filter = filter.and(backend.unindexed(SESSIONS.PARENT_SESSION_ID).isNull());
        }
        if (query.source() != null && !query.source().isEmpty()) {
            filter = filter.and(SESSIONS.SOURCE.eq(query.source()));
        }
        if (!query.excludeSources().isEmpty()) {
            filter = filter.and(SESSIONS.SOURCE.notIn(query.excludeSources()));
        }
        return filter;
    }

    /**
     * A compression root whose chain leads to another existing session shows the tip's id, end,
     * counters, title, model, system prompt, preview and last activity, keeps its own start and
     * other columns, and records its own id as the lineage root.
     */
    private RichSession projected(Transaction transaction, RichSession base) throws SQLException {
        Session root = base.session();
        if (!Lineage.COMPRESSION.equals(root.endReason())) {
            return base;
        }
        String tipId = lineage.compressionTip(transaction, root.id());
        if (tipId.equals(root.id())) {
            return base;
        }
        Optional<RichSession> found = RICH_ROW_BY_ID.fetch(transaction, tipId).stream().findFirst()
                .map(RichListing::richSession);
        if (found.isEmpty()) {
            return base;
        }
        RichSession tipRow = found.get();
        Session tip = tipRow.session();
        Session merged = new Session(tip.id(), root.source(), root.userId(), tip.model(), root.modelConfig(),
                tip.systemPrompt(), root.parentSessionId(), root.startedAt(), tip.endedAt(), tip.endReason(),
                tip.messageCount(), tip.toolCallCount(), root.inputTokens(), root.outputTokens(),
                root.cacheReadTokens(), root.cacheWriteTokens(), root.reasoningTokens(), root.billingProvider(),
                root.billingBaseUrl(), root.billingMode(), root.estimatedCostUsd(), root.actualCostUsd(),
                root.costStatus(), root.costSource(), root.pricingVersion(), tip.title());
        return new RichSession(merged, tipRow.preview(), tipRow.lastActive(), root.id());
    }

    private static RichSession richSession(Record row) {
        return new RichSession(Rows.session(row), preview(row.get(Columns.PREVIEW_RAW)),
                row.get(Columns.LAST_ACTIVE), null);
    }

    /**
     * Hermes' preview rule on the (at most 63) characters read: strip Python-style whitespace; over
     * 60 characters keep 60 and add "..."; characters are code points, so an emoji counts once.
     */
    static String preview(@Nullable String raw) {
        if (raw == null) {
            return "";
        }
        String text = PythonText.strip(raw);
        if (text.codePointCount(0, text.length()) <= PREVIEW_SHOWN) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, PREVIEW_SHOWN)) + "...";
    }
}
