package dev.hermes.state.core;

import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.migrations.Migrator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Latency of the session writes (createSession, ensureSession, endSession) against raw JDBC doing
 * Hermes' statements on the same kind of file in the same run: each call its own
 * {@code BEGIN IMMEDIATE} ... {@code COMMIT}, and, on the raw side too, Hermes' PASSIVE checkpoint
 * every 50 commits. Store and raw calls alternate one by one so machine noise hits both alike.
 * Not a test: run it by hand (see the report).
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.SessionWriteBenchmark [calls] [rounds]</pre>
 */
public final class SessionWriteBenchmark {
    private static final String RAW_CREATE = "INSERT OR IGNORE INTO sessions (id, source, user_id, model, model_config,"
            + " system_prompt, parent_session_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String RAW_ENSURE = "INSERT OR IGNORE INTO sessions (id, source, model, started_at) VALUES (?, ?, ?, ?)";
    private static final String RAW_END = "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL";

    private SessionWriteBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path work = Files.createTempDirectory("session-write-bench");
        Path template = work.resolve("template.db");
        Migrator.create().toVersion(StateRepository.DEFAULT_SCHEMA_VERSION).migrate(template);
        System.out.printf("%d calls per operation and side, %d rounds (the first is warm-up), p50/p99 in ms%n", calls, rounds);
        for (int round = 0; round < rounds; round++) {
            Path ours = copy(template, work, "ours");
            Path raw = copy(template, work, "raw");
            try (StateRepository store = StateRepository.open(ours); RawSessions hermes = new RawSessions(raw)) {
                Map<String, long[][]> samples = new LinkedHashMap<>();
                samples.put("createSession (new id, parent)", time(calls,
                        i -> store.createSession(NewSession.builder("s" + i, "cli").model("bench/model-a")
                                .parentSessionId(i == 0 ? null : "s" + (i - 1)).build()),
                        i -> hermes.create("s" + i, "cli", "bench/model-a", i == 0 ? null : "s" + (i - 1))));
                samples.put("createSession (existing id)", time(calls,
                        i -> store.createSession(NewSession.builder("s" + i, "telegram").build()),
                        i -> hermes.create("s" + i, "telegram", null, null)));
                samples.put("ensureSession (new id)", time(calls,
                        i -> store.ensureSession("e" + i, "cli", "bench/model-a"),
                        i -> hermes.ensure("e" + i, "cli", "bench/model-a")));
                samples.put("endSession", time(calls,
                        i -> store.endSession("s" + i, "compression"),
                        i -> hermes.end("s" + i, "compression")));
                if (round == 0) {
                    continue;
                }
                System.out.printf("round %d%n", round);
                samples.forEach((name, times) -> System.out.printf("  %-32s ours p50 %.3f p99 %.3f | raw p50 %.3f p99 %.3f | ours/raw p50 %.2f%n",
                        name, percentile(times[0], 50), percentile(times[0], 99), percentile(times[1], 50),
                        percentile(times[1], 99), percentile(times[0], 50) / percentile(times[1], 50)));
            }
        }
    }

    @FunctionalInterface
    private interface Call {
        void run(int i) throws Exception;
    }

    /** Nanoseconds of each call, [0] ours and [1] raw, the two sides taking turns to go first. */
    private static long[][] time(int calls, Call ours, Call raw) throws Exception {
        long[][] times = new long[2][calls];
        for (int i = 0; i < calls; i++) {
            for (int turn = 0; turn < 2; turn++) {
                int side = (i + turn) % 2;
                long start = System.nanoTime();
                (side == 0 ? ours : raw).run(i);
                times[side][i] = System.nanoTime() - start;
            }
        }
        return times;
    }

    private static double percentile(long[] nanos, int percent) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)] / 1e6;
    }

    /** Hermes' session statements on a plain connection, prepared once. */
    private static final class RawSessions implements AutoCloseable {
        private final Connection connection;
        private final PreparedStatement begin;
        private final PreparedStatement commit;
        private final PreparedStatement create;
        private final PreparedStatement ensure;
        private final PreparedStatement end;
        private int commits;

        RawSessions(Path file) throws SQLException {
            connection = DriverManager.getConnection("jdbc:sqlite:" + file);
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA foreign_keys = ON");
                statement.execute("PRAGMA synchronous = NORMAL");
                statement.execute("PRAGMA busy_timeout = 1000");
                statement.execute("PRAGMA journal_mode = WAL");
            }
            begin = connection.prepareStatement("BEGIN IMMEDIATE");
            commit = connection.prepareStatement("COMMIT");
            create = connection.prepareStatement(RAW_CREATE);
            ensure = connection.prepareStatement(RAW_ENSURE);
            end = connection.prepareStatement(RAW_END);
        }

        void create(String id, String source, String model, String parent) throws SQLException {
            begin.execute();
            create.setString(1, id);
            create.setString(2, source);
            create.setString(3, null);
            create.setString(4, model);
            create.setString(5, null);
            create.setString(6, null);
            create.setString(7, parent);
            create.setDouble(8, System.currentTimeMillis() / 1000.0);
            create.executeUpdate();
            commit();
        }

        void ensure(String id, String source, String model) throws SQLException {
            begin.execute();
            ensure.setString(1, id);
            ensure.setString(2, source);
            ensure.setString(3, model);
            ensure.setDouble(4, System.currentTimeMillis() / 1000.0);
            ensure.executeUpdate();
            commit();
        }

        void end(String id, String reason) throws SQLException {
            begin.execute();
            end.setDouble(1, System.currentTimeMillis() / 1000.0);
            end.setString(2, reason);
            end.setString(3, id);
            end.executeUpdate();
            commit();
        }

        private void commit() throws SQLException {
            commit.execute();
            if (++commits % 50 == 0) {
                try (Statement statement = connection.createStatement()) {
                    statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)").close();
                }
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }

    private static Path copy(Path template, Path work, String name) throws Exception {
        Path target = work.resolve(name + ".db");
        for (String suffix : new String[]{"", "-wal", "-shm"}) {
            Files.deleteIfExists(Path.of(target + suffix));
        }
        Files.copy(template, target);
        return target;
    }
}
