package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.WriterPlan;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.engine.RunDatabases;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W9 — four concurrent writers: four worker JVMs prepare, report READY, get GO at the same moment and
 * append 2,000 messages each to the same store (file or schema) ({@link WriterRound}). Then a fresh plain
 * connection checks that the counters agree with the rows and that the full-text index is intact.
 */
public final class W9Concurrency {
    public static final int WORKERS = 4;
    public static final long SLOW_NANOS = 100_000_000L;
    public static final long VERY_SLOW_NANOS = 1_000_000_000L;

    public record Result(int messagesOk, long wallNanos, Map<String, Integer> errors, Latencies appends,
                         List<Double> workerElapsedS, boolean countsEqual, boolean ftsIntegrityOk,
                         long w9MessagesInFile, long expectedMessages) {
        public double msgsPerS() {
            return messagesOk / (wallNanos / 1e9);
        }

        public boolean nothingLost() {
            return w9MessagesInFile == expectedMessages && messagesOk == expectedMessages;
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("messages_ok", messagesOk);
            json.put("wall_s", Report.round(wallNanos / 1e9));
            json.put("msgs_per_s", Report.round(msgsPerS()));
            json.put("errors", errors);
            json.put("append_max_ms", Report.round(appends.maxMs()));
            json.put("appends_over_100ms", appends.countOver(SLOW_NANOS));
            json.put("appends_over_1s", appends.countOver(VERY_SLOW_NANOS));
            json.put("check_counts_equal", countsEqual);
            json.put("fts_integrity_ok", ftsIntegrityOk);
            return json;
        }

        public Map<String, Object> detailsJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("append_p50_ms", Report.round(appends.p50Ms()));
            json.put("append_p99_ms", Report.round(appends.p99Ms()));
            json.put("worker_elapsed_s", workerElapsedS.stream().map(Report::round).toList());
            json.put("w9_messages_in_file", w9MessagesInFile);
            return json;
        }
    }

    private W9Concurrency() {
    }

    public static Result run(RunDatabases databases, Path scratch) throws Exception {
        WriterRound round = WriterRound.run(databases.target(RunDatabases.MAIN), WORKERS, WriterPlan.W9_PREFIX, scratch);
        return verify(databases, round.messagesOk(), round.wallNanos(), round.errors(), round.appends(), round.workerElapsedS(),
                round.expectedMessages());
    }

    private static Result verify(RunDatabases databases, int ok, long wall, Map<String, Integer> errors, Latencies appends,
                                 List<Double> elapsed, long expected) throws SQLException {
        try (Connection plain = databases.plainConnection(RunDatabases.MAIN, false);
             Statement statement = plain.createStatement()) {
            boolean countsEqual = W7Prune.count(statement, "SELECT SUM(message_count) FROM sessions")
                    == W7Prune.count(statement, "SELECT COUNT(*) FROM messages");
            long w9Messages = W7Prune.count(statement, "SELECT COUNT(*) FROM messages WHERE session_id LIKE 'w9-%'");
            boolean ftsOk = databases.searchIndexIntact(plain);
            return new Result(ok, wall, errors, appends, elapsed, countsEqual, ftsOk, w9Messages, expected);
        }
    }
}
