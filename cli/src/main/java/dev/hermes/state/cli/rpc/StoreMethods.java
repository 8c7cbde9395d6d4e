package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.AutoMaintenanceReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The RPC methods on the store as a whole: export, delete, prune, maintenance, and close. */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
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
        methods.add("delete_session", List.of("session_id", "sessions_dir"), p -> {
            String id = p.requiredString("session_id");
            Path folder = p.path("sessions_dir");
            return store -> store.get().deleteSession(id, folder);
        });
        methods.add("delete_sessions", List.of("session_ids", "sessions_dir"), p -> {
            List<String> ids = p.stringsOf("session_ids");
            Path folder = p.path("sessions_dir");
            return store -> ids.stream().allMatch(String::isEmpty) ? 0 : store.get().deleteSessions(ids, folder);
        });
        methods.add("delete_session_if_empty", List.of("session_id", "sessions_dir"), p -> {
            String id = p.requiredString("session_id");
            Path folder = p.path("sessions_dir");
            return store -> store.get().deleteSessionIfEmpty(id, folder);
        });
        methods.add("count_empty_sessions", List.of(), p -> store -> store.get().countEmptySessions());
        methods.add("delete_empty_sessions", List.of("sessions_dir"), p -> {
            Path folder = p.path("sessions_dir");
            return store -> store.get().deleteEmptySessions(folder);
        });
        methods.add("prune_sessions", List.of("older_than_days", "source", "sessions_dir"), p -> {
            double days = p.number("older_than_days", 90);
            String source = p.string("source");
            Path folder = p.path("sessions_dir");
            return store -> store.get().pruneSessions(AgentDurations.days(days, "older-than days"), source, folder).count();
        });
        methods.add("prune_empty_ghost_sessions", List.of("sessions_dir"), p -> {
            Path folder = p.path("sessions_dir");
            return store -> store.get().pruneEmptyGhostSessions(folder);
        });
        methods.add("finalize_orphaned_compression_sessions", List.of(),
                p -> store -> store.get().finalizeOrphanedCompressionSessions());
        methods.add("maybe_auto_prune_and_vacuum", List.of("retention_days", "min_interval_hours", "vacuum",
                "sessions_dir"), p -> {
            double days = p.number("retention_days", 90);
            double hours = p.number("min_interval_hours", 24);
            boolean vacuum = p.bool("vacuum", true);
            Path folder = p.path("sessions_dir");
            return store -> autoMaintenance(store.get().maybeAutoPruneAndVacuum(AgentDurations.days(days, "retention days"),
                    AgentDurations.hours(hours, "minimum interval hours"), vacuum, folder));
        });

        // ---- maintenance
        methods.add("optimize_fts", List.of(), p -> store -> store.get().optimizeFts());
        // schema 17: the agent's answer, the full-text indexes merged; a store kept at 6 answers as
        // before, with the bytes reclaimed (hermes-state's extension of that time)
        methods.add("vacuum", List.of(), p -> store -> {
            StateRepository repository = store.get();
            boolean v17 = repository.rulesVersion() >= 17;
            var report = repository.vacuum();
            return v17 ? report.fullTextIndexesOptimized() : report.bytesReclaimed();
        });
        // close: the server closes the store after answering and ends the session
        methods.add(RpcServer.CLOSE, List.of(), p -> store -> null);
    }

    /** The agent's dict: skipped, pruned, vacuumed, and error only when something failed. */
    private static Map<String, Object> autoMaintenance(AutoMaintenanceReport report) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("skipped", report.skipped());
        row.put("pruned", report.pruned());
        row.put("vacuumed", report.vacuumed());
        if (report.error() != null) {
            row.put("error", report.error());
        }
        return row;
    }
}
