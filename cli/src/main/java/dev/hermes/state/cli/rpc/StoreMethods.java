package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The RPC methods on the store as a whole: export, delete, prune, vacuum, and close. */
final class StoreMethods {
    private StoreMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- export, delete, prune
        methods.add("export_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().exportSession(id).map(export -> HermesShapes.export(export, MessageMethods.v17(store.get())))
                    .orElse(null);
        });
        methods.add("export_all", List.of("source"), p -> {
            String source = p.string("source");
            return store -> {
                // Hermes returns one list; a response is one JSON line, so it is built in memory here.
                // The streaming export is the command line's `sessions export`.
                List<Map<String, Object>> exports = new ArrayList<>();
                boolean v17 = MessageMethods.v17(store.get());
                store.get().exportAll(source, export -> exports.add(HermesShapes.export(export, v17)));
                return exports;
            };
        });
        methods.add("delete_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().deleteSession(id);
        });
        methods.add("prune_sessions", List.of("older_than_days", "source"), p -> {
            double days = p.number("older_than_days", 90);
            String source = p.string("source");
            return store -> store.get().pruneSessions(days, source);
        });
        methods.add("vacuum", List.of(), p -> store -> store.get().vacuum());  // extension: bytes reclaimed
        // close: the server closes the store after answering and ends the session
        methods.add(RpcServer.CLOSE, List.of(), p -> store -> null);
    }
}
