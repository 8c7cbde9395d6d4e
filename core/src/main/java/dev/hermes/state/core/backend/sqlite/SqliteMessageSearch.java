package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.backend.PagedMessageSearch;
import dev.hermes.state.core.backend.SearchTerms.Term;
import dev.hermes.state.core.backend.TrigramExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS;
import static dev.hermes.state.db.Tables.MESSAGES_FTS_TRIGRAM;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The search on a SQLite state.db: the FTS5 MATCH pages (the word index, ordered by {@code rank}, and
 * the trigram index of today's agent) and Hermes' LIKE pages for CJK text; the statement around them is
 * {@link PagedMessageSearch}'s.
 */
final class SqliteMessageSearch extends PagedMessageSearch {

    // ---- every SQLite-specific fragment of the search, in one place ----

    /** The FTS5 table's hidden rowid: the id of the message it indexes. */
    private static final Field<Long> FTS_ROWID = DSL.field("{0}.rowid", Long.class, MESSAGES_FTS);
    /** FTS5's bm25 relevance; smaller is better. Ordering by it alone lets FTS5 deliver rows in order. */
    private static final Field<Double> FTS_RANK = DSL.field("{0}.rank", Double.class, MESSAGES_FTS);
    /** Hermes' snippet: matches between >>> and <<<, about 40 tokens around them. */
    private static final Field<String> FTS_SNIPPET =
            DSL.field("snippet({0}, 0, '>>>', '<<<', '...', 40)", String.class, MESSAGES_FTS);
    private static final Field<Long> TRIGRAM_ROWID = DSL.field("{0}.rowid", Long.class, MESSAGES_FTS_TRIGRAM);
    private static final Field<Double> TRIGRAM_RANK = DSL.field("{0}.rank", Double.class, MESSAGES_FTS_TRIGRAM);
    private static final Field<String> TRIGRAM_SNIPPET =
            DSL.field("snippet({0}, 0, '>>>', '<<<', '...', 40)", String.class, MESSAGES_FTS_TRIGRAM);
    private static final char LIKE_ESCAPE = '\\';

    private static final Param<String> MATCH_EXPRESSION = DSL.param("match_expression", String.class);
    private static final Param<String> TRIGRAM_EXPRESSION = DSL.param("trigram_expression", String.class);
    private static final Param<String> LIKE_TEXT = DSL.param("like_text", String.class);
    private static final Param<String> LIKE_PATTERN = DSL.param("like_pattern", String.class);
    private static final Param<String> LIKE_PATTERNS = DSL.param("like_patterns", String.class);

    private static Condition matches(Table<?> index, Param<String> expression) {
        return DSL.condition("{0} MATCH {1}", index, expression);
    }

    /**
     * Hermes' CJK snippet: 120 characters starting 40 before the first exact (case-sensitive) occurrence;
     * from the start when the match is within the first 40 characters or only matched LIKE's ASCII
     * case folding (instr = 0).
     */
    private static Field<String> likeSnippet(Param<String> text) {
        return DSL.field("substr({0}, max(1, instr({0}, {1}) - 40), 120)", String.class, MESSAGES.CONTENT, text);
    }

    @Override
    protected List<Param<?>> matchParameters() {
        return List.of(MATCH_EXPRESSION);
    }

    @Override
    protected List<Object> matchValues(List<Term> terms) {
        return List.of(Fts5Query.render(terms));
    }

    @Override
    protected List<Param<?>> containsParameters() {
        return List.of(LIKE_TEXT, LIKE_PATTERN);
    }

    @Override
    protected List<Object> containsValues(String literal) {
        return List.of(literal, likePattern(literal));
    }

    /**
     * Ordered by {@code rank} without selecting it: FTS5 sorts the matches by rank itself, and a
     * {@code rank} read from the cursor calls bm25 again, whose first call counts every row that
     * holds each phrase (for a phrase, by reading their positions): a second pass over the matches.
     * The snippet is cut from what the index holds (today's files: content, tool name and tool calls).
     */
    @Override
    protected Table<?> matchPage(List<Condition> filters, SearchQuery.Order order, boolean v17) {
        return DSL.select(pageColumns(FTS_SNIPPET, v17))
                .from(MESSAGES_FTS)
                .join(MESSAGES).on(MESSAGES.ID.eq(FTS_ROWID))
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(matches(MESSAGES_FTS, MATCH_EXPRESSION))
                .and(DSL.and(filters))
                .orderBy(rankOrder(order, FTS_RANK))
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** Hermes' order: rank alone, or the timestamp first. */
    private static List<SortField<?>> rankOrder(SearchQuery.Order order, Field<Double> rank) {
        return switch (order) {
            case RELEVANCE -> List.of(rank.asc());
            case NEWEST -> List.of(MESSAGES.TIMESTAMP.desc(), rank.asc());
            case OLDEST -> List.of(MESSAGES.TIMESTAMP.asc(), rank.asc());
        };
    }

    /**
     * The page's own order: SQLite reads the page (a LIMIT subquery) as the outer loop of the joins to
     * the neighbours, and FTS5's rank order puts equal ranks in rowid (= id) order, as the statement
     * ordered them when it selected the rank.
     */
    @Override
    protected List<SortField<?>> matchOrder(Table<?> page, SearchQuery.Order order) {
        return List.of();
    }

    /** {@code content LIKE '%text%'} (SQLite's LIKE ignores ASCII case), the text's own %, _ and \ literal. */
    @Override
    protected Table<?> containsPage(List<Condition> filters) {
        return DSL.select(pageColumns(likeSnippet(LIKE_TEXT), false))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(MESSAGES.CONTENT.like(LIKE_PATTERN, LIKE_ESCAPE))
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** The agent's trigram table, absent from files it has not opened since version 10. */
    @Override
    protected boolean hasTrigramIndex(StoreSchema schema) {
        return schema.hasTable(MESSAGES_FTS_TRIGRAM);
    }

    @Override
    protected List<Param<?>> trigramParameters() {
        return List.of(TRIGRAM_EXPRESSION);
    }

    @Override
    protected List<Object> trigramValues(TrigramExpression expression) {
        return List.of(expression.match());
    }

    @Override
    protected Table<?> trigramPage(List<Condition> filters, SearchQuery.Order order, StoreSchema schema) {
        return DSL.select(pageColumns(TRIGRAM_SNIPPET, true))
                .from(MESSAGES_FTS_TRIGRAM)
                .join(MESSAGES).on(MESSAGES.ID.eq(TRIGRAM_ROWID))
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(matches(MESSAGES_FTS_TRIGRAM, TRIGRAM_EXPRESSION))
                .and(DSL.and(filters))
                .orderBy(rankOrder(order, TRIGRAM_RANK))
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** An expression FTS5 refuses (too deeply nested, say) fails the statement: the agent then searches substrings. */
    @Override
    protected Optional<List<SearchHit>> runTrigram(Transaction reader, PreparedQuery statement, Object[] values,
                                                   boolean v17) throws SQLException {
        try {
            return super.runTrigram(reader, statement, values, v17);
        } catch (SQLiteException failure) {
            if (failure.getResultCode() == SQLiteErrorCode.SQLITE_ERROR) {
                return Optional.empty();
            }
            throw failure;
        }
    }

    @Override
    protected List<Param<?>> containsAnyParameters() {
        return List.of(LIKE_TEXT, LIKE_PATTERNS);
    }

    /** The first word (for the snippet) and every word's LIKE pattern, as one JSON array. */
    @Override
    protected List<Object> containsAnyValues(List<String> words) {
        List<String> patterns = new ArrayList<>(words.size());
        words.forEach(word -> patterns.add(likePattern(word)));
        return List.of(words.get(0), Objects.requireNonNull(JsonColumns.text(patterns)));
    }

    /**
     * One LIKE alternative per word over content, tool name and tool calls, as the agent's OR of
     * clauses: the patterns come as one JSON array, so any number of words is one statement.
     */
    @Override
    protected Table<?> containsAnyPage(List<Condition> filters, StoreSchema schema) {
        Field<String> pattern = DSL.field(DSL.name("word", "value"), String.class);
        Condition anyWord = DSL.exists(DSL.selectOne()
                .from(DSL.table("json_each({0})", LIKE_PATTERNS).as("word"))
                .where(MESSAGES.CONTENT.like(pattern, LIKE_ESCAPE)
                        .or(MESSAGES.TOOL_NAME.like(pattern, LIKE_ESCAPE))
                        .or(toolCallsText().like(pattern, LIKE_ESCAPE))));
        return DSL.select(pageColumns(likeSnippet(LIKE_TEXT), true))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(anyWord)
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.asc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    @Override
    protected Condition isStructured(Field<String> content) {
        return SqliteBackend.structuredContent(content);
    }

    /** Membership in a list bound as one JSON array: one statement shape whatever the list's length. */
    @Override
    protected Condition inList(Field<String> column, Param<String> list) {
        return DSL.condition("{0} IN (SELECT value FROM json_each({1}))", column, list);
    }
}
