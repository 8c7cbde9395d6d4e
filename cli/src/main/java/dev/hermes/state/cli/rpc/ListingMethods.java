package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.SearchQuery;

import java.util.List;

/** The RPC methods that find sessions and messages: lineage, the rich listing, full-text search. */
final class ListingMethods {
    private ListingMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- lineage
        methods.add("get_compression_tip", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().compressionTip(id);
        });
        methods.add("get_lineage_ancestors", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().ancestors(id));
        });
        methods.add("get_lineage_tree", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().lineageTree(id));
        });

        // ---- listing and search
        methods.add("list_sessions_rich", List.of("source", "exclude_sources", "limit", "offset", "include_children",
                "project_compression_tips"), p -> {
            ListSessionsQuery query = ListSessionsQuery.builder()
                    .source(p.string("source"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .includeChildren(p.bool("include_children", false))
                    .projectCompressionTips(p.bool("project_compression_tips", true))
                    .build();
            return store -> HermesShapes.richRows(store.get().listSessionsRich(query));
        });
        methods.add("search_messages", List.of("query", "source_filter", "exclude_sources", "role_filter", "limit",
                "offset"), p -> {
            SearchQuery query = SearchQuery.builder(p.requiredString("query"))
                    .sourceFilter(p.stringList("source_filter"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .roleFilter(p.stringList("role_filter"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .build();
            return store -> HermesShapes.hits(store.get().searchMessages(query));
        });

    }
}
