package dev.hermes.state.core.backend;

import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.backend.SearchTerms.Term;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * {@code search_messages} as one statement per search, whatever the engine: a page of hits (the
 * engine's index match ordered by relevance, or a substring search newest first; limit/offset) as a
 * derived table, joined to each hit's previous and next message of the same session, found through
 * {@code idx_messages_session} for the page's rows only. An engine supplies the pages and how a column
 * is tested against a list; the rest (filters, context, paging, rows) is here.
 *
 * <p>Every value is a bind parameter (the source and role lists as one JSON array each), so each
 * statement shape (page kind, filters, order, rules) is a {@link PreparedQuery}, rendered once per
 * schema shape, then kept prepared on each reading connection. For a selective query, rendering and
 * compiling the SQL would cost more than running it. Rows are read through the generated tables' typed
 * fields and converters. The rules that do not depend on the engine (parsing, routing, the CJK paths)
 * are {@link HermesSearch}'s.
 *
 * <p>Today's agent (a store at 17) leaves rewound messages out of the index pages, reads each context
 * message's structured content as its text parts, and orders by time when asked.
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
    private static final Field<String> PREVIOUS_CONTENT = DSL.field(DSL.name("previous_content"), String.class);
    private static final Field<String> NEXT_ROLE = NEXT.ROLE.as("next_role");
    private static final Field<String> NEXT_CONTENT = DSL.field(DSL.name("next_content"), String.class);

    /** The page's columns, as every page selects them ({@link #pageColumns}). */
    private static final List<Field<?>> PAGE_COLUMNS = List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, SNIPPET,
            HIT_CONTENT, MESSAGES.TIMESTAMP, MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT);
    /** The statement's columns, in order: the page's, then the neighbours'. */
    private static final List<Field<?>> RESULT_COLUMNS;

    static {
        List<Field<?>> columns = new ArrayList<>(PAGE_COLUMNS);
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        RESULT_COLUMNS = List.copyOf(columns);
    }

    /** The kinds of page: the index match, version 6's substring fallback, the trigram match, today's substring search. */
    protected enum Kind { MATCH, CONTAINS, TRIGRAM, CONTAINS_ANY }

    private final Map<Shape, PreparedQuery> statements = new ConcurrentHashMap<>();

    // ---- what an engine supplies ----

    /** The parameters of the match page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> matchParameters();

    /** The values of {@link #matchParameters} for a query's terms. */
    protected abstract List<Object> matchValues(List<Term> terms);

    /**
     * The page of messages the index matches: {@link #pageColumns} (plus {@link #RANK} when
     * {@link #matchOrder} needs it), from messages joined to sessions, where the match and then
     * {@code filters} hold, in {@code order} (by relevance: best first, then by id; by time: the
     * timestamp first), {@link #LIMIT} and {@link #OFFSET}. {@code v17}: today's agent's rules (the
     * snippet of the text the index holds: content, tool name and tool calls).
     */
    protected abstract Table<?> matchPage(List<Condition> filters, SearchQuery.Order order, boolean v17);

    /**
     * How the statement orders the rows of the {@link #matchPage} (or {@link #trigramPage}): by its
     * {@link #RANK}, then id, after the timestamp when {@code order} says so. An engine whose page comes
     * out in that order already, without selecting the rank, returns none.
     */
    protected List<SortField<?>> matchOrder(Table<?> page, SearchQuery.Order order) {
        List<SortField<?>> sort = new ArrayList<>(3);
        if (order == SearchQuery.Order.NEWEST) {
            sort.add(page.field(MESSAGES.TIMESTAMP).desc());
        } else if (order == SearchQuery.Order.OLDEST) {
            sort.add(page.field(MESSAGES.TIMESTAMP).asc());
        }
        sort.add(page.field(RANK).asc());
        sort.add(page.field(MESSAGES.ID).asc());
        return sort;
    }

    /** The parameters of the substring page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> containsParameters();

    /** The values of {@link #containsParameters} for Hermes' literal (the query without surrounding quotes). */
    protected abstract List<Object> containsValues(String literal);

    /**
     * Version 6's fallback page: {@link #pageColumns} of the messages whose content contains the literal
     * (LIKE's ASCII case rules, its wildcards taken literally) and {@code filters}, newest first
     * (timestamp, then id, descending), {@link #LIMIT} and {@link #OFFSET}.
     */
    protected abstract Table<?> containsPage(List<Condition> filters);

    /** Whether this store can run a trigram search (SQLite: the file has the trigram index). */
    protected abstract boolean hasTrigramIndex(StoreSchema schema);

    /** The parameters of the trigram page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> trigramParameters();

    /** The values of {@link #trigramParameters} for an expression. */
    protected abstract List<Object> trigramValues(TrigramExpression expression);

    /**
     * The page of messages the trigram expression matches, as {@link #matchPage} (ordered by
     * {@link #matchOrder}): each word a substring of the indexed text (content, tool name, tool calls)
     * of at least 3 characters, letters of any case.
     */
    protected abstract Table<?> trigramPage(List<Condition> filters, SearchQuery.Order order, StoreSchema schema);

    /** The parameters of today's substring page that come before its filters in its SQL, in that order. */
    protected abstract List<Param<?>> containsAnyParameters();

    /** The values of {@link #containsAnyParameters} for the words (at least one). */
    protected abstract List<Object> containsAnyValues(List<String> words);

    /**
     * Today's substring page: {@link #pageColumns} of the messages whose content, tool name or tool
     * calls contain one of the words (LIKE's ASCII case rules, wildcards literal), and {@code filters},
     * newest first (timestamp descending, then id ascending), {@link #LIMIT} and {@link #OFFSET}; the snippet is
     * 120 characters from 40 before the first word's first (exact-case) occurrence in the content.
     */
    protected abstract Table<?> containsAnyPage(List<Condition> filters, StoreSchema schema);

    /** {@code column} is one of the values of the JSON array of strings bound to {@code list}. */
    protected abstract Condition inList(Field<String> column, Param<String> list);

    /** Runs the trigram statement; empty when the engine refused the expression (the agent then searches substrings). */
    protected Optional<List<SearchHit>> runTrigram(Transaction reader, PreparedQuery statement, Object[] values, boolean v17)
            throws SQLException {
        return Optional.of(statement.fetch(reader, values).map(row -> toHit(row, v17)));
    }

    /** The content starts with the agent's marker of structured content (the engine's {@code Backend#isStructuredContent}). */
    protected abstract Condition isStructured(Field<String> content);

    /** A page's columns, in the order the statement reads them, with the engine's snippet (and rank). */
    protected List<SelectField<?>> pageColumns(Field<String> snippet, boolean v17, SelectField<?>... extra) {
        List<SelectField<?>> columns = new ArrayList<>(List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE,
                snippet.as(SNIPPET), contextContent(MESSAGES.CONTENT, v17).as(HIT_CONTENT), MESSAGES.TIMESTAMP,
                MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT));
        columns.addAll(List.of(extra));
        return columns;
    }

    /** Hermes' LIKE pattern for a literal: {@code %literal%} with its own %, _ and \ escaped by {@code \}. */
    protected static String likePattern(String literal) {
        return "%" + literal.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** What today's agent indexes of a message: content, tool name and tool calls, each NULL as '', joined by spaces. */
    protected static Field<String> indexedText() {
        Field<String> space = DSL.inline(" ");
        return DSL.coalesce(MESSAGES.CONTENT, DSL.inline("")).concat(space)
                .concat(DSL.coalesce(MESSAGES.TOOL_NAME, DSL.inline(""))).concat(space)
                .concat(DSL.coalesce(toolCallsText(), DSL.inline("")));
    }

    /** tool_calls as the text it is stored as (the generated field reads JSON). */
    protected static Field<String> toolCallsText() {
        return DSL.field(MESSAGES.TOOL_CALLS.getQualifiedName(), String.class);
    }

    // ---- the search ----

    @Override
    public final List<SearchHit> search(Transaction reader, SearchQuery query) throws SQLException {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(query, "query");
        StoreSchema schema = reader.schema();
        boolean v17 = schema.v17();
        return HermesSearch.run(query, v17, new HermesSearch.Pages() {
            @Override
            public List<SearchHit> matching(SearchQuery page, List<Term> terms) throws SQLException {
                return run(reader, page, Kind.MATCH, v17, matchValues(terms));
            }

            @Override
            public List<SearchHit> containing(SearchQuery page, String literal) throws SQLException {
                return run(reader, page, Kind.CONTAINS, v17, containsValues(literal));
            }

            @Override
            public Optional<List<SearchHit>> trigram(SearchQuery page, TrigramExpression expression) throws SQLException {
                if (!hasTrigramIndex(schema)) {
                    return Optional.empty();
                }
                Shape shape = shape(page, Kind.TRIGRAM, v17);
                return runTrigram(reader, statement(shape), values(shape, page, trigramValues(expression)), v17);
            }

            @Override
            public List<SearchHit> containingAny(SearchQuery page, List<String> words) throws SQLException {
                return run(reader, page, Kind.CONTAINS_ANY, v17, containsAnyValues(words));
            }
        });
    }

    /** Runs the statement of the query's shape with the query's values, in the shape's parameter order. */
    private List<SearchHit> run(Transaction reader, SearchQuery query, Kind kind, boolean v17, List<Object> pageValues)
            throws SQLException {
        Shape shape = shape(query, kind, v17);
        return statement(shape).fetch(reader, values(shape, query, pageValues)).map(row -> toHit(row, v17));
    }

    private static Shape shape(SearchQuery query, Kind kind, boolean v17) {
        boolean indexed = kind == Kind.MATCH || kind == Kind.TRIGRAM;
        return new Shape(kind, query.sourceFilter() != null, !isEmpty(query.excludeSources()),
                !isEmpty(query.roleFilter()), indexed ? query.order() : SearchQuery.Order.RELEVANCE,
                v17 && indexed && !query.includeInactive(), v17);
    }

    private PreparedQuery statement(Shape shape) {
        return statements.computeIfAbsent(shape,
                key -> PreparedQuery.of(schema -> select(key, schema), RESULT_COLUMNS, parameters(key)));
    }

    private static Object[] values(Shape shape, SearchQuery query, List<Object> pageValues) {
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
        return values.toArray();
    }

    /**
     * What changes a statement's SQL: the page, the filters, the order, whether rewound messages are
     * left out, and the rules (today's agent decodes structured context).
     */
    private record Shape(Kind kind, boolean sources, boolean excludedSources, boolean roles, SearchQuery.Order order,
                         boolean liveOnly, boolean v17) {
    }

    /** The statement's parameters, in the order its SQL holds them (the values of {@link #values} follow it). */
    private List<String> parameters(Shape shape) {
        List<String> names = new ArrayList<>();
        List<Param<?>> page = switch (shape.kind()) {
            case MATCH -> matchParameters();
            case CONTAINS -> containsParameters();
            case TRIGRAM -> trigramParameters();
            case CONTAINS_ANY -> containsAnyParameters();
        };
        page.forEach(param -> names.add(param.getParamName()));
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

    private Select<?> select(Shape shape, StoreSchema schema) {
        List<Condition> filters = filters(shape, schema);
        return switch (shape.kind()) {
            case MATCH -> {
                Table<?> page = matchPage(filters, shape.order(), shape.v17());
                yield withContext(page, matchOrder(page, shape.order()), shape.v17());
            }
            case TRIGRAM -> {
                Table<?> page = trigramPage(filters, shape.order(), schema);
                yield withContext(page, matchOrder(page, shape.order()), shape.v17());
            }
            case CONTAINS -> {
                Table<?> page = containsPage(filters);
                yield withContext(page, newestFirst(page, false), shape.v17());
            }
            case CONTAINS_ANY -> {
                Table<?> page = containsAnyPage(filters, schema);
                yield withContext(page, newestFirst(page, true), shape.v17());
            }
        };
    }

    /**
     * Newest first; messages of the same timestamp by id, descending (version 6's fallback) or ascending
     * (today's substring search, as SQLite's sort leaves the agent's rows: in the order it scanned them).
     */
    private static List<SortField<?>> newestFirst(Table<?> page, boolean idsAscending) {
        return List.of(page.field(MESSAGES.TIMESTAMP).desc(),
                idsAscending ? page.field(MESSAGES.ID).asc() : page.field(MESSAGES.ID).desc());
    }

    /**
     * Hermes' filters: an empty source list matches nothing; empty excludes and roles filter nothing;
     * today's agent's index pages leave out rewound messages (inactive unless compacted; a file without
     * the flags has none).
     */
    private List<Condition> filters(Shape shape, StoreSchema schema) {
        List<Condition> conditions = new ArrayList<>(4);
        if (shape.liveOnly() && schema.has(MESSAGES.ACTIVE)) {
            conditions.add(schema.has(MESSAGES.COMPACTED)
                    ? DSL.condition("({0} = 1 OR {1} = 1)", MESSAGES.ACTIVE, MESSAGES.COMPACTED)
                    : DSL.condition("{0} = 1", MESSAGES.ACTIVE));
        }
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
    private Select<?> withContext(Table<?> page, List<SortField<?>> order, boolean v17) {
        List<SelectField<?>> columns = new ArrayList<>();
        for (Field<?> column : PAGE_COLUMNS) {
            columns.add(page.field(column));
        }
        columns.addAll(List.of(PREVIOUS_ROLE, contextContent(PREVIOUS.CONTENT, v17).as(PREVIOUS_CONTENT),
                NEXT_ROLE, contextContent(NEXT.CONTENT, v17).as(NEXT_CONTENT)));
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
     * tied message. COALESCE runs the second seek only when the first finds nothing. Inactive messages
     * are neighbours too, as in the agent.
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

    /** A hit from a row of the statement ({@code v17}: context read as today's agent reads it). */
    protected static SearchHit toHit(Record row, boolean v17) {
        // a message's role is NOT NULL, so a null role means there is no such neighbour
        List<ContextMessage> context = new ArrayList<>(3);
        boolean shown = true;
        if (row.get(PREVIOUS_ROLE) != null) {
            shown = add(context, row.get(PREVIOUS_ROLE), row.get(PREVIOUS_CONTENT), v17);
        }
        shown &= add(context, row.get(MESSAGES.ROLE), row.get(HIT_CONTENT), v17);
        if (row.get(NEXT_ROLE) != null) {
            shown &= add(context, row.get(NEXT_ROLE), row.get(NEXT_CONTENT), v17);
        }
        return new SearchHit(row.get(MESSAGES.ID), row.get(MESSAGES.SESSION_ID), row.get(MESSAGES.ROLE),
                row.get(SNIPPET), row.get(MESSAGES.TIMESTAMP), row.get(MESSAGES.TOOL_NAME), row.get(SESSIONS.SOURCE),
                row.get(SESSIONS.MODEL), row.get(SESSIONS.STARTED_AT),
                shown ? context : List.of()); // the agent shows no context for a hit whose context it cannot render
    }

    /**
     * Adds a context message as shown: Hermes writes a NULL content (assistant turns that only call
     * tools) as ""; today's agent shows structured content as its text parts. False when it cannot.
     */
    private static boolean add(List<ContextMessage> context, String role, @Nullable String content, boolean v17) {
        String text = content == null ? "" : v17 ? ContextPreview.of(content) : content;
        if (text == null) {
            return false;
        }
        context.add(new ContextMessage(role, text));
        return true;
    }

    /**
     * The content read for a context message: its first 200 characters (both engines' substring counts
     * code points, as Python's slicing does); today's agent decodes structured content first, so such
     * a text is read whole.
     */
    private Field<String> contextContent(Field<String> content, boolean v17) {
        Field<String> cut = DSL.substring(content, DSL.inline(1), DSL.inline(HermesSearch.CONTEXT_LENGTH));
        if (!v17) {
            return cut;
        }
        return DSL.when(isStructured(content), content).otherwise(cut);
    }

    private static boolean isEmpty(@Nullable List<String> values) {
        return values == null || values.isEmpty();
    }
}
