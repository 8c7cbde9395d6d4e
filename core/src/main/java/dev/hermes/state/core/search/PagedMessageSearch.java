package dev.hermes.state.core.search;

import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.search.SearchTerms.Term;
import dev.hermes.state.db.tables.Messages;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.SelectField;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * {@code search_messages} as one statement per search, whatever the engine: a page of hits (the
 * engine's index match ordered by relevance, or Hermes' substring fallback newest first; limit/offset)
 * as a derived table, joined to each hit's previous and next message of the same session, found
 * through {@code idx_messages_session} for the page's rows only. An engine supplies the two pages and
 * how a column is tested against a list; the rest (filters, context, paging, rows) is here.
 *
 * <p>Every value is a bind parameter (the source and role lists as one JSON array each), so there are
 * 16 statement shapes: each is a {@link PreparedQuery}, rendered once, then kept prepared on each
 * reading connection. For a selective query, rendering and compiling the SQL would cost more than
 * running it. Rows are read through the generated tables' typed fields and converters. The rules that
 * do not depend on the engine (parsing, the CJK fallback) are {@link HermesSearch}'s.
 */
public abstract class PagedMessageSearch implements MessageSearch {

    /** A page's highlighted excerpt of the hit. */
    protected static final Field<String> SNIPPET = DSL.field(DSL.name("snippet"), String.class);
    /** A page's relevance of a hit: smaller is better. */
    protected static final Field<Double> RANK = DSL.field(DSL.name("rank"), Double.class);
    protected static final Param<Integer> LIMIT = DSL.param("limit", Integer.class);
    protected static final Param<Integer> OFFSET = DSL.param("offset", Integer.class);

    private static final Param<String> SOURCES = DSL.param("sources", String.class);
    private static final Param<String> EXCLUDED_SOURCES = DSL.param("excluded_sources", String.class);
    private static final Param<String> ROLES = DSL.param("roles", String.class);

    private static final Messages PREVIOUS = MESSAGES.as("previous_message");
    private static final Messages NEXT = MESSAGES.as("next_message");
    private static final Messages NEIGHBOUR = MESSAGES.as("neighbour");
    private static final Field<String> HIT_CONTENT = DSL.field(DSL.name("hit_content"), String.class);
    private static final Field<String> PREVIOUS_ROLE = PREVIOUS.ROLE.as("previous_role");
    private static final Field<String> PREVIOUS_CONTENT = contextCut(PREVIOUS.CONTENT).as("previous_content");
    private static final Field<String> NEXT_ROLE = NEXT.ROLE.as("next_role");
    private static final Field<String> NEXT_CONTENT = contextCut(NEXT.CONTENT).as("next_content");

