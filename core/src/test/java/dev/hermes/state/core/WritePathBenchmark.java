package dev.hermes.state.core;

import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.migrations.Migrator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * appendMessage / appendMessages throughput against raw JDBC doing the same statements on the same
 * kind of file in the same run (not a test: run it by hand, see the report). Each round runs every
 * variant once on a fresh copy of a migrated file; the variants alternate so machine noise hits all
 * of them alike; the median round is reported.
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.WritePathBenchmark [sessions] [messagesPerSession] [rounds]</pre>
 */
public final class WritePathBenchmark {
    private static final String TOOL_CALLS_JSON =
            "[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"terminal\",\"arguments\":\"{\\\"cmd\\\": \\\"ls\\\"}\"}}]";
    private static final Object TOOL_CALLS = List.of(Map.of("id", "call_1", "type", "function",
            "function", Map.of("name", "terminal", "arguments", "{\"cmd\": \"ls\"}")));

    private WritePathBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int perSession = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path work = Files.createTempDirectory("write-path-bench");
        Path template = work.resolve("template.db");
        Migrator.create().toVersion(StateRepository.DEFAULT_SCHEMA_VERSION).migrate(template);
        List<String> contents = contents(sessions * perSession);
        System.out.printf("%d sessions x %d messages = %d appends per variant, %d rounds, SQLite WAL + synchronous=NORMAL%n",
                sessions, perSession, sessions * perSession, rounds);

