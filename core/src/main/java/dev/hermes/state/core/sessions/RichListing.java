package dev.hermes.state.core.sessions;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.paging.Cursors;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.text.PythonText;
import dev.hermes.state.db.tables.Messages;
import dev.hermes.state.db.tables.Sessions;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record2;
import org.jooq.SelectField;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * list_sessions_rich: one page of sessions, newest first, each with the preview of its first user
 * message and its last activity, compression roots projected onto the tip of their chain.
 *
 * <p>Only the page's rows cost anything: an inner query picks the page's ids (filters, order,
 * paging on the sessions table alone), the outer query computes preview and last_active for those
 * ids only, and projection walks the chains of the page's compression roots only. Ordered by last
 * activity (today's agent's {@code order_by_last_active}), the order itself needs every listed
 * session's chain: one recursive query walks them all, as the agent's does.
 */
public final class RichListing {
    /** The columns a projected row takes from the tip of its chain (today's agent adds the workspace). */
    private static final List<TableField<?, ?>> FROM_THE_TIP = List.of(SESSIONS.ID, SESSIONS.ENDED_AT,
            SESSIONS.END_REASON, SESSIONS.MESSAGE_COUNT, SESSIONS.TOOL_CALL_COUNT, SESSIONS.TITLE, SESSIONS.MODEL,
            SESSIONS.SYSTEM_PROMPT, SESSIONS.CWD, SESSIONS.GIT_BRANCH, SESSIONS.GIT_REPO_ROOT);

    /**
     * The listing's computed columns, built on first listing: their query parts load much of jOOQ,
     * which a command that never lists need not pay.
     */
    private static final class Columns {

        /** started_at exactly as stored, for keyset cursors (the Instant is rounded to microseconds). */
        static final Field<Double> STARTED_AT_RAW = EpochSeconds.column(SESSIONS.STARTED_AT);

        /** The chain's newest activity as stored (the order of {@code order_by_last_active}). */
        static final Field<Double> CHAIN_ACTIVE = DSL.field(DSL.name("chain_active"), Double.class);
    }