    /** The page's columns, as both pages select them ({@link #pageColumns}). */
    private static final List<Field<?>> PAGE_COLUMNS = List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, SNIPPET,
            HIT_CONTENT, MESSAGES.TIMESTAMP, MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT);
    /** The statement's columns, in order: the page's, then the neighbours'. */
    private static final List<Field<?>> RESULT_COLUMNS;

    static {
        List<Field<?>> columns = new ArrayList<>(PAGE_COLUMNS);
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        RESULT_COLUMNS = List.copyOf(columns);
    }

    private final Map<Shape, PreparedQuery> statements = new ConcurrentHashMap<>();

    // ---- what an engine supplies ----

    /** The parameters of the match page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> matchParameters();

    /** The values of {@link #matchParameters} for a query's terms. */
    protected abstract List<Object> matchValues(List<Term> terms);

    /** The parameters of the substring page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> containsParameters();

    /** The values of {@link #containsParameters} for Hermes' literal (the query without surrounding quotes). */
    protected abstract List<Object> containsValues(String literal);

    /**
     * The page of messages the index matches: {@link #pageColumns} (plus {@link #RANK} when
     * {@link #matchOrder} needs it), from messages joined to sessions, where the match and then
     * {@code filters} hold, best first then by id, {@link #LIMIT} and {@link #OFFSET}.
     */
    protected abstract Table<?> matchPage(List<Condition> filters);

    /**
     * How the statement orders the rows of the {@link #matchPage}: by its {@link #RANK}, then id. An
     * engine whose page comes out in that order already, without selecting the rank, returns none.
     */
    protected List<SortField<?>> matchOrder(Table<?> page) {
        return List.of(page.field(RANK).asc(), page.field(MESSAGES.ID).asc());
    }

    /**
     * Hermes' fallback page: {@link #pageColumns} of the messages whose content contains the literal
     * (LIKE's ASCII case rules, its wildcards taken literally) and {@code filters}, newest first
     * (timestamp, then id, descending), {@link #LIMIT} and {@link #OFFSET}.
     */
    protected abstract Table<?> containsPage(List<Condition> filters);

    /** {@code column} is one of the values of the JSON array of strings bound to {@code list}. */
    protected abstract Condition inList(Field<String> column, Param<String> list);

    /** A page's columns, in the order the statement reads them, with the engine's snippet (and rank). */
    protected static List<SelectField<?>> pageColumns(Field<String> snippet, SelectField<?>... extra) {
        List<SelectField<?>> columns = new ArrayList<>(List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE,
                snippet.as(SNIPPET), contextCut(MESSAGES.CONTENT).as(HIT_CONTENT), MESSAGES.TIMESTAMP,
                MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT));
        columns.addAll(List.of(extra));
        return columns;
    }

    /** Hermes' LIKE pattern for a literal: {@code %literal%} with its own %, _ and \ escaped by {@code \}. */
    protected static String likePattern(String literal) {
        return "%" + literal.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    // ---- the search ----

    @Override
    public final List<SearchHit> search(Transaction reader, SearchQuery query) throws SQLException {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(query, "query");
        return HermesSearch.run(query, new HermesSearch.Pages() {
            @Override
            public List<SearchHit> matching(SearchQuery page, List<Term> terms) throws SQLException {
                return run(reader, page, true, matchValues(terms));
            }

            @Override
            public List<SearchHit> containing(SearchQuery page, String literal) throws SQLException {
                return run(reader, page, false, containsValues(literal));
            }
        });
    }

    /** Runs the statement of the query's shape with the query's values, in the shape's parameter order. */
    private List<SearchHit> run(Transaction reader, SearchQuery query, boolean matching, List<Object> pageValues)
            throws SQLException {
        Shape shape = new Shape(matching, query.sourceFilter() != null, !isEmpty(query.excludeSources()),
                !isEmpty(query.roleFilter()));
        List<@Nullable Object> values = new ArrayList<>(pageValues);
        if (shape.sources()) {
            values.add(JsonColumns.text(query.sourceFilter()));
        }
        if (shape.excludedSources()) {
            values.add(JsonColumns.text(query.excludeSources()));
        }
        if (shape.roles()) {
            values.add(JsonColumns.text(query.roleFilter()));
        }
        values.add(query.limit());
        values.add(query.offset());
        PreparedQuery statement = statements.computeIfAbsent(shape,
                key -> PreparedQuery.of(() -> select(key), RESULT_COLUMNS, parameters(key)));
        return statement.fetch(reader, values.toArray()).map(PagedMessageSearch::toHit);
    }

    /** Which page and which filters a statement has: all that changes its SQL. */
    private record Shape(boolean matching, boolean sources, boolean excludedSources, boolean roles) {
    }

    /** The statement's parameters, in the order its SQL holds them (the values of {@link #run} follow it). */
    private List<String> parameters(Shape shape) {
        List<String> names = new ArrayList<>();
        (shape.matching() ? matchParameters() : containsParameters()).forEach(param -> names.add(param.getParamName()));
        if (shape.sources()) {
            names.add(SOURCES.getParamName());
        }
        if (shape.excludedSources()) {
            names.add(EXCLUDED_SOURCES.getParamName());
        }
        if (shape.roles()) {
            names.add(ROLES.getParamName());
        }
        names.add(LIMIT.getParamName());
        names.add(OFFSET.getParamName());
        return names;
    }

    private Select<?> select(Shape shape) {
        List<Condition> filters = filters(shape);
        if (shape.matching()) {
            Table<?> page = matchPage(filters);
            return withContext(page, matchOrder(page));
        }
        Table<?> page = containsPage(filters);
        return withContext(page, List.of(page.field(MESSAGES.TIMESTAMP).desc(), page.field(MESSAGES.ID).desc()));
    }

    /** Hermes' filters: an empty source list matches nothing; empty excludes and roles filter nothing. */
    private List<Condition> filters(Shape shape) {
        List<Condition> conditions = new ArrayList<>(3);
        if (shape.sources()) {
            conditions.add(inList(SESSIONS.SOURCE, SOURCES));
        }
        if (shape.excludedSources()) {
            conditions.add(inList(SESSIONS.SOURCE, EXCLUDED_SOURCES).not());
        }
        if (shape.roles()) {
            conditions.add(inList(MESSAGES.ROLE, ROLES));
        }
        return conditions;
    }

    /** The page's rows with their neighbours, in {@code order} (none: the page's own). */
    private static Select<?> withContext(Table<?> page, List<SortField<?>> order) {
        List<SelectField<?>> columns = new ArrayList<>();
        for (Field<?> column : PAGE_COLUMNS) {
            columns.add(page.field(column));
        }
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        return DSL.select(columns)
                .from(page)
                .leftJoin(PREVIOUS).on(PREVIOUS.ID.eq(neighbour(page, false)))
                .leftJoin(NEXT).on(NEXT.ID.eq(neighbour(page, true)))
                .orderBy(order);
    }

    /**
     * The id of the message just before (or after) a page row in its session, by (timestamp, id): the
     * nearest id at the same timestamp, else the nearest message at an earlier (later) timestamp. Each
     * is one seek in idx_messages_session (session_id, timestamp, and the row's id or rowid), however
     * many messages share the timestamp (a batch append gives all of its messages one): with a single
     * range condition on (timestamp, id), SQLite seeks on the timestamp alone and steps through every
     * tied message. COALESCE runs the second seek only when the first finds nothing.
     */
    private static Field<Long> neighbour(Table<?> page, boolean following) {
        Field<Instant> timestamp = page.field(MESSAGES.TIMESTAMP);
        Field<Long> id = page.field(MESSAGES.ID);
        Condition sameSession = NEIGHBOUR.SESSION_ID.eq(page.field(MESSAGES.SESSION_ID));
        Select<Record1<Long>> sameTimestamp = DSL.select(NEIGHBOUR.ID)
                .from(NEIGHBOUR)
                .where(sameSession, NEIGHBOUR.TIMESTAMP.eq(timestamp), following ? NEIGHBOUR.ID.gt(id) : NEIGHBOUR.ID.lt(id))
                .orderBy(following ? NEIGHBOUR.ID.asc() : NEIGHBOUR.ID.desc())
                .limit(DSL.inline(1));
        Select<Record1<Long>> otherTimestamp = DSL.select(NEIGHBOUR.ID)
                .from(NEIGHBOUR)
                .where(sameSession, following ? NEIGHBOUR.TIMESTAMP.gt(timestamp) : NEIGHBOUR.TIMESTAMP.lt(timestamp))
                .orderBy(following
                        ? List.of(NEIGHBOUR.TIMESTAMP.asc(), NEIGHBOUR.ID.asc())
                        : List.of(NEIGHBOUR.TIMESTAMP.desc(), NEIGHBOUR.ID.desc()))
                .limit(DSL.inline(1));
        return DSL.coalesce(DSL.field(sameTimestamp), DSL.field(otherTimestamp));
    }

    private static SearchHit toHit(Record row) {
        // a message's role is NOT NULL, so a null role means there is no such neighbour
        List<ContextMessage> context = new ArrayList<>(3);
        if (row.get(PREVIOUS_ROLE) != null) {
            context.add(new ContextMessage(row.get(PREVIOUS_ROLE), orEmpty(row.get(PREVIOUS_CONTENT))));
        }
        context.add(new ContextMessage(row.get(MESSAGES.ROLE), orEmpty(row.get(HIT_CONTENT))));
        if (row.get(NEXT_ROLE) != null) {
            context.add(new ContextMessage(row.get(NEXT_ROLE), orEmpty(row.get(NEXT_CONTENT))));
        }
        return new SearchHit(row.get(MESSAGES.ID), row.get(MESSAGES.SESSION_ID), row.get(MESSAGES.ROLE),
                row.get(SNIPPET), row.get(MESSAGES.TIMESTAMP), row.get(MESSAGES.TOOL_NAME), row.get(SESSIONS.SOURCE),
                row.get(SESSIONS.MODEL), row.get(SESSIONS.STARTED_AT), context);
    }

    /** The first 200 characters: both engines' substring counts code points, as Python's slicing does. */
    private static Field<String> contextCut(Field<String> content) {
        return DSL.substring(content, DSL.inline(1), DSL.inline(HermesSearch.CONTEXT_LENGTH));
    }

    /** Hermes writes a NULL content (assistant turns that only call tools) as "" in the context. */
    private static String orEmpty(@Nullable String content) {
        return content == null ? "" : content;
    }

    private static boolean isEmpty(@Nullable List<String> values) {
        return values == null || values.isEmpty();
    }
}
