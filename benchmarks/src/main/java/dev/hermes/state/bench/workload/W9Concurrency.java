package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.WriterPlan;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.process.Child;
import dev.hermes.state.bench.process.JavaProcess;
import dev.hermes.state.bench.process.WriterProcess;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * W9 — four concurrent writers: four worker JVMs (see {@link WriterProcess}) prepare, report READY,
 * get GO at the same moment and append 2,000 messages each to the same file. Then a fresh plain
 * connection checks that the counters agree with the rows and that the full-text index is intact.
 */
public final class W9Concurrency {
    public static final int WORKERS = 4;
    public static final long SLOW_NANOS = 100_000_000L;
    public static final long VERY_SLOW_NANOS = 1_000_000_000L;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

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

    public static Result run(Path db, Path scratch) throws Exception {
        List<Child> workers = new ArrayList<>(WORKERS);
        try {
            for (int w = 0; w < WORKERS; w++) {
                workers.add(Child.start(JavaProcess.command(JavaProcess.userOptions(false), WriterProcess.class,
                        String.valueOf(w), db.toString()), scratch.resolve("w9-worker-" + w + ".err")));
            }
            for (Child worker : workers) {
                worker.awaitLine(WriterProcess.READY, TIMEOUT);
            }
            long t0 = System.nanoTime();
            for (Child worker : workers) {
                worker.send(WriterProcess.GO);
            }
            long t1 = t0;
            int ok = 0;
            Map<String, Integer> errors = new TreeMap<>();
            Latencies appends = new Latencies(WORKERS * WriterPlan.SESSIONS * WriterPlan.MESSAGES_PER_SESSION);
            List<Double> elapsed = new ArrayList<>();
            for (Child worker : workers) {
                Child.Line line = worker.awaitLine(WriterProcess.RESULT, TIMEOUT);
                t1 = Math.max(t1, line.receivedNanos());
                Map<String, Object> report = W6Export.readMap(line.text().substring(WriterProcess.RESULT.length()));
                ok += ((Number) report.get("ok")).intValue();
                ((Map<?, ?>) report.get("errors")).forEach((kind, n) ->
                        errors.merge(String.valueOf(kind), ((Number) n).intValue(), Integer::sum));
                for (Object nanos : (List<?>) report.get("latencies_ns")) {
                    appends.add(((Number) nanos).longValue());
                }
                elapsed.add(((Number) report.get("elapsed_ns")).longValue() / 1e9);
            }
            for (Child worker : workers) {
                int code = worker.waitFor(TIMEOUT);
                if (code != 0) {
                    errors.merge("worker exit code " + code, 1, Integer::sum);
                }
            }
            long expected = (long) WORKERS * WriterPlan.SESSIONS * WriterPlan.MESSAGES_PER_SESSION;
            return verify(db, ok, t1 - t0, errors, appends, elapsed, expected);
        } finally {
            workers.forEach(Child::close);
        }
    }

    private static Result verify(Path db, int ok, long wall, Map<String, Integer> errors, Latencies appends,
                                 List<Double> elapsed, long expected) throws SQLException {
        try (Connection plain = SqliteFile.open(db, RetryPolicy.HERMES, false);
             Statement statement = plain.createStatement()) {
            boolean countsEqual = W7Prune.count(statement, "SELECT SUM(message_count) FROM sessions")
                    == W7Prune.count(statement, "SELECT COUNT(*) FROM messages");
            long w9Messages = W7Prune.count(statement, "SELECT COUNT(*) FROM messages WHERE session_id LIKE 'w9-%'");
            boolean ftsOk;
            try {
                statement.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')");
                ftsOk = true;
            } catch (SQLException corrupt) {
                ftsOk = false;
            }
            return new Result(ok, wall, errors, appends, elapsed, countsEqual, ftsOk, w9Messages, expected);
        }
    }
}
