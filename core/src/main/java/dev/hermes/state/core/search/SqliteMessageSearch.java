package dev.hermes.state.core.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.connection.Transaction;
import dev.hermes.state.core.search.SearchHit.ContextMessage;
import dev.hermes.state.db.tables.Messages;
import dev.hermes.state.sqlite.SqliteErrors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectField;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * {@link MessageSearch} on a SQLite state.db. One statement per search: the page of hits (FTS5 MATCH,
 * ordered by {@code rank}, limit/offset) as a derived table, joined to each hit's previous and next
 * message of the same session, found through {@code idx_messages_session} for the page's rows only.
 * When the query holds CJK text and FTS5 finds nothing, the same statement runs with Hermes' LIKE
 * fallback as the page instead (newest first).
 *
 * <p>Every value is a bind parameter (the source and role lists as one JSON array each), so there are
 * 16 statement shapes: each is built with jOOQ and rendered once, then kept prepared on each reading
 * connection ({@link Transaction#withStatement}). For a selective query, rendering and compiling the
 * SQL would cost more than running it. Rows are read through the generated tables' typed fields and converters.
 */
final class SqliteMessageSearch implements MessageSearch {
    static final SqliteMessageSearch INSTANCE = new SqliteMessageSearch();

    // ---- every SQLite-specific fragment of the search, in one place ----

    /** The FTS5 table's hidden rowid: the id of the message it indexes (content_rowid=id). */
    private static final Field<Long> FTS_ROWID = DSL.field("{0}.rowid", Long.class, MESSAGES_FTS);
    /** FTS5's bm25 relevance; smaller is better. Ordering by it alone lets FTS5 deliver rows in order. */
    private static final Field<Double> FTS_RANK = DSL.field("{0}.rank", Double.class, MESSAGES_FTS);
    /** Hermes' snippet: matches between >>> and <<<, about 40 tokens around them. */
    private static final Field<String> FTS_SNIPPET =
            DSL.field("snippet({0}, 0, '>>>', '<<<', '...', 40)", String.class, MESSAGES_FTS);
    private static final char LIKE_ESCAPE = '\\';

    private static Condition ftsMatches(Param<String> expression) {
        return DSL.condition("{0} MATCH {1}", MESSAGES_FTS, expression);
    }

    /**
     * Hermes' CJK snippet: 120 characters starting 40 before the first exact (case-sensitive) occurrence;
     * from the start when the match is within the first 40 characters or only matched LIKE's ASCII
     * case folding (instr = 0).
     */
    private static Field<String> likeSnippet(Param<String> text) {
        return DSL.field("substr({0}, max(1, instr({0}, {1}) - 40), 120)", String.class, MESSAGES.CONTENT, text);
    }

    /** {@code content LIKE '%text%'} where the text's own %, _ and \ match literally ({@link #likePattern}). */
    private static Condition likeContains(Param<String> pattern) {
        return MESSAGES.CONTENT.like(pattern, LIKE_ESCAPE);
    }

    private static String likePattern(String text) {
        return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** Membership in a list bound as one JSON array: one statement shape whatever the list's length. */
    private static Condition inJsonList(Field<String> column, Param<String> jsonArray) {
        return DSL.condition("{0} IN (SELECT value FROM json_each({1}))", column, jsonArray);
    }

    // ---- parameters and result columns ----

    private static final Param<String> MATCH_EXPRESSION = DSL.param("match_expression", String.class);
    private static final Param<String> LIKE_TEXT = DSL.param("like_text", String.class);
    private static final Param<String> LIKE_PATTERN = DSL.param("like_pattern", String.class);
    private static final Param<String> SOURCES = DSL.param("sources", String.class);
    private static final Param<String> EXCLUDED_SOURCES = DSL.param("excluded_sources", String.class);
    private static final Param<String> ROLES = DSL.param("roles", String.class);
    private static final Param<Integer> LIMIT = DSL.param("limit", Integer.class);
    private static final Param<Integer> OFFSET = DSL.param("offset", Integer.class);

    private static final Messages PREVIOUS = MESSAGES.as("previous_message");
    private static final Messages NEXT = MESSAGES.as("next_message");
    private static final Messages NEIGHBOUR = MESSAGES.as("neighbour");
    private static final Field<String> SNIPPET = DSL.field(DSL.name("snippet"), String.class);
    private static final Field<String> HIT_CONTENT = DSL.field(DSL.name("hit_content"), String.class);
    private static final Field<Double> RANK = DSL.field(DSL.name("rank"), Double.class);
    private static final Field<String> PREVIOUS_ROLE = PREVIOUS.ROLE.as("previous_role");
    private static final Field<String> PREVIOUS_CONTENT = contextCut(PREVIOUS.CONTENT).as("previous_content");
    private static final Field<String> NEXT_ROLE = NEXT.ROLE.as("next_role");
    private static final Field<String> NEXT_CONTENT = contextCut(NEXT.CONTENT).as("next_content");

    /** The page's columns, as both page queries select them. */
    private static final List<Field<?>> PAGE_COLUMNS = List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, SNIPPET,
            HIT_CONTENT, MESSAGES.TIMESTAMP, MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT);
    /** The statement's columns, in order: the page's, then the neighbours'. */
    private static final Field<?>[] RESULT_COLUMNS;

    static {
        List<Field<?>> columns = new ArrayList<>(PAGE_COLUMNS);
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        RESULT_COLUMNS = columns.toArray(Field<?>[]::new);
    }

    private static final DSLContext RENDERER = DSL.using(SQLDialect.SQLITE);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<Shape, RenderedStatement> rendered = new ConcurrentHashMap<>();

    private SqliteMessageSearch() {
    }

    @Override
    public List<SearchHit> search(Transaction reader, SearchQuery query) {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(query, "query");
        String text = query.query();
        if (text == null || isBlank(text) || query.limit() == 0) {
            return List.of();
        }
        try {
            Optional<String> expression = Fts5Query.toMatchExpression(text);
            List<SearchHit> hits = expression.isPresent()
                    ? run(reader, query, true, matchValues(expression.get()))
                    : List.of();
            if (hits.isEmpty() && Cjk.containsCjk(text) && !hasEarlierHits(reader, query, expression)) {
                String literal = withoutSurroundingQuotes(text);
                return literal.isEmpty() ? List.of() : run(reader, query, false,
                        Map.of(LIKE_TEXT.getParamName(), literal, LIKE_PATTERN.getParamName(), likePattern(literal)));
            }
            return hits;
        } catch (SQLException | DataAccessException failure) {
            throw SqliteErrors.translate(failure, "searching messages");
        }
    }

    /**
     * Whether FTS5 matches something before an empty page: then the search paged past its hits and the
     * CJK fallback, meant for when "FTS finds nothing", does not apply (Hermes would switch to the LIKE
     * results at that offset, mixing two different result lists in one paging).
     */
    private boolean hasEarlierHits(Transaction reader, SearchQuery query, Optional<String> expression)
            throws SQLException {
        if (expression.isEmpty() || query.offset() == 0) {
            return false;
        }
        SearchQuery firstHit = new SearchQuery(query.query(), query.sourceFilter(), query.excludeSources(),
                query.roleFilter(), 1, 0);
        return !run(reader, firstHit, true, matchValues(expression.get())).isEmpty();
    }

    private static Map<String, Object> matchValues(String expression) {
        return Map.of(MATCH_EXPRESSION.getParamName(), expression);
    }

    /** Runs the statement of the query's shape with the query's values. */
    private List<SearchHit> run(Transaction reader, SearchQuery query, boolean fts, Map<String, Object> textValues)
            throws SQLException {
        Shape shape = new Shape(fts, query.sourceFilter() != null, !isEmpty(query.excludeSources()),
                !isEmpty(query.roleFilter()));
        RenderedStatement statement = rendered.computeIfAbsent(shape, SqliteMessageSearch::render);
        Map<String, Object> values = new HashMap<>(textValues);
        values.put(SOURCES.getParamName(), jsonArray(query.sourceFilter()));
        values.put(EXCLUDED_SOURCES.getParamName(), jsonArray(query.excludeSources()));
        values.put(ROLES.getParamName(), jsonArray(query.roleFilter()));
        values.put(LIMIT.getParamName(), query.limit());
        values.put(OFFSET.getParamName(), query.offset());
        return reader.withStatement(statement.sql(), prepared -> {
            for (int i = 0; i < statement.parameters().size(); i++) {
                prepared.setObject(i + 1, values.get(statement.parameters().get(i)));
            }
            try (ResultSet rows = prepared.executeQuery()) {
                return reader.dsl().fetch(rows, RESULT_COLUMNS).map(SqliteMessageSearch::toHit);
            }
        });
    }

    /** Which filters a statement has; with the page kind, this is all that changes its SQL. */
    private record Shape(boolean fts, boolean sources, boolean excludedSources, boolean roles) {
    }

    /** SQL with {@code ?} placeholders and the names of the parameters they stand for, in order. */
    private record RenderedStatement(String sql, List<String> parameters) {
    }

    private static RenderedStatement render(Shape shape) {
        Select<?> select = shape.fts() ? withContext(ftsPage(shape), true) : withContext(likePage(shape), false);
        // getParams() lists every value in order of appearance; the inlined ones are SQL literals, not binds
        List<String> parameters = select.getParams().values().stream()
                .filter(param -> !param.isInline()).map(Param::getParamName).toList();
        if (select.getBindValues().size() != parameters.size()) {
            throw new IllegalStateException("each parameter must appear once in " + select);
        }
        return new RenderedStatement(RENDERER.render(select), parameters);
    }

    private static Table<?> ftsPage(Shape shape) {
        return DSL.select(pageColumns(FTS_SNIPPET, FTS_RANK.as(RANK)))
                .from(MESSAGES_FTS)
                .join(MESSAGES).on(MESSAGES.ID.eq(FTS_ROWID))
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(filters(shape, ftsMatches(MATCH_EXPRESSION)))
                .orderBy(FTS_RANK)
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    private static Table<?> likePage(Shape shape) {
        return DSL.select(pageColumns(likeSnippet(LIKE_TEXT)))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(filters(shape, likeContains(LIKE_PATTERN)))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    private static List<SelectField<?>> pageColumns(Field<String> snippet, SelectField<?>... extra) {
        List<SelectField<?>> columns = new ArrayList<>(List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE,
                snippet.as(SNIPPET), contextCut(MESSAGES.CONTENT).as(HIT_CONTENT), MESSAGES.TIMESTAMP,
                MESSAGES.TOOL_NAME, SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT));
        columns.addAll(List.of(extra));
        return columns;
    }

    /** Hermes' filters: an empty source list matches nothing; empty excludes and roles filter nothing. */
    private static List<Condition> filters(Shape shape, Condition match) {
        List<Condition> conditions = new ArrayList<>(4);
        conditions.add(match);
        if (shape.sources()) {
            conditions.add(inJsonList(SESSIONS.SOURCE, SOURCES));
        }
        if (shape.excludedSources()) {
            conditions.add(inJsonList(SESSIONS.SOURCE, EXCLUDED_SOURCES).not());
        }
        if (shape.roles()) {
            conditions.add(inJsonList(MESSAGES.ROLE, ROLES));
        }
        return conditions;
    }

    /** The page's rows with their neighbours, in the page's order (FTS5 breaks rank ties arbitrarily: then by id). */
    private static Select<?> withContext(Table<?> page, boolean byRank) {
        List<SelectField<?>> columns = new ArrayList<>();
        for (Field<?> column : PAGE_COLUMNS) {
            columns.add(page.field(column));
        }
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        List<SortField<?>> order = byRank
                ? List.of(page.field(RANK).asc(), page.field(MESSAGES.ID).asc())
                : List.of(page.field(MESSAGES.TIMESTAMP).desc(), page.field(MESSAGES.ID).desc());
        return DSL.select(columns)
                .from(page)
                .leftJoin(PREVIOUS).on(PREVIOUS.ID.eq(neighbour(page, false)))
                .leftJoin(NEXT).on(NEXT.ID.eq(neighbour(page, true)))
                .orderBy(order);
    }

    /**
     * The id of the message just before (or after) a page row in its session, by (timestamp, id): the
     * nearest id at the same timestamp, else the nearest message at an earlier (later) timestamp. Each
     * is one seek in idx_messages_session (session_id, timestamp, rowid), however many messages share
     * the timestamp (a batch append gives all of its messages one): with a single range condition on
     * (timestamp, id), SQLite seeks on the timestamp alone and steps through every tied message.
     * COALESCE runs the second seek only when the first finds nothing.
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

    /** The first 200 characters: SQLite's substr counts code points in TEXT, as Python's slicing does. */
    private static Field<String> contextCut(Field<String> content) {
        return DSL.substring(content, DSL.inline(1), DSL.inline(CONTEXT_LENGTH));
    }

    /** Hermes writes a NULL content (assistant turns that only call tools) as "" in the context. */
    private static String orEmpty(String content) {
        return content == null ? "" : content;
    }

    private static String jsonArray(List<String> values) {
        if (values == null) {
            return null;
        }
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a list of strings is always JSON", impossible);
        }
    }

    private static boolean isEmpty(List<String> values) {
        return values == null || values.isEmpty();
    }

    /** Hermes' q for the LIKE fallback: the query stripped of whitespace and of surrounding double quotes. */
    private static String withoutSurroundingQuotes(String text) {
        String stripped = strip(text);
        int start = 0;
        int end = stripped.length();
        while (start < end && stripped.charAt(start) == '"') {
            start++;
        }
        while (end > start && stripped.charAt(end - 1) == '"') {
            end--;
        }
        return strip(stripped.substring(start, end));
    }

    private static boolean isBlank(String text) {
        return strip(text).isEmpty();
    }

    /** Python's str.strip(): Unicode whitespace incl. no-break spaces, which Java's strip() keeps. */
    private static String strip(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    private static boolean isWhitespace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085';
    }
}
