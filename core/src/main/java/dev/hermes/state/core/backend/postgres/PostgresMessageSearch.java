package dev.hermes.state.core.backend.postgres;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.backend.PagedMessageSearch;
import dev.hermes.state.core.backend.SearchTerms.Term;
import dev.hermes.state.core.backend.TrigramExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The search on PostgreSQL: messages' {@code content_tsv} (FTS5's unicode61 tokens, computed by the
 * schema's {@code messages_content_tsv}) matched by a tsquery built in the database
 * ({@code messages_search_query}: each term the phrase of its tokens, as FTS5 reads it), GIN-indexed;
 * the CJK substring searches narrowed by {@code content_grams} (GIN) before the exact test. The
 * operators keep FTS5's precedence (NOT, then AND and juxtaposition, then OR), which is tsquery's
 * ({@code !}, {@code &}, {@code |}), so a query finds the same messages on both engines; ranking is
 * {@code ts_rank}'s divided by the log of the message's length (normalization 1), so that, as with
 * bm25, of two messages with one occurrence each the shorter comes first.
 *
 * <p>Today's agent's trigram search (every word a substring of at least 3 characters, letters of any
 * case, of the indexed text: content, tool name, tool calls) is the same test here, on the grams index's
 * candidates; its order (shorter texts first) and snippet (the first word marked in a 40-character
 * window) resemble FTS5's without being its bm25 and snippet.
 */
final class PostgresMessageSearch extends PagedMessageSearch {

    private static final Param<String> EXPRESSION = DSL.param("expression", String.class);
    private static final Param<String> TERMS = DSL.param("terms", String.class);
    private static final Param<String> SNIPPET_TEXT = DSL.param("snippet_text", String.class);
    private static final Param<String> GRAMS_TEXT = DSL.param("grams_text", String.class);
    private static final Param<String> LIKE_PATTERN = DSL.param("like_pattern", String.class);
    private static final Param<String> GROUPS = DSL.param("groups", String.class);
    private static final Param<String> NARROWING = DSL.param("narrowing", String.class);
    private static final Param<String> FIRST_WORD = DSL.param("first_word", String.class);
    private static final Param<String> LIKE_PATTERNS = DSL.param("like_patterns", String.class);

    private static final Field<Object> QUERY = DSL.field(DSL.name("search", "q"), SQLDataType.OTHER);
    private static final Field<Object> CONTENT_TSV = DSL.field(DSL.name("messages", "content_tsv"), SQLDataType.OTHER);
    private static final Field<Object> CONTENT_GRAMS = DSL.field(DSL.name("messages", "content_grams"), SQLDataType.OTHER);
    private static final Field<Object> SEARCH_GROUPS = DSL.field(DSL.name("search", "groups"), SQLDataType.OTHER);
    private static final Field<Object> SEARCH_GRAMS = DSL.field(DSL.name("search", "grams"), SQLDataType.OTHER);
    private static final Field<Object> SEARCH_PATTERNS = DSL.field(DSL.name("search", "patterns"), SQLDataType.OTHER);
    private static final Field<String> SEARCH_FIRST_WORD = DSL.field(DSL.name("search", "first_word"), String.class);

    /** FTS5's snippet(..., '>>>', '<<<', '...', 40): one fragment of up to 40 words around the matches. */
    private static final String HEADLINE_OPTIONS =
            "StartSel=>>>, StopSel=<<<, MaxWords=40, MinWords=15, MaxFragments=1, FragmentDelimiter=...";
    /** The characters of the trigram snippet's window, about FTS5's 40 tokens of one character each. */
    private static final int TRIGRAM_WINDOW = 40;
    /** The first version whose grams index covers the tool name and tool calls too. */
    private static final int GRAMS_OF_INDEXED_TEXT = 11;

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

