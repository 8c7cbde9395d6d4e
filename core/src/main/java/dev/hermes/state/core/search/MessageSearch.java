package dev.hermes.state.core.search;

import dev.hermes.state.core.connection.Transaction;

import java.util.List;

/**
 * Full-text search over the messages ({@code search_messages}, SPEC section 4 "Search"). This is the
 * seam between the store and the database's search dialect: {@link #sqlite()} holds every FTS5 and
 * SQLite-specific fragment; a PostgreSQL backend would implement this interface with its own.
 *
 * <p>Semantics, whatever the backend: a null or blank query finds nothing; hits ordered by relevance,
 * paged by limit/offset; {@code sourceFilter} null = any source, empty = none; {@code excludeSources}
 * and {@code roleFilter} null or empty = no filter; each hit carries a highlighted snippet and its
 * context (the previous message of the same session, the hit, the next one, by timestamp then id,
 * each cut to {@link #CONTEXT_LENGTH} code points). No query text ever makes a search fail.
 */
public interface MessageSearch {

    /** Longest content of a context message, in code points (Python's {@code str[:200]}). */
    int CONTEXT_LENGTH = 200;

    /** The search of a SQLite state.db: FTS5 MATCH ranked by bm25, and Hermes' LIKE fallback for CJK. */
    static MessageSearch sqlite() {
        return SqliteMessageSearch.INSTANCE;
    }

    /**
     * Runs {@code query} in {@code reader}, a read transaction (a read-only connection is enough), whose
     * connection keeps the search's statements prepared. Database failures come out as
     * {@link dev.hermes.state.HermesStateException} subtypes; the query text never causes one.
     */
    List<SearchHit> search(Transaction reader, SearchQuery query);
}
