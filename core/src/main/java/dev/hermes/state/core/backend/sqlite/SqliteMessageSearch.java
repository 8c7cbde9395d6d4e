package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.search.PagedMessageSearch;
import dev.hermes.state.core.search.SearchTerms.Term;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The search on a SQLite state.db: the FTS5 MATCH page (ordered by {@code rank}) and Hermes' LIKE
 * fallback page for CJK text; the statement around them is {@link PagedMessageSearch}'s.
 */
final class SqliteMessageSearch extends PagedMessageSearch {

    // ---- every SQLite-specific fragment of the search, in one place ----

    /** The FTS5 table's hidden rowid: the id of the message it indexes (content_rowid=id). */
    private static final Field<Long> FTS_ROWID = DSL.field("{0}.rowid", Long.class, MESSAGES_FTS);
    /** FTS5's bm25 relevance; smaller is better. Ordering by it alone lets FTS5 deliver rows in order. */
    private static final Field<Double> FTS_RANK = DSL.field("{0}.rank", Double.class, MESSAGES_FTS);
    /** Hermes' snippet: matches between >>> and <<<, about 40 tokens around them. */
    private static final Field<String> FTS_SNIPPET =
            DSL.field("snippet({0}, 0, '>>>', '<<<', '...', 40)", String.class, MESSAGES_FTS);
    private static final char LIKE_ESCAPE = '\\';

    private static final Param<String> MATCH_EXPRESSION = DSL.param("match_expression", String.class);
    private static final Param<String> LIKE_TEXT = DSL.param("like_text", String.class);
    private static final Param<String> LIKE_PATTERN = DSL.param("like_pattern", String.class);

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
     */
    @Override
    protected Table<?> matchPage(List<Condition> filters) {
        return DSL.select(pageColumns(FTS_SNIPPET))
                .from(MESSAGES_FTS)
                .join(MESSAGES).on(MESSAGES.ID.eq(FTS_ROWID))
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(ftsMatches(MATCH_EXPRESSION))
                .and(DSL.and(filters))
                .orderBy(FTS_RANK)
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /**
     * The page's own order: SQLite reads the page (a LIMIT subquery) as the outer loop of the joins to
     * the neighbours, and FTS5's rank order puts equal ranks in rowid (= id) order, as the statement
     * ordered them when it selected the rank.
     */
    @Override
    protected List<SortField<?>> matchOrder(Table<?> page) {
        return List.of();
    }

    /** {@code content LIKE '%text%'} (SQLite's LIKE ignores ASCII case), the text's own %, _ and \ literal. */
    @Override
    protected Table<?> containsPage(List<Condition> filters) {
        return DSL.select(pageColumns(likeSnippet(LIKE_TEXT)))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(MESSAGES.CONTENT.like(LIKE_PATTERN, LIKE_ESCAPE))
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** Membership in a list bound as one JSON array: one statement shape whatever the list's length. */
    @Override
    protected Condition inList(Field<String> column, Param<String> list) {
        return DSL.condition("{0} IN (SELECT value FROM json_each({1}))", column, list);
    }
}
