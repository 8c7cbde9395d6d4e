package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.migrations.Migrator;

import java.util.List;

/**
 * The RPC methods that find sessions and messages: lineage, the rich listing, counts, the plain
 * listings, full-text search.
 */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
final class ListingMethods {
    private ListingMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- lineage
        methods.add("get_compression_tip", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getCompressionTip(id);
        });
        methods.add("resolve_resume_session_id", List.of("session_id"), p -> {
            String id = p.string("session_id");
            // the agent hands an empty id (None, "") back unchanged
            return store -> id == null || id.isEmpty() ? id : store.get().resolveResumeSessionId(id);
        });
        methods.add("get_lineage_ancestors", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().getAncestors(id));
        });
        methods.add("get_lineage_tree", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().getLineageTree(id));
        });

        // ---- listing, counts and search
        methods.add("list_sessions_rich", List.of("source", "exclude_sources", "cwd_prefix", "limit", "offset",
                "include_children", "min_message_count", "project_compression_tips", "order_by_last_active",
                "include_archived", "archived_only", "id_query", "search_query"), p -> {
            boolean byActivity = p.bool("order_by_last_active", false);
            ListSessionsQuery query = ListSessionsQuery.builder()
                    .source(p.string("source"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .cwdPrefix(p.string("cwd_prefix"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .includeChildren(p.bool("include_children", false))
                    .minMessageCount(p.count("min_message_count", 0))
                    .projectCompressionTips(p.bool("project_compression_tips", true))
                    .orderByLastActive(byActivity)
                    .includeArchived(p.bool("include_archived", false))
                    .archivedOnly(p.bool("archived_only", false))
                    // the agent matches them only when ordering by activity, and ignores them otherwise
                    .idQuery(byActivity ? p.string("id_query") : null)
                    .searchQuery(byActivity ? p.string("search_query") : null)
                    .build();
            return store -> HermesShapes.richRows(store.get().listSessionsRich(query));
        });
        methods.add("session_count", List.of("source", "cwd_prefix", "min_message_count", "include_archived",
                "archived_only", "exclude_children", "exclude_sources"), p -> {
            SessionCountQuery query = SessionCountQuery.builder()
                    .source(p.string("source"))
                    .cwdPrefix(p.string("cwd_prefix"))
                    .minMessageCount(p.count("min_message_count", 0))
                    .includeArchived(p.bool("include_archived", false))
                    .archivedOnly(p.bool("archived_only", false))
                    .excludeChildren(p.bool("exclude_children", false))
                    .excludeSources(p.stringList("exclude_sources"))
                    .build();
            return store -> store.get().sessionCount(query);
        });
        methods.add("search_sessions", List.of("source", "limit", "offset"), p -> {
            String source = p.string("source");
            int limit = p.count("limit", 20);
            int offset = p.count("offset", 0);
            // today's agent adds last_active and orders by it; version 6 gave the rows alone, newest start first
            return store -> store.get().rulesVersion() >= Migrator.LATEST_VERSION
                    ? HermesShapes.activeSessions(store.get().getSessionsByLastActive(new SearchSessionsQuery(source, limit, offset)))
                    : HermesShapes.sessions(store.get().searchSessions(new SearchSessionsQuery(source, limit, offset)));
        });
        methods.add("search_sessions_by_id", List.of("query", "limit", "include_archived"), p -> {
            String query = p.string("query");
            int limit = p.count("limit", 20);
            boolean includeArchived = p.bool("include_archived", true);
            return store -> query == null || limit <= 0 ? List.of()
                    : HermesShapes.richRows(store.get().searchSessionsById(query, limit, includeArchived));
        });
        methods.add("distinct_session_cwds", List.of("include_archived"), p -> {
            boolean includeArchived = p.bool("include_archived", false);
            return store -> HermesShapes.sessionCwds(store.get().distinctSessionCwds(includeArchived));
        });
        methods.add("search_messages", List.of("query", "source_filter", "exclude_sources", "role_filter", "limit",
                "offset", "sort", "include_inactive"), p -> {
            SearchQuery query = SearchQuery.builder(p.requiredString("query"))
                    .sourceFilter(p.stringList("source_filter"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .roleFilter(p.stringList("role_filter"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .order(SearchQuery.Order.ofHermes(p.json("sort")))
                    .includeInactive(p.bool("include_inactive", false))
                    .build();
            return store -> HermesShapes.hits(store.get().searchMessages(query));
        });
    }
}