        String[] names = {"raw appendMessage", "appendMessage", "raw batch", "appendMessages"};
        double[][] rates = new double[names.length][rounds];
        for (int round = 0; round < rounds; round++) {
            rates[0][round] = rawSingle(copy(template, work, "raw1"), sessions, perSession, contents);
            rates[1][round] = oursSingle(copy(template, work, "ours1"), sessions, perSession, contents);
            rates[2][round] = rawBatch(copy(template, work, "raw2"), sessions, perSession, contents);
            rates[3][round] = oursBatch(copy(template, work, "ours2"), sessions, perSession, contents);
            System.out.printf("round %d: raw single %.0f/s, ours single %.0f/s (%.2f), raw batch %.0f/s, ours batch %.0f/s (%.2f)%n",
                    round + 1, rates[0][round], rates[1][round], rates[1][round] / rates[0][round],
                    rates[2][round], rates[3][round], rates[3][round] / rates[2][round]);
        }
        double[] ratioSingle = new double[rounds];
        double[] ratioBatch = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            ratioSingle[round] = rates[1][round] / rates[0][round];
            ratioBatch[round] = rates[3][round] / rates[2][round];
        }
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-18s median %8.0f messages/s%n", names[i], median(rates[i]));
        }
        System.out.printf("appendMessage / raw: median of per-round ratios %.2f%n", median(ratioSingle));
        System.out.printf("appendMessages / raw batch: median of per-round ratios %.2f%n", median(ratioBatch));
    }

    private static double oursSingle(Path file, int sessions, int perSession, List<String> contents) {
        try (StateRepository store = StateRepository.open(file)) {
            for (int s = 0; s < sessions; s++) {
                store.createSession("bench-" + s, "cli");
            }
            long start = System.nanoTime();
            int n = 0;
            for (int m = 0; m < perSession; m++) {
                for (int s = 0; s < sessions; s++) {
                    NewMessage.Builder message = NewMessage.builder(m % 2 == 0 ? "user" : "assistant").content(contents.get(n++));
                    if (m % 10 == 9) {
                        message.toolCalls(TOOL_CALLS);
                    }
                    store.appendMessage("bench-" + s, message.build());
                }
            }
            return n / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static double oursBatch(Path file, int sessions, int perSession, List<String> contents) {
        try (StateRepository store = StateRepository.open(file)) {
            for (int s = 0; s < sessions; s++) {
                store.createSession("bench-" + s, "cli");
            }
            long start = System.nanoTime();
            int n = 0;
            for (int s = 0; s < sessions; s++) {
                List<NewMessage> batch = new ArrayList<>(perSession);
                for (int m = 0; m < perSession; m++) {
                    NewMessage.Builder message = NewMessage.builder(m % 2 == 0 ? "user" : "assistant").content(contents.get(n++));
                    if (m % 10 == 9) {
                        message.toolCalls(TOOL_CALLS);
                    }
                    batch.add(message.build());
                }
                store.appendMessages("bench-" + s, batch);
            }
            return n / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static final String INSERT = "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name,"
            + " timestamp, token_count, finish_reason, reasoning, reasoning_details, codex_reasoning_items)"
            + " VALUES (?, ?, ?, NULL, ?, NULL, ?, NULL, NULL, NULL, NULL, NULL)";
    private static final String BUMP = "UPDATE sessions SET message_count = message_count + ?, tool_call_count = tool_call_count + ? WHERE id = ?";

    private static double rawSingle(Path file, int sessions, int perSession, List<String> contents) throws SQLException {
        try (Connection connection = raw(file);
             PreparedStatement begin = connection.prepareStatement("BEGIN IMMEDIATE");
             PreparedStatement commit = connection.prepareStatement("COMMIT");
             PreparedStatement insert = connection.prepareStatement(INSERT + " RETURNING id");
             PreparedStatement bump = connection.prepareStatement(BUMP)) {
            createSessions(connection, sessions);
            long start = System.nanoTime();
            int n = 0;
            long ids = 0;
            for (int m = 0; m < perSession; m++) {
                for (int s = 0; s < sessions; s++) {
                    begin.execute();
                    bump.setLong(1, 1);
                    bump.setLong(2, m % 10 == 9 ? 1 : 0);
                    bump.setString(3, "bench-" + s);
                    bump.executeUpdate();
                    bindInsert(insert, "bench-" + s, m, contents.get(n++));
                    try (ResultSet id = insert.executeQuery()) {
                        id.next();
                        ids += id.getLong(1);
                    }
                    commit.execute();
                }
            }
            return n / ((System.nanoTime() - start) / 1e9) + (ids < 0 ? 1 : 0);
        }
    }

    private static double rawBatch(Path file, int sessions, int perSession, List<String> contents) throws SQLException {
        try (Connection connection = raw(file);
             PreparedStatement begin = connection.prepareStatement("BEGIN IMMEDIATE");
             PreparedStatement commit = connection.prepareStatement("COMMIT");
             PreparedStatement insert = connection.prepareStatement(INSERT);
             PreparedStatement bump = connection.prepareStatement(BUMP)) {
            createSessions(connection, sessions);
            long start = System.nanoTime();
            int n = 0;
            for (int s = 0; s < sessions; s++) {
                begin.execute();
                bump.setLong(1, perSession);
                bump.setLong(2, perSession / 10);
                bump.setString(3, "bench-" + s);
                bump.executeUpdate();
                for (int m = 0; m < perSession; m++) {
                    bindInsert(insert, "bench-" + s, m, contents.get(n++));
                    insert.addBatch();
                }
                insert.executeBatch();
                commit.execute();
            }
            return n / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static void bindInsert(PreparedStatement insert, String session, int m, String content) throws SQLException {
        insert.setString(1, session);
        insert.setString(2, m % 2 == 0 ? "user" : "assistant");
        insert.setString(3, content);
        if (m % 10 == 9) {
            insert.setString(4, TOOL_CALLS_JSON);
        } else {
            insert.setNull(4, Types.VARCHAR);
        }
        insert.setDouble(5, System.currentTimeMillis() / 1000.0);
    }

    private static Connection raw(Path file) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA foreign_keys = ON");
            statement.execute("PRAGMA synchronous = NORMAL");
            statement.execute("PRAGMA busy_timeout = 1000");
        }
        return connection;
    }

    private static void createSessions(Connection connection, int sessions) throws SQLException {
        try (PreparedStatement create = connection.prepareStatement("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)")) {
            for (int s = 0; s < sessions; s++) {
                create.setString(1, "bench-" + s);
                create.setDouble(2, System.currentTimeMillis() / 1000.0);
                create.executeUpdate();
            }
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

    /** Message texts of 40 pseudo-words (~280 characters), like the benchmark's. */
    private static List<String> contents(int count) {
        Random random = new Random(42);
        String[] words = new String[2000];
        for (int i = 0; i < words.length; i++) {
            StringBuilder word = new StringBuilder();
            for (int letters = 3 + random.nextInt(7); letters > 0; letters--) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words[i] = word.toString();
        }
        List<String> contents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < 40; w++) {
                if (w > 0) {
                    text.append(' ');
                }
                text.append(words[(int) Math.min(words.length - 1, Math.abs(random.nextGaussian()) * 300)]);
            }
            contents.add(text.toString());
        }
        return contents;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
