package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.engine.RunDatabases;
import dev.hermes.state.core.StateRepository;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * W7 — prune: end every even W1 session, age them by 200 days on a separate plain connection (the same
 * statement on both engines), then
 * one timed prune_sessions(90). Also reports the WAL size and the free pages the prune left, which is
 * what the W7 target is about.
 */
public final class W7Prune {
    public static final Duration OLDER_THAN = Duration.ofDays(90);
    private static final String AGE = "UPDATE sessions SET started_at = started_at - 17280000 WHERE end_reason = 'cli_close'";

    public record Result(int ended, long endNanos, int aged, int pruned, long pruneNanos, long messagesBefore,
                         long messagesAfter, long dbBytes, long walBytes, long freeBytes) {
        public double endSessionPerS() {
            return ended / (endNanos / 1e9);
        }

        public long messagesDeleted() {
            return messagesBefore - messagesAfter;
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("end_session_per_s", Report.round(endSessionPerS()));
            json.put("pruned", pruned);
            json.put("prune_s", Report.round(pruneNanos / 1e9));
            json.put("messages_deleted", messagesDeleted());
            Map<String, Object> size = new LinkedHashMap<>();
            size.put("db_bytes", dbBytes);
            size.put("wal_bytes", walBytes);
            json.put("size_after", size);
            return json;
        }

        public Map<String, Object> detailsJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("aged_rows", aged);
            json.put("free_bytes_after_prune", freeBytes);
            json.put("messages_before", messagesBefore);
            json.put("messages_after", messagesAfter);
            return json;
        }
    }

    private W7Prune() {
    }

    public static Result run(StateRepository store, RunDatabases databases, int sessions) throws SQLException {
        int ended = 0;
        long start = System.nanoTime();
        for (int i = 0; i + 1 < sessions; i += 2) {
            store.endSession(Workload.benchSessionId(i), "cli_close");
            ended++;
        }
        long endNanos = System.nanoTime() - start;
        int aged;
        long before;
        try (Connection plain = databases.plainConnection(RunDatabases.MAIN, false);
             Statement statement = plain.createStatement()) {
            aged = statement.executeUpdate(AGE);
            before = count(statement, "SELECT count(*) FROM messages");
        }
        long pruneStart = System.nanoTime();
        int pruned = store.pruneSessions(OLDER_THAN, null).count();
        long pruneNanos = System.nanoTime() - pruneStart;
        try (Connection plain = databases.plainConnection(RunDatabases.MAIN, true);
             Statement statement = plain.createStatement()) {
            long after = count(statement, "SELECT count(*) FROM messages");
            return new Result(ended, endNanos, aged, pruned, pruneNanos, before, after,
                    databases.dbBytes(RunDatabases.MAIN), databases.walBytes(RunDatabases.MAIN), databases.freeBytes(plain));
        }
    }

    static long count(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
