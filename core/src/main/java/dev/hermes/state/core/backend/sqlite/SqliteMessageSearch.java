package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.search.HermesSearch;
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
 * 16 statement shapes: each is a {@link PreparedQuery}, rendered once, then kept prepared on each
 * reading connection. For a selective query, rendering and compiling the SQL would cost more than
 * running it. Rows are read through the generated tables' typed fields and converters. The rules
 * that do not depend on SQLite (parsing, the CJK fallback) are {@link HermesSearch}'s.
 */
final class SqliteMessageSearch implements MessageSearch {

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
    private static final List<Field<?>> RESULT_COLUMNS;

    static {
        List<Field<?>> columns = new ArrayList<>(PAGE_COLUMNS);
        columns.addAll(List.of(PREVIOUS_ROLE, PREVIOUS_CONTENT, NEXT_ROLE, NEXT_CONTENT));
        RESULT_COLUMNS = List.copyOf(columns);
    }

    private final Map<Shape, PreparedQuery> statements = new ConcurrentHashMap<>();

    @Override
    public List<SearchHit> search(Transaction reader, SearchQuery query) throws SQLException {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(query, "query");
        return HermesSearch.run(query, new HermesSearch.Pages() {
            @Override
            public List<SearchHit> matching(SearchQuery page, List<Term> terms) throws SQLException {
                return run(reader, page, true, Fts5Query.render(terms));
            }

            @Override
            public List<SearchHit> containing(SearchQuery page, String literal) throws SQLException {
                return run(reader, page, false, literal, likePattern(literal));
            }
        });
    }

    /** Runs the statement of the query's shape with the query's values, in the shape's parameter order. */
    private List<SearchHit> run(Transaction reader, SearchQuery query, boolean fts, String... textValues)
            throws SQLException {
        Shape shape = new Shape(fts, query.sourceFilter() != null, !isEmpty(query.excludeSources()),
                !isEmpty(query.roleFilter()));
        List<@Nullable Object> values = new ArrayList<>(List.of(textValues));
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
                key -> PreparedQuery.of(() -> select(key), RESULT_COLUMNS, key.parameters()));
        return statement.fetch(reader, values.toArray()).map(SqliteMessageSearch::toHit);
    }

    /** Which filters a statement has; with the page kind, this is all that changes its SQL. */
    private record Shape(boolean fts, boolean sources, boolean excludedSources, boolean roles) {
        /** The statement's parameters, in the order its SQL holds them (the values of {@link #run} follow it). */
        List<String> parameters() {
            List<String> names = new ArrayList<>(fts
                    ? List.of(MATCH_EXPRESSION.getParamName())
                    : List.of(LIKE_TEXT.getParamName(), LIKE_PATTERN.getParamName()));
            if (sources) {
                names.add(SOURCES.getParamName());
            }
            if (excludedSources) {
                names.add(EXCLUDED_SOURCES.getParamName());
            }
            if (roles) {
                names.add(ROLES.getParamName());
            }
            names.add(LIMIT.getParamName());
            names.add(OFFSET.getParamName());
            return names;
        }
    }

    private static Select<?> select(Shape shape) {
        return shape.fts() ? withContext(ftsPage(shape), true) : withContext(likePage(shape), false);
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