    /** The snippet of today's agent is cut from the text the index holds: content, tool name, tool calls. */
    @Override
    protected Table<?> matchPage(List<Condition> filters, SearchQuery.Order order, boolean v17) {
        // OFFSET 0 keeps the query a subquery of its own, computed once: pulled up into the join, the
        // function (which tokenizes every term) would run for every message the scan looks at
        Table<?> search = DSL.select(DSL.field("messages_search_query({0}, {1})", SQLDataType.OTHER, EXPRESSION, TERMS)
                .as("q")).offset(DSL.inline(0)).asTable("search");
        Field<String> snippet = DSL.field("pg_catalog.ts_headline('pg_catalog.simple', {0}, {1}, {2})", String.class,
                v17 ? indexedText() : MESSAGES.CONTENT, QUERY, DSL.inline(HEADLINE_OPTIONS));
        Field<Double> rank = DSL.field("(-pg_catalog.ts_rank({0}, {1}, 1))::double precision", Double.class,
                CONTENT_TSV, QUERY);
        return DSL.select(pageColumns(snippet, v17, rank.as(RANK)))
                .from(search)
                .crossJoin(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(DSL.condition("{0} @@ {1}", CONTENT_TSV, QUERY))
                .and(DSL.and(filters))
                .orderBy(pageOrder(order, DSL.field(DSL.name("rank"))))
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** The page's order: [timestamp,] rank, id. */
    private static List<org.jooq.SortField<?>> pageOrder(SearchQuery.Order order, Field<?> rank) {
        List<org.jooq.SortField<?>> sort = new ArrayList<>(3);
        if (order == SearchQuery.Order.NEWEST) {
            sort.add(MESSAGES.TIMESTAMP.desc());
        } else if (order == SearchQuery.Order.OLDEST) {
            sort.add(MESSAGES.TIMESTAMP.asc());
        }
        sort.add(rank.asc());
        sort.add(MESSAGES.ID.asc());
        return sort;
    }

    /**
     * Hermes' substring fallback: the messages holding every CJK character and pair of the text
     * (the grams index), then SQLite's LIKE exactly (ASCII letters case-insensitive), newest first;
     * the snippet is 120 characters from 40 before the first (exact-case) occurrence.
     */
    @Override
    protected Table<?> containsPage(List<Condition> filters) {
        return DSL.select(pageColumns(likeSnippet(SNIPPET_TEXT), false))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(DSL.condition("{0} @> messages_cjk_grams({1})", CONTENT_GRAMS, GRAMS_TEXT))
                .and(PostgresBackend.lowerAscii(MESSAGES.CONTENT).like(LIKE_PATTERN, '\\'))
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    private static Field<String> likeSnippet(Param<String> text) {
        return DSL.field("pg_catalog.substr({0}, greatest(1, pg_catalog.strpos({0}, {1}) - 40), 120)",
                String.class, MESSAGES.CONTENT, text);
    }

    /** The grams index exists on every PostgreSQL store (version 6 on). */
    @Override
    protected boolean hasTrigramIndex(StoreSchema schema) {
        return true;
    }

    @Override
    protected List<Param<?>> trigramParameters() {
        return List.of(GROUPS, NARROWING, FIRST_WORD);
    }

    /**
     * The groups as JSON ([[[word, negated], ...], ...]), the grams that narrow the candidates (null:
     * none can), and the word the snippet marks.
     */
    @Override
    protected List<Object> trigramValues(TrigramExpression expression) {
        List<Object> groups = new ArrayList<>();
        List<String> narrowing = new ArrayList<>();
        boolean narrows = true;
        String firstWord = null;
        for (List<TrigramExpression.Word> group : expression.groups()) {
            List<Object> words = new ArrayList<>();
            String gram = null;
            boolean live = true;
            for (TrigramExpression.Word word : group) {
                words.add(List.of(word.text(), word.negated()));
                if (!word.negated()) {
                    live &= word.text().codePointCount(0, word.text().length()) >= 3;
                    if (gram == null) {
                        gram = gram(word.text());
                    }
                    if (firstWord == null) {
                        firstWord = word.text();
                    }
                }
            }
            groups.add(words);
            if (live) {
                if (gram == null) {
                    narrows = false;
                } else {
                    narrowing.add(gram);
                }
            }
        }
        return List.of(Objects.requireNonNull(JsonColumns.encode(groups, "trigram groups")),
                narrows ? Objects.requireNonNull(JsonColumns.text(narrowing)) : "null",
                firstWord == null ? "" : firstWord);
    }

    /**
     * The trigram test on the candidates: some group with each positive word (at least 3 characters)
     * a substring of the lower-cased indexed text and no negated one.
     */
    @Override
    protected Table<?> trigramPage(List<Condition> filters, SearchQuery.Order order, StoreSchema schema) {
        Table<?> search = DSL.select(DSL.field("CAST({0} AS jsonb)", SQLDataType.OTHER, GROUPS).as("groups"),
                        grams(NARROWING).as("grams"), FIRST_WORD.as("first_word"))
                .offset(DSL.inline(0)).asTable("search");
        Field<String> text = indexedText();
        Condition matches = DSL.condition("EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements({0}) AS grp(g)"
                        + " WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(grp.g) AS w(t)"
                        + " WHERE (pg_catalog.char_length(w.t OPERATOR(pg_catalog.->>) 0) >= 3"
                        + " AND pg_catalog.strpos(pg_catalog.lower({1}), pg_catalog.lower(w.t OPERATOR(pg_catalog.->>) 0)) > 0)"
                        + " = (w.t OPERATOR(pg_catalog.->>) 1)::boolean))",
                SEARCH_GROUPS, text);
        Field<Double> rank = DSL.field("pg_catalog.char_length({0})::double precision", Double.class, text);
        return DSL.select(pageColumns(trigramSnippet(text), true, rank.as(RANK)))
                .from(search)
                .crossJoin(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(narrowed(schema))
                .and(matches)
                .and(DSL.and(filters))
                .orderBy(pageOrder(order, DSL.field(DSL.name("rank"))))
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** The first word marked with >>> and <<< in a window of about 40 characters of the indexed text. */
    private static Field<String> trigramSnippet(Field<String> text) {
        return DSL.field("(SELECT CASE WHEN f.at = 0 THEN pg_catalog.substr(f.t, 1, " + TRIGRAM_WINDOW + ")"
                        + " ELSE CASE WHEN f.at > 11 THEN '...' ELSE '' END"
                        + " || pg_catalog.substr(f.t, greatest(1, f.at - 10), f.at - greatest(1, f.at - 10))"
                        + " || '>>>' || pg_catalog.substr(f.t, f.at, f.n) || '<<<'"
                        + " || pg_catalog.substr(f.t, f.at + f.n, greatest(0, " + TRIGRAM_WINDOW + " - 10 - f.n))"
                        + " || CASE WHEN f.at + f.n + greatest(0, " + TRIGRAM_WINDOW + " - 10 - f.n) <= pg_catalog.char_length(f.t)"
                        + " THEN '...' ELSE '' END END"
                        + " FROM (SELECT {0} AS t, pg_catalog.strpos(pg_catalog.lower({0}), pg_catalog.lower({1})) AS at,"
                        + " pg_catalog.char_length({1}) AS n) AS f)",
                String.class, text, SEARCH_FIRST_WORD);
    }

    @Override
    protected List<Param<?>> containsAnyParameters() {
        return List.of(FIRST_WORD, LIKE_PATTERNS, NARROWING);
    }

    /** The first word (the snippet's), the words' LIKE patterns (ASCII lower-cased), the narrowing grams. */
    @Override
    protected List<Object> containsAnyValues(List<String> words) {
        List<String> patterns = new ArrayList<>(words.size());
        List<String> narrowing = new ArrayList<>(words.size());
        boolean narrows = true;
        for (String word : words) {
            patterns.add(PostgresBackend.asciiLower(likePattern(word)));
            String gram = gram(word);
            if (gram == null) {
                narrows = false;
            } else {
                narrowing.add(gram);
            }
        }
        return List.of(words.get(0), Objects.requireNonNull(JsonColumns.text(patterns)),
                narrows ? Objects.requireNonNull(JsonColumns.text(narrowing)) : "null");
    }

    /** Today's substring search: any word in the content, tool name or tool calls (SQLite's LIKE), newest first. */
    @Override
    protected Table<?> containsAnyPage(List<Condition> filters, StoreSchema schema) {
        Table<?> search = DSL.select(DSL.field("CAST({0} AS jsonb)", SQLDataType.OTHER, LIKE_PATTERNS).as("patterns"),
                        grams(NARROWING).as("grams"))
                .offset(DSL.inline(0)).asTable("search");
        Field<String> pattern = DSL.field(DSL.name("p", "v"), String.class);
        Condition anyWord = DSL.exists(DSL.selectOne()
                .from(DSL.table("pg_catalog.jsonb_array_elements_text({0})", SEARCH_PATTERNS).as("p", "v"))
                // SQLite's LIKE stops at the NUL of its marker: structured content never matches there
                .where(PostgresBackend.lowerAscii(MESSAGES.CONTENT).like(pattern, '\\')
                        .and(PostgresBackend.structuredContent(MESSAGES.CONTENT).not())
                        .or(PostgresBackend.lowerAscii(MESSAGES.TOOL_NAME).like(pattern, '\\'))
                        .or(PostgresBackend.lowerAscii(toolCallsText()).like(pattern, '\\'))));
        Field<String> snippet = DSL.field("pg_catalog.substr({0}, greatest(1, pg_catalog.strpos({0}, {1}) - 40), 120)",
                String.class, MESSAGES.CONTENT, FIRST_WORD);
        return DSL.select(pageColumns(snippet, true))
                .from(search)
                .crossJoin(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(narrowed(schema))
                .and(anyWord)
                .and(DSL.and(filters))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.asc())
                .limit(LIMIT).offset(OFFSET)
                .asTable("page");
    }

    /** The JSON array of grams bound to {@code narrowing} as text[] (null: no narrowing). */
    private static Field<Object> grams(Param<String> narrowing) {
        return DSL.field("(SELECT CASE WHEN pg_catalog.jsonb_typeof(j.a) = 'array'"
                + " THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(j.a)) END FROM (SELECT CAST({0} AS jsonb) AS a) AS j)",
                SQLDataType.OTHER, narrowing);
    }

    /**
     * The candidates: messages holding one of the narrowing grams (the GIN index), when there are such
     * grams and the index covers the whole indexed text (version 11 on).
     */
    private static Condition narrowed(StoreSchema schema) {
        if (schema.version() < GRAMS_OF_INDEXED_TEXT) {
            return DSL.noCondition();
        }
        return DSL.condition("({0} IS NULL OR {1} OPERATOR(pg_catalog.&&) {0})", SEARCH_GRAMS, CONTENT_GRAMS);
    }

    /**
     * A gram every text holding {@code word} holds: its first pair of adjacent CJK characters, else its
     * first CJK character (Hermes' ranges, as the grams index); null for a word without CJK.
     */
    static @Nullable String gram(String word) {
        int previous = -1;
        String first = null;
        for (int i = 0; i < word.length(); ) {
            int codePoint = word.codePointAt(i);
            boolean cjk = isCjk(codePoint);
            if (cjk && previous >= 0) {
                return new StringBuilder().appendCodePoint(previous).appendCodePoint(codePoint).toString();
            }
            if (cjk && first == null) {
                first = new String(Character.toChars(codePoint));
            }
            previous = cjk ? codePoint : -1;
            i += Character.charCount(codePoint);
        }
        return first;
    }

    /** Hermes' CJK ranges (the grams index's). */
    private static boolean isCjk(int c) {
        return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
                || (c >= 0x3000 && c <= 0x303F) || (c >= 0x3040 && c <= 0x309F) || (c >= 0x30A0 && c <= 0x30FF)
                || (c >= 0xAC00 && c <= 0xD7AF);
    }

    @Override
    protected Condition isStructured(Field<String> content) {
        return PostgresBackend.structuredContent(content);
    }

    @Override
    protected Condition inList(Field<String> column, Param<String> list) {
        return DSL.condition("{0} IN (SELECT pg_catalog.jsonb_array_elements_text(CAST({1} AS jsonb)))", column, list);
    }
}
