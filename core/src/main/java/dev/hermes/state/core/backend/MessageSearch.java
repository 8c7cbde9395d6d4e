package dev.hermes.state.core.backend;

import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;

import java.sql.SQLException;
import java.util.List;

/**
 * Full-text search over the messages ({@code search_messages}, docs/behaviour.md#search), in an
 * engine's search dialect; {@link Backend#messageSearch()} hands out the engine's implementation.
 * The Hermes rules that do not depend on the engine (query parsing, the CJK fallback, context
 * length) are in {@code dev.hermes.state.core.backend}.
 *
 * <p>Semantics, whatever the backend: a null or blank query finds nothing; hits ordered by relevance,
 * paged by limit/offset; {@code sourceFilter} null = any source, empty = none; {@code excludeSources}
 * and {@code roleFilter} null or empty = no filter; each hit carries a highlighted snippet and its
 * context (the previous message of the same session, the hit, the next one, by timestamp then id,
 * each cut to 200 code points). No query text ever makes a search fail.
 */
public interface MessageSearch {

    /**
     * Runs {@code query} in {@code reader}, a read transaction (a read-only connection is enough), whose
     * connection keeps the search's statements prepared. Only a failing database throws; the store
     * turns that into the API's typed exception.
     */
    List<SearchHit> search(Transaction reader, SearchQuery query) throws SQLException;
}
