package dev.hermes.state.core.search;

import dev.hermes.state.core.search.SearchHit.ContextMessage;
import dev.hermes.state.db.tables.Messages;
import dev.hermes.state.sqlite.SqliteErrors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.MESSAGES_FTS;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * {@link MessageSearch} on a SQLite state.db. One statement per search: the page of hits (FTS5 MATCH,
 * ordered by {@code rank}, limit/offset) as a derived table, joined to each hit's previous and next
 * message of the same session, found through {@code idx_messages_session} for the page's rows only.
 * When the query holds CJK text and FTS5 finds nothing, the same statement runs with Hermes' LIKE
 * fallback as the page instead (newest first).
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

    private static Condition ftsMatches(String expression) {
        return DSL.condition("{0} MATCH {1}", MESSAGES_FTS, DSL.val(expression));
    }

    /**
     * Hermes' CJK snippet: 120 characters starting 40 before the first exact (case-sensitive) occurrence;
     * from the start when the match is within the first 40 characters or only matched LIKE's ASCII
     * case folding (instr = 0).
     */
    private static Field<String> likeSnippet(String text) {
        return DSL.field("substr({0}, max(1, instr({0}, {1}) - 40), 120)", String.class, MESSAGES.CONTENT, DSL.val(text));
    }

    /** {@code content LIKE '%text%'} with the text's own %, _ and \ matching literally. */
    private static Condition likeContains(String text) {
        String escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return MESSAGES.CONTENT.like("%" + escaped + "%", LIKE_ESCAPE);
    }

    // ---- the page and its context ----

    private static final Messages PREVIOUS = MESSAGES.as("previous_message");
    private static final Messages NEXT = MESSAGES.as("next_message");
    private static final Messages NEIGHBOUR = MESSAGES.as("neighbour");
    private static final String PAGE = "page";
    private static final Field<String> SNIPPET = DSL.field(DSL.name("snippet"), String.class);
    private static final Field<String> HIT_CONTENT = DSL.field(DSL.name("hit_content"), String.class);
    private static final Field<Double> RANK = DSL.field(DSL.name("rank"), Double.class);

    private SqliteMessageSearch() {
    }

    @Override
    public List<SearchHit> search(DSLContext reader, SearchQuery query) {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(query, "query");
        String text = query.query();
        if (text == null || isBlank(text) || query.limit() == 0) {
            return List.of();
        }
        try {
            Optional<String> expression = Fts5Query.toMatchExpression(text);
            List<SearchHit> hits = expression.isPresent() ? ftsSearch(reader, expression.get(), query) : List.of();
            if (hits.isEmpty() && Cjk.containsCjk(text)) {
                String literal = withoutSurroundingQuotes(text);
                return literal.isEmpty() ? List.of() : likeSearch(reader, literal, query);
            }
            return hits;
        } catch (DataAccessException failure) {
            throw SqliteErrors.translate(failure, "searching messages");
        }
    }

    private static List<SearchHit> ftsSearch(DSLContext reader, String expression, SearchQuery query) {
        List<Field<?>> fields = new ArrayList<>(pageFields(FTS_SNIPPET));
        fields.add(FTS_RANK.as(RANK));
        Table<?> page = reader.select(fields)
                .from(MESSAGES_FTS)
                .join(MESSAGES).on(MESSAGES.ID.eq(FTS_ROWID))
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(filters(query, ftsMatches(expression)))
                .orderBy(FTS_RANK)
                .limit(query.limit()).offset(query.offset())
                .asTable(PAGE);
        // FTS5 breaks rank ties arbitrarily; the id makes the page's own order deterministic
        return fetchWithContext(reader, page, page.field(RANK).asc(), page.field(MESSAGES.ID).asc());
    }

    private static List<SearchHit> likeSearch(DSLContext reader, String literal, SearchQuery query) {
        Table<?> page = reader.select(pageFields(likeSnippet(literal)))
                .from(MESSAGES)
                .join(SESSIONS).on(SESSIONS.ID.eq(MESSAGES.SESSION_ID))
                .where(filters(query, likeContains(literal)))
                .orderBy(MESSAGES.TIMESTAMP.desc(), MESSAGES.ID.desc())
                .limit(query.limit()).offset(query.offset())
                .asTable(PAGE);
        return fetchWithContext(reader, page, page.field(MESSAGES.TIMESTAMP).desc(), page.field(MESSAGES.ID).desc());
    }

    private static List<Field<?>> pageFields(Field<String> snippet) {
        return List.of(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, snippet.as(SNIPPET),
                contextCut(MESSAGES.CONTENT).as(HIT_CONTENT), MESSAGES.TIMESTAMP, MESSAGES.TOOL_NAME,
                SESSIONS.SOURCE, SESSIONS.MODEL, SESSIONS.STARTED_AT);
    }

    /** Hermes' filters: an empty source list matches nothing; empty excludes and roles filter nothing. */
    private static List<Condition> filters(SearchQuery query, Condition match) {
        List<Condition> conditions = new ArrayList<>(4);
        conditions.add(match);
        if (query.sourceFilter() != null) {
            conditions.add(SESSIONS.SOURCE.in(query.sourceFilter()));
        }
        if (query.excludeSources() != null && !query.excludeSources().isEmpty()) {
            conditions.add(SESSIONS.SOURCE.notIn(query.excludeSources()));
        }
        if (query.roleFilter() != null && !query.roleFilter().isEmpty()) {
            conditions.add(MESSAGES.ROLE.in(query.roleFilter()));
        }
        return conditions;
    }

    private static List<SearchHit> fetchWithContext(DSLContext reader, Table<?> page, SortField<?>... pageOrder) {
        Field<Long> id = page.field(MESSAGES.ID);
        Field<String> sessionId = page.field(MESSAGES.SESSION_ID);
        Field<String> role = page.field(MESSAGES.ROLE);
        Field<String> snippet = page.field(SNIPPET);
        Field<String> hitContent = page.field(HIT_CONTENT);
        Field<Instant> timestamp = page.field(MESSAGES.TIMESTAMP);
        Field<String> toolName = page.field(MESSAGES.TOOL_NAME);
        Field<String> source = page.field(SESSIONS.SOURCE);
        Field<String> model = page.field(SESSIONS.MODEL);
        Field<Instant> sessionStarted = page.field(SESSIONS.STARTED_AT);
        Field<String> previousRole = PREVIOUS.ROLE.as("previous_role");
        Field<String> previousContent = contextCut(PREVIOUS.CONTENT).as("previous_content");
        Field<String> nextRole = NEXT.ROLE.as("next_role");
        Field<String> nextContent = contextCut(NEXT.CONTENT).as("next_content");
        return reader.select(id, sessionId, role, snippet, hitContent, timestamp, toolName, source, model, sessionStarted,
                        previousRole, previousContent, nextRole, nextContent)
                .from(page)
                .leftJoin(PREVIOUS).on(PREVIOUS.ID.eq(neighbour(page, false)))
                .leftJoin(NEXT).on(NEXT.ID.eq(neighbour(page, true)))
                .orderBy(pageOrder)
                .fetch(row -> {
                    // a message's role is NOT NULL, so a null role means there is no such neighbour
                    List<ContextMessage> context = new ArrayList<>(3);
                    if (row.get(previousRole) != null) {
                        context.add(new ContextMessage(row.get(previousRole), orEmpty(row.get(previousContent))));
                    }
                    context.add(new ContextMessage(row.get(role), orEmpty(row.get(hitContent))));
                    if (row.get(nextRole) != null) {
                        context.add(new ContextMessage(row.get(nextRole), orEmpty(row.get(nextContent))));
                    }
                    return new SearchHit(row.get(id), row.get(sessionId), row.get(role), row.get(snippet),
                            row.get(timestamp), row.get(toolName), row.get(source), row.get(model),
                            row.get(sessionStarted), context);
                });
    }

    /**
     * The id of the message just before (or after) a page row in its session, by (timestamp, id): one
     * seek in idx_messages_session (session_id, timestamp, rowid).
     */
    private static Select<Record1<Long>> neighbour(Table<?> page, boolean following) {
        Field<Instant> timestamp = page.field(MESSAGES.TIMESTAMP);
        Field<Long> id = page.field(MESSAGES.ID);
        Condition sameSession = NEIGHBOUR.SESSION_ID.eq(page.field(MESSAGES.SESSION_ID));
        Condition beyond = following
                ? NEIGHBOUR.TIMESTAMP.ge(timestamp).and(NEIGHBOUR.TIMESTAMP.gt(timestamp).or(NEIGHBOUR.ID.gt(id)))
                : NEIGHBOUR.TIMESTAMP.le(timestamp).and(NEIGHBOUR.TIMESTAMP.lt(timestamp).or(NEIGHBOUR.ID.lt(id)));
        return DSL.select(NEIGHBOUR.ID)
                .from(NEIGHBOUR)
                .where(sameSession, beyond)
                .orderBy(following
                        ? List.of(NEIGHBOUR.TIMESTAMP.asc(), NEIGHBOUR.ID.asc())
                        : List.of(NEIGHBOUR.TIMESTAMP.desc(), NEIGHBOUR.ID.desc()))
                .limit(DSL.inline(1));
    }

    /** The first 200 characters: SQLite's substr counts code points in TEXT, as Python's slicing does. */
    private static Field<String> contextCut(Field<String> content) {
        return DSL.substring(content, DSL.inline(1), DSL.inline(CONTEXT_LENGTH));
    }

    /** Hermes writes a NULL content (assistant turns that only call tools) as "" in the context. */
    private static String orEmpty(String content) {
        return content == null ? "" : content;
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
