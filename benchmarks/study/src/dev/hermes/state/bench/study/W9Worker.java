package dev.hermes.state.bench.study;

import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.WriterPlan;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteFile;
import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConnection;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * W9's worker as the benchmark's WriterProcess (same plan, same READY/GO protocol), with what the study
 * needs to see where appends wait: each append's start (System.nanoTime, CLOCK_MONOTONIC, comparable
 * across processes) and duration, the JIT compile time, GC time and process CPU time spent between GO
 * and the end. Writer kinds (system property study.writer):
 * <ul>
 *   <li>store (default): StateRepository.appendMessage, as the benchmark;
 *   <li>raw-timeout: hand-written JDBC (BEGIN IMMEDIATE, counter update, insert, COMMIT, a PASSIVE checkpoint
 *       every 50 commits) waiting with SQLite's own busy handler (busy_timeout = 1 s), whole-transaction retry
 *       on BUSY with Hermes' 20-150 ms back-off: what the Python agent does;
 *   <li>raw-polling: the same with the store's polling busy handler (0.1-1 ms sleeps, 1 s limit).
 * </ul>
 * study.warmup=N: N untimed appends to a scratch session before READY (a diagnostic, not allowed in W9).
 * Prints "RESULT ok errors elapsedNs compileMs gcMs cpuMs" and then one line "A startNs durationNs" per append.
 */