    /** One session's row of the listing, for a projected tip. */
    private static final PreparedQuery RICH_ROW_BY_ID = PreparedQuery.of(schema -> DSL
            .select(schema.fields(SESSIONS)).select(SessionPreviews.PREVIEW_RAW, SessionPreviews.LAST_ACTIVE, Columns.STARTED_AT_RAW)
            .from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");

    private final Lineage lineage;
    private final Backend backend;
    private final SessionKinds kinds;
    private final Clock clock;

    public RichListing(Lineage lineage, Backend backend, Clock clock) {
        this.clock = clock;
        this.lineage = lineage;
        this.backend = backend;
        this.kinds = lineage.kinds();
    }

    /**
     * The offset page: {@code limit} rows after skipping {@code offset}, in Hermes' order (started_at
     * descending). Offset pages keep Hermes' single sort key on purpose: the started_at index then
     * gives the order by itself, and skipped rows are never sorted.
     */
    public List<RichSession> page(Transaction transaction, ListSessionsQuery query, int limit, int offset)
            throws SQLException {
        if (query.orderByLastActive()) {
            return activitySlice(transaction, query, null, limit, offset).items();
        }
        return slice(transaction, query, false, null, limit, offset).items();
    }

    /**
     * The keyset page: the rows after the {@code after} cursor (null = the first page), with the cursor
     * of the next page when more follow. The order is total: started_at, then id, descending; by last
     * activity, the chain's activity, then started_at, then id, descending.
     */
    public Page<RichSession> keysetPage(Transaction transaction, ListSessionsQuery query, @Nullable String after,
                                        int limit) throws SQLException {
        if (query.orderByLastActive()) {
            Slice slice = activitySlice(transaction, query, Cursors.activityPosition(after), limit, 0);
            Record last = slice.last();
            return new Page<>(slice.items(), slice.more() && last != null
                    ? Optional.of(Cursors.sessionsByActivity(last.get(Columns.CHAIN_ACTIVE),
                    last.get(Columns.STARTED_AT_RAW), last.get(SESSIONS.ID)))
                    : Optional.empty());
        }
        Slice slice = slice(transaction, query, true, Cursors.sessionsPosition(after), limit, 0);
        Record last = slice.last();
        return new Page<>(slice.items(), slice.more() && last != null
                ? Optional.of(Cursors.sessions(last.get(Columns.STARTED_AT_RAW), last.get(SESSIONS.ID)))
                : Optional.empty());
    }

    /**
     * search_sessions_by_id: the listed conversations (by last activity) whose chain holds an id
     * containing {@code query} (stripped, case aside), read four times {@code limit} deep, then ranked:
     * an id or lineage root id equal to the needle first, then one starting with it, then the rest, each
     * group in listing order; at most {@code limit}. A blank query or a limit of 0 finds nothing.
     */
    public List<RichSession> byId(Transaction transaction, String query, int limit, boolean includeArchived)
            throws SQLException {
        String needle = needle(query);
        if (needle.isEmpty() || limit <= 0) {
            return List.of();
        }
        ListSessionsQuery candidates = ListSessionsQuery.builder()
                .limit((int) Math.min(Integer.MAX_VALUE, 4L * limit))
                .includeArchived(includeArchived)
                .orderByLastActive(true)
                .idQuery(needle)
                .build();
        List<RichSession> rows = activitySlice(transaction, candidates, null, candidates.limit(), 0).items();
        List<RichSession> ranked = new ArrayList<>(rows);
        ranked.sort(Comparator.comparingInt(row -> idRank(row, needle))); // stable: listing order within a rank
        return ranked.size() > limit ? List.copyOf(ranked.subList(0, limit)) : ranked;
    }

    /** 0: the id or lineage root id is the needle; 1: one starts with it; 2: it is only contained. */
    private static int idRank(RichSession row, String needle) {
        List<String> ids = new ArrayList<>(2);
        ids.add(row.session().id().toLowerCase(Locale.ROOT));
        if (row.lineageRootId() != null && !row.lineageRootId().isEmpty()) {
            ids.add(row.lineageRootId().toLowerCase(Locale.ROOT));
        }
        if (ids.stream().anyMatch(needle::equals)) {
            return 0;
        }
        return ids.stream().anyMatch(id -> id.startsWith(needle)) ? 1 : 2;
    }

    /** One page of rows plus the last base row (for the keyset cursor). */
    private record Slice(List<RichSession> items, boolean more, @Nullable Record last) {
    }

    /** The page's rows; one extra row is read to tell whether more follow. */
    private Slice slice(Transaction transaction, ListSessionsQuery query, boolean keyset, Cursors.@Nullable Position after,
                        int limit, int offset) throws SQLException {
        StoreSchema schema = transaction.schema();
        Condition filter = filter(query, schema);
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
        List<Record> rows = transaction.dsl().select(rowColumns(schema))
                .from(SESSIONS)
                .where(SESSIONS.ID.in(pageIds))
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch();
        return rows(transaction, query, rows, limit);
    }

    /**
     * The page by last activity: a recursive query follows every listed session's compression chain
     * (children of a session that ended {@code compression} that {@linkplain SessionKinds#mayContinue
     * may continue} it, started whenever; UNION ends a parent cycle) and orders the listed sessions by
     * the newest message (else start) of their chain, then start, then id, all descending. The id and
     * search filters match any session of the chain.
     */
    private Slice activitySlice(Transaction transaction, ListSessionsQuery query, Cursors.@Nullable ActivityPosition after,
                                int limit, int offset) throws SQLException {
        StoreSchema schema = transaction.schema();
        Condition filter = filter(query, schema);
        Table<?> chainTable = DSL.table(DSL.name("chain"));
        Field<String> rootId = DSL.field(DSL.name("chain", "root_id"), String.class);
        Field<String> currentId = DSL.field(DSL.name("chain", "cur_id"), String.class);
        Sessions parent = SESSIONS.as("parent");
        Sessions child = SESSIONS.as("child");
        CommonTableExpression<Record2<String, String>> chain = DSL.name("chain").fields("root_id", "cur_id")
                .as(DSL.select(SESSIONS.ID, SESSIONS.ID).from(SESSIONS).where(filter)
                        .union(DSL.select(rootId, child.ID)
                                .from(chainTable)
                                .join(parent).on(parent.ID.eq(currentId))
                                .join(child).on(child.PARENT_SESSION_ID.eq(currentId))
                                .where(parent.END_REASON.eq(DSL.inline(Lineage.COMPRESSION)))
                                .and(kinds.mayContinue(child, schema))));

        Messages latest = MESSAGES.as("chain_latest");
        Sessions member = SESSIONS.as("chain_member");
        Field<Double> memberLatest = DSL.select(DSL.max(EpochSeconds.column(latest.TIMESTAMP))).from(latest)
                .where(latest.SESSION_ID.eq(currentId)).asField();
        Field<Double> memberStart = DSL.select(EpochSeconds.column(member.STARTED_AT)).from(member)
                .where(member.ID.eq(currentId)).asField();
        Field<Double> memberActivity = DSL.coalesce(memberLatest, memberStart);
        Table<?> chainMax = DSL.select(rootId.as("root_id"), DSL.max(memberActivity).as("chain_max"))
                .from(chainTable)
                .groupBy(rootId)
                .asTable("chain_max");
        Field<Double> chainActivity = DSL.coalesce(chainMax.field("chain_max", Double.class), Columns.STARTED_AT_RAW);

        Condition outer = filter.and(chainFilters(query, rootId, currentId, chainTable));
        if (after != null) {
            Field<Double> started = Columns.STARTED_AT_RAW;
            outer = outer.and(chainActivity.lt(after.activity())
                    .or(chainActivity.eq(after.activity()).and(started.lt(after.startedAt())
                            .or(started.eq(after.startedAt()).and(SESSIONS.ID.lt(after.id()))))));
        }
        // the order needs every listed session's chain; the row's columns (preview, last activity: a
        // subquery each) only the page's: SQLite computes a select list before it sorts, so the page's
        // ids are chosen first and the columns read for them alone
        Table<?> page = DSL.select(SESSIONS.ID.as("page_id"), chainActivity.as("page_active"),
                        Columns.STARTED_AT_RAW.as("page_started"))
                .from(SESSIONS)
                .leftJoin(chainMax).on(chainMax.field("root_id", String.class).eq(SESSIONS.ID))
                .where(outer)
                .orderBy(DSL.field(DSL.name("page_active")).desc(), DSL.field(DSL.name("page_started")).desc(),
                        DSL.field(DSL.name("page_id")).desc())
                .limit((long) limit + 1)
                .offset(offset)
                .asTable("page");
        Field<Double> pageActive = page.field("page_active", Double.class);
        List<SelectField<?>> columns = new ArrayList<>(rowColumns(schema));
        columns.add(pageActive.as(Columns.CHAIN_ACTIVE));
        List<Record> rows = transaction.dsl().withRecursive(chain)
                .select(columns)
                .from(SESSIONS)
                .join(page).on(page.field("page_id", String.class).eq(SESSIONS.ID))
                .orderBy(pageActive.desc(), page.field("page_started", Double.class).desc(), SESSIONS.ID.desc())
                .fetch();
        return rows(transaction, query, rows, limit);
    }

    /**
     * Hermes' {@code id_query} and {@code search_query}: some session of the row's chain has an id (or,
     * for the search, a title, also with its {@code - _ .} and spaces left out) containing the needle,
     * case aside (the needle lower-cased as Python does, the columns by SQLite's ASCII-only rules).
     */
    private Condition chainFilters(ListSessionsQuery query, Field<String> rootId, Field<String> currentId,
                                   Table<?> chainTable) {
        Condition filters = DSL.noCondition();
        String idNeedle = needle(query.idQuery());
        if (!idNeedle.isEmpty()) {
            filters = filters.and(DSL.exists(DSL.selectOne().from(chainTable)
                    .where(rootId.eq(SESSIONS.ID))
                    .and(backend.like(backend.asciiLower(currentId), DSL.val(containing(idNeedle)), '\\'))));
        }
        String searchNeedle = needle(query.searchQuery());
        if (!searchNeedle.isEmpty()) {
            Sessions titled = SESSIONS.as("chain_session");
            Field<String> title = backend.asciiLower(DSL.coalesce(titled.TITLE, DSL.inline("")));
            Condition matches = backend.like(title, DSL.val(containing(searchNeedle)), '\\')
                    .or(backend.like(backend.asciiLower(currentId), DSL.val(containing(searchNeedle)), '\\'));
            String compact = compact(searchNeedle);
            if (!compact.isEmpty()) {
                Field<String> compactTitle = title;
                for (String removed : List.of("-", "_", ".", " ")) {
                    compactTitle = DSL.replace(compactTitle, DSL.inline(removed), DSL.inline(""));
                }
                matches = matches.or(backend.like(compactTitle, DSL.val(containing(compact)), '\\'));
            }
            filters = filters.and(DSL.exists(DSL.selectOne().from(chainTable)
                    .join(titled).on(titled.ID.eq(currentId))
                    .where(rootId.eq(SESSIONS.ID))
                    .and(matches)));
        }
        return filters;
    }

    /** Hermes' needle: stripped of whitespace, lower-cased (Unicode, as Python's {@code str.lower}). */
    static String needle(@Nullable String text) {
        return text == null ? "" : PythonText.strip(text).toLowerCase(Locale.ROOT);
    }

    /** The needle without what Python's {@code [\W_]+} matches: only letters and digits are kept. */
    static String compact(String needle) {
        StringBuilder kept = new StringBuilder(needle.length());
        needle.codePoints().filter(RichListing::isWordCharacter).forEach(kept::appendCodePoint);
        return kept.toString();
    }

    /** Python's {@code \w} without the underscore: letters and numbers (str.isalnum). */
    private static boolean isWordCharacter(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }

    /** {@code %needle%} with the needle's own \ % _ escaped by \. */
    private static String containing(String needle) {
        return "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** The columns of a listed row: the session's, its preview and last activity, its start as stored. */
    private static List<SelectField<?>> rowColumns(StoreSchema schema) {
        List<SelectField<?>> columns = new ArrayList<>(schema.fields(SESSIONS));
        columns.addAll(List.of(SessionPreviews.PREVIEW_RAW, SessionPreviews.LAST_ACTIVE, Columns.STARTED_AT_RAW));
        return columns;
    }

    /** The page's items from its rows (one more than {@code limit} when more follow). */
    private Slice rows(Transaction transaction, ListSessionsQuery query, List<Record> rows, int limit) throws SQLException {
        boolean more = rows.size() > limit;
        if (more) {
            rows = rows.subList(0, limit);
        }
        boolean project = query.projectCompressionTips() && !query.includeChildren();
        List<RichSession> items = new ArrayList<>(rows.size());
        for (Record row : rows) {
            items.add(project ? projected(transaction, row) : richSession(transaction, row, null));
        }
        return new Slice(items, more, rows.isEmpty() ? null : rows.get(rows.size() - 1));
    }

    /**
     * Children hidden unless asked for (version 6: every child; today's agent: all but /branch children,
     * and subagent runs always); source equal (Hermes ignores an empty one); excluded sources out; then
     * today's filters: working directory, message count, archived. "Is a root" matches most sessions:
     * with an index on it the planner would fetch and sort every root for every page; unindexed, it
     * walks the started_at index and stops after the page.
     */
    private Condition filter(ListSessionsQuery query, StoreSchema schema) {
        Condition filter = DSL.noCondition();
        if (!query.includeChildren()) {
            filter = filter.and(schema.v17()
                    ? backend.unindexed(SESSIONS.PARENT_SESSION_ID).isNull().or(kinds.isBranch(SESSIONS, schema))
                    .and(kinds.isNotDelegate(SESSIONS, schema))
                    : backend.unindexed(SESSIONS.PARENT_SESSION_ID).isNull());
        }
        filter = filter.and(SessionFilters.common(backend, schema, query.source(), query.excludeSources(),
                query.cwdPrefix(), query.minMessageCount(), query.includeArchived(), query.archivedOnly(), query.model(),
                query.startedFrom(), query.startedBefore()));
        return query.selection() == null ? filter
                : filter.and(SessionSelections.filters(backend, schema, query.selection(), clock));
    }

    /**
     * A compression root whose chain leads to another existing session shows the tip's id, end,
     * counters, title, model, system prompt, workspace, preview and last activity, keeps its own start
     * and other columns, and records its own id as the lineage root.
     */
    private RichSession projected(Transaction transaction, Record root) throws SQLException {
        String rootId = root.get(SESSIONS.ID);
        if (!Lineage.COMPRESSION.equals(root.get(SESSIONS.END_REASON))) {
            return richSession(transaction, root, null);
        }
        String tipId = lineage.compressionTip(transaction, rootId);
        if (tipId.equals(rootId)) {
            return richSession(transaction, root, null);
        }
        Optional<Record> found = RICH_ROW_BY_ID.fetch(transaction, tipId).stream().findFirst();
        if (found.isEmpty()) {
            return richSession(transaction, root, null);
        }
        Record tip = found.get();
        Record merged = root.into(root.fields());
        StoreSchema schema = transaction.schema();
        for (TableField<?, ?> column : FROM_THE_TIP) {
            if (schema.has(column)) {
                copy(column, tip, merged);
            }
        }
        copy(SessionPreviews.PREVIEW_RAW, tip, merged);
        copy(SessionPreviews.LAST_ACTIVE, tip, merged);
        return richSession(transaction, merged, rootId);
    }

    private static <T> void copy(Field<T> field, Record from, Record to) {
        to.set(field, from.get(field));
    }

    private RichSession richSession(Transaction transaction, Record row, @Nullable String lineageRootId) {
        StoreSchema schema = transaction.schema();
        String preview = SessionPreviews.preview(row.get(SessionPreviews.PREVIEW_RAW), backend.storesNulInText());
        RichSession.Workspace workspace = schema.has(SESSIONS.CWD)
                ? new RichSession.Workspace(row.get(SESSIONS.CWD),
                schema.has(SESSIONS.GIT_BRANCH) ? row.get(SESSIONS.GIT_BRANCH) : null,
                schema.has(SESSIONS.GIT_REPO_ROOT) ? row.get(SESSIONS.GIT_REPO_ROOT) : null)
                : null;
        return new RichSession(Rows.session(row), preview, row.get(SessionPreviews.LAST_ACTIVE), lineageRootId, workspace);
    }
}
