package dev.hermes.state.core.backend.postgres;

import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.search.PagedMessageSearch;
import dev.hermes.state.core.search.SearchTerms.Term;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The search on PostgreSQL: messages' {@code content_tsv} (FTS5's unicode61 tokens, computed by the
 * schema's {@code messages_content_tsv}) matched by a tsquery built in the database
 * ({@code messages_search_query}: each term the phrase of its tokens, as FTS5 reads it), GIN-indexed;
 * the CJK substring fallback narrowed by {@code content_grams} (GIN) before the exact LIKE. The
 * operators keep FTS5's precedence (NOT, then AND and juxtaposition, then OR), which is tsquery's
 * ({@code !}, {@code &}, {@code |}), so a query finds the same messages on both engines; ranking is
 * {@code ts_rank}'s divided by the log of the message's length (normalization 1), so that, as with
 * bm25, of two messages with one occurrence each the shorter comes first.
 */
final class PostgresMessageSearch extends PagedMessageSearch {

    private static final Param<String> EXPRESSION = DSL.param("expression", String.class);
    private static final Param<String> TERMS = DSL.param("terms", String.class);
    private static final Param<String> SNIPPET_TEXT = DSL.param("snippet_text", String.class);
    private static final Param<String> GRAMS_TEXT = DSL.param("grams_text", String.class);
    private static final Param<String> LIKE_PATTERN = DSL.param("like_pattern", String.class);

    private static final Field<Object> QUERY = DSL.field(DSL.name("search", "q"), SQLDataType.OTHER);
    private static final Field<Object> CONTENT_TSV = DSL.field(DSL.name("messages", "content_tsv"), SQLDataType.OTHER);
    private static final Field<Object> CONTENT_GRAMS = DSL.field(DSL.name("messages", "content_grams"), SQLDataType.OTHER);

    /** FTS5's snippet(..., '>>>', '<<<', '...', 40): one fragment of up to 40 words around the matches. */
    private static final String HEADLINE_OPTIONS =
            "StartSel=>>>, StopSel=<<<, MaxWords=40, MinWords=15, MaxFragments=1, FragmentDelimiter=...";

    @Override
    protected List<Param<?>> matchParameters() {
        return List.of(EXPRESSION, TERMS);
    }

    /** The boolean structure with {i} for term i, and the terms as [text, prefix] pairs. */
    @Override
    protected List<Object> matchValues(List<Term> terms) {
        StringBuilder expression = new StringBuilder();
        List<Object> pairs = new ArrayList<>(terms.size());
        for (int i = 0; i < terms.size(); i++) {
            Term term = terms.get(i);
            if (i > 0) {
                String operator = term.operator();
                expression.append("OR".equals(operator) ? " | " : "NOT".equals(operator) ? " & !" : " & ");
            }
            expression.append('{').append(i + 1).append('}');
            pairs.add(List.of(term.text(), term.prefix()));
        }
        return List.of(expression.toString(), Objects.requireNonNull(JsonColumns.encode(pairs, "search terms")));
    }

    @Override
    protected List<Param<?>> containsParameters() {
        return List.of(SNIPPET_TEXT, GRAMS_TEXT, LIKE_PATTERN);
    }

    @Override
    protected List<Object> containsValues(String literal) {
        return List.of(literal, literal, PostgresBackend.asciiLower(likePattern(literal)));
    }

    @Override
    protected Table<?> matchPage(List<Condition> filters) {
        // OFFSET 0 keeps the query a subquery of its own, computed once: pulled up into the join, the
        // function (which tokenizes every term) would run for every message the scan looks at
        Table<?> search = DSL.select(DSL.field("messages_search_query({0}, {1})", SQLDataType.OTHER, EXPRESSION, TERMS)
                .as("q")).offset(DSL.inline(0)).asTable("search");
        Field<String> snippet = DSL.field("pg_catalog.ts_headline('pg_catalog.simple', {0}, {1}, {2})", String.class,
                MESSAGES.CONTENT, QUERY, DSL.inline(HEADLINE_OPTIONS));
        Field<Double> rank = DSL.field("(-pg_catalog.ts_rank({0}, {1}, 1))::double precision", Double.class,
                CONTENT_TSV, QUERY);
        return DSL.select(pageColumns(snippet, rank.as(RANK)))
                .from(search)
                .crossJoin(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(DSL.condition("{0} @@ {1}", CONTENT_TSV, QUERY))
                .and(DSL.and(filters))
                .orderBy(DSL.field(DSL.name("rank")).asc(), MESSAGES.ID.asc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /**
     * Hermes' substring fallback: the messages holding every CJK character and pair of the text
     * (the grams index), then SQLite's LIKE exactly (ASCII letters case-insensitive), newest first;
     * the snippet is 120 characters from 40 before the first (exact-case) occurrence.
     */
    @Override
    protected Table<?> containsPage(List<Condition> filters) {
        Field<String> snippet = DSL.field("pg_catalog.substr({0}, greatest(1, pg_catalog.strpos({0}, {1}) - 40), 120)",
                String.class, MESSAGES.CONTENT, SNIPPET_TEXT);
        return DSL.select(pageColumns(snippet))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(DSL.condition("{0} @> messages_cjk_grams({1})", CONTENT_GRAMS, GRAMS_TEXT))
                .and(PostgresBackend.asciiLower(MESSAGES.CONTENT).like(LIKE_PATTERN, '\\'))
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    @Override
    protected Condition inList(Field<String> column, Param<String> list) {
        return DSL.condition("{0} IN (SELECT pg_catalog.jsonb_array_elements_text(CAST({1} AS jsonb)))", column, list);
    }
}