public final class W9Worker {
    public static void main(String[] args) throws Exception {
        int worker = Integer.parseInt(args[0]);
        Path db = Path.of(args[1]);
        String kind = System.getProperty("study.writer", "store");
        int warmup = Integer.getInteger("study.warmup", 0);
        WriterPlan plan = WriterPlan.build(worker, new ZipfSampler(Vocabulary.build()));
        Writer writer = switch (kind) {
            case "store" -> new StoreWriter(db);
            case "raw-timeout" -> new RawWriter(db, false);
            case "raw-polling" -> new RawWriter(db, true);
            default -> throw new IllegalArgumentException(kind);
        };
        for (int k = 0; k < plan.sessionIds().size(); k++) {
            writer.createSession(plan.sessionIds().get(k), plan.sources().get(k));
        }
        if (warmup > 0) {
            String scratch = "w9warm-" + worker;
            writer.createSession(scratch, "cli");
            for (int i = 0; i < warmup; i++) {
                writer.append(scratch, plan.appends().get(i % plan.appends().size()).message());
            }
        }
        System.out.println("READY");
        System.out.flush();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"GO".equals(stdin.readLine())) {
            System.exit(4);
        }
        int n = plan.appends().size();
        long[] starts = new long[n];
        long[] durations = new long[n];
        int ok = 0;
        int errors = 0;
        long compileBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        long gcBefore = gcMillis();
        long cpuBefore = cpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            WriterPlan.Append append = plan.appends().get(i);
            long before = System.nanoTime();
            try {
                writer.append(append.sessionId(), append.message());
                ok++;
            } catch (RuntimeException | SQLException failure) {
                errors++;
                System.err.println(failure);
            }
            starts[i] = before;
            durations[i] = System.nanoTime() - before;
        }
        long elapsed = System.nanoTime() - start;
        long compile = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - compileBefore;
        long gc = gcMillis() - gcBefore;
        long cpu = cpuNanos() - cpuBefore;
        writer.close();
        StringBuilder out = new StringBuilder();
        out.append("RESULT ").append(ok).append(' ').append(errors).append(' ').append(elapsed).append(' ')
                .append(compile).append(' ').append(gc).append(' ').append(cpu / 1_000_000).append('\n');
        for (int i = 0; i < n; i++) {
            out.append("A ").append(starts[i]).append(' ').append(durations[i]).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    interface Writer extends AutoCloseable {
        void createSession(String id, String source) throws Exception;

        void append(String sessionId, NewMessage message) throws SQLException;

        @Override
        void close() throws Exception;
    }

    static final class StoreWriter implements Writer {
        private final StateRepository store;

        StoreWriter(Path db) {
            store = StateRepository.open(db);
        }

        public void createSession(String id, String source) {
            store.createSession(NewSession.builder(id, source).model(Workload.MODEL).build());
        }

        public void append(String sessionId, NewMessage message) {
            store.appendMessage(sessionId, message);
        }

        public void close() {
            store.close();
        }
    }

    /** Hermes' write discipline by hand on one connection. */
    static final class RawWriter implements Writer {
        private final Connection connection;
        private final PreparedStatement begin;
        private final PreparedStatement commit;
        private final PreparedStatement rollback;
        private final PreparedStatement insertSession;
        private final PreparedStatement bump;
        private final PreparedStatement insert;
        private final PreparedStatement checkpoint;
        private int commits;

        RawWriter(Path db, boolean polling) throws SQLException {
            connection = SqliteFile.open(db, RetryPolicy.HERMES, false);
            if (polling) {
                BusyHandler.setHandler(connection.unwrap(SQLiteConnection.class), new Polling(Duration.ofSeconds(1)));
            }
            try (Statement s = connection.createStatement()) {
                s.executeQuery("PRAGMA journal_mode=WAL").close();
            }
            begin = connection.prepareStatement("BEGIN IMMEDIATE");
            commit = connection.prepareStatement("COMMIT");
            rollback = connection.prepareStatement("ROLLBACK");
            insertSession = connection.prepareStatement("INSERT OR IGNORE INTO sessions (id, source, model, started_at) VALUES (?, ?, ?, ?)");
            bump = connection.prepareStatement("UPDATE sessions SET message_count = coalesce(message_count, 0) + 1, "
                    + "tool_call_count = coalesce(tool_call_count, 0) + ? WHERE id = ?");
            insert = connection.prepareStatement("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, "
                    + "tool_name, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id");
            checkpoint = connection.prepareStatement("PRAGMA wal_checkpoint(PASSIVE)");
        }

        public void createSession(String id, String source) throws SQLException {
            transaction(() -> {
                insertSession.setString(1, id);
                insertSession.setString(2, source);
                insertSession.setString(3, Workload.MODEL);
                insertSession.setDouble(4, System.currentTimeMillis() / 1000.0);
                insertSession.executeUpdate();
            });
        }

        public void append(String sessionId, NewMessage message) throws SQLException {
            String toolCalls = message.toolCalls() == null ? null
                    : "[{\"id\": \"x\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\": \"{}\"}}]";
            transaction(() -> {
                bump.setInt(1, toolCalls == null || "tool".equals(message.role()) ? 0 : 1);
                bump.setString(2, sessionId);
                bump.executeUpdate();
                insert.setString(1, sessionId);
                insert.setString(2, message.role());
                insert.setString(3, message.text());
                insert.setString(4, message.toolCallId());
                insert.setString(5, toolCalls);
                insert.setString(6, message.toolName());
                insert.setDouble(7, System.currentTimeMillis() / 1000.0);
                try (ResultSet id = insert.executeQuery()) {
                    id.next();
                }
            });
        }

        interface Body {
            void run() throws SQLException;
        }

        private void transaction(Body body) throws SQLException {
            for (int attempt = 1; ; attempt++) {
                try {
                    begin.execute();
                    try {
                        body.run();
                        commit.execute();
                    } catch (SQLException | RuntimeException e) {
                        try {
                            rollback.execute();
                        } catch (SQLException ignored) {
                            // no transaction
                        }
                        throw e;
                    }
                    if (++commits % 50 == 0) {
                        try (ResultSet ignored = checkpoint.executeQuery()) {
                            // housekeeping
                        } catch (SQLException ignored) {
                            // busy checkpoint: the next one catches up
                        }
                    }
                    return;
                } catch (SQLException failure) {
                    if (attempt >= 15 || !SqliteErrors.FAILURES.isRetryable(failure)) {
                        throw failure;
                    }
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000_000, 150_000_001));
                }
            }
        }

        public void close() throws SQLException {
            connection.close();
        }
    }

    /** The store's PollingBusyHandler, re-typed here (it is package-private in core). */
    static final class Polling extends BusyHandler {
        private final long timeoutNanos;
        private long waitStarted;

        Polling(Duration timeout) {
            timeoutNanos = timeout.toNanos();
        }

        @Override
        protected int callback(int previousCalls) {
            long now = System.nanoTime();
            if (previousCalls == 0) {
                waitStarted = now;
            }
            if (now - waitStarted >= timeoutNanos) {
                return 0;
            }
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 1_000_000));
            return 1;
        }
    }

}
