package dev.hermes.state.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole benchmark on the PostgreSQL server of HERMES_TEST_PG_URL at a tiny size (S=120, M=12),
 * next to the same run on SQLite: every workload completes, every correctness check passes, the data
 * checks (match counts after W1, hits per W2 query, W4-W9 counts) are the SQLite run's, the run's
 * schemas are dropped afterwards, and the password appears nowhere. Nothing here asserts a time.
 */
class BenchmarkPostgresTest {
    @RegisterExtension
    final PostgresTestSchema server = new PostgresTestSchema();

    @Test
    void tinyRunOnPostgresqlChecksLikeSqliteAndLeavesNothingBehind(@TempDir Path folder) throws Exception {
        Run sqlite = run(folder, "sqlite", Benchmark.Stores.NEW_FILE);
        CommandLines commandLines = CommandLines.watch(server.password());
        Run postgres;
        try {
            postgres = run(folder, "postgresql", new Benchmark.Stores(server.url(), server.schema(), false));
        } finally {
            commandLines.stop();
        }
        assertEquals(0, sqlite.exit, sqlite.stderr);
        assertEquals(0, postgres.exit, postgres.stderr);

        Map<?, ?> env = (Map<?, ?>) postgres.json.get("env");
        assertTrue(String.valueOf(env.get("engine")).startsWith("PostgreSQL "), env.toString());
        assertTrue(String.valueOf(((Map<?, ?>) sqlite.json.get("env")).get("engine")).startsWith("SQLite "));
        assertTrue(postgres.stdout.contains("engine: PostgreSQL "), postgres.stdout);
        // the same data found the same way on both engines
        assertEquals(sqlite.json.get("data"), postgres.json.get("data"));
        assertEquals(60, ((Map<?, ?>) ((Map<?, ?>) postgres.json.get("data")).get("match_counts_after_W1")).size());
        for (String key : List.of("results_returned")) {
            assertEquals(((Map<?, ?>) sqlite.json.get("W2_search")).get(key), ((Map<?, ?>) postgres.json.get("W2_search")).get(key));
        }
        assertEquals(List.of(), ((Map<?, ?>) ((Map<?, ?>) postgres.json.get("baseline_raw_jdbc")).get("W2_search"))
                .get("queries_with_different_hits"));
        for (String workload : List.of("W4_read", "W5_lineage")) {
            assertEquals(counts(sqlite.json.get(workload)), counts(postgres.json.get(workload)), workload);
        }
        Map<?, ?> w6 = (Map<?, ?>) postgres.json.get("W6_export");
        assertEquals(120 + 1101, w6.get("sessions"));
        assertEquals(1440 + 1101, w6.get("messages"));
        Map<?, ?> w6Details = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) postgres.json.get("targets")).get("details")).get("W6");
        assertEquals(true, w6Details.get("byte_identical_second_run"));
        assertEquals(true, w6Details.get("same_bytes_as_sqlite_copy"));
        Map<?, ?> w7 = (Map<?, ?>) postgres.json.get("W7_prune");
        assertEquals(60, w7.get("pruned"));
        assertEquals(720, w7.get("messages_deleted"));
        Map<?, ?> w9 = (Map<?, ?>) postgres.json.get("W9_concurrency");
        assertEquals(8000, w9.get("messages_ok"));
        assertEquals(Map.of(), w9.get("errors"));
        assertEquals(true, w9.get("check_counts_equal"));
        assertEquals(true, w9.get("fts_integrity_ok"));
        Map<?, ?> finalState = (Map<?, ?>) postgres.json.get("final");
        assertEquals(List.of(120 + 1101 - 60 + 40, 1440 + 1101 - 720 + 8000),
                List.of(finalState.get("sessions"), finalState.get("messages")));
        for (String workload : List.of("W1 ingest", "W1 batch", "W2 search common", "W4 read", "W6 export", "W8 cold open",
                "W9 4 writers")) {
            assertTrue(postgres.stdout.contains(workload), workload + " missing from\n" + postgres.stdout);
        }
        assertFalse(postgres.stdout.contains("PASSIVE checkpoint"), "no SQLite checkpoint baseline on PostgreSQL");

        assertEquals(List.of(), schemasStartingWith(server.schema()), "the run drops every schema it made");
        String password = server.password();
        assertFalse(password.isEmpty());
        for (String text : List.of(postgres.stdout, postgres.stderr, postgres.resultText)) {
            assertFalse(text.contains(password), "the password shows in\n" + text);
        }
        // every child that opened the store on the server (W6's export, W8's cold opens, W9's writers; the
        // command's own run in W8 needs the built jar, which this module's tests come before) was seen
        // running, and none had the password on its command line
        assertEquals(List.of(), commandLines.withPassword, "command lines that showed the password");
        for (String child : List.of("ExportProcess", "ColdOpenProcess", "WriterProcess")) {
            assertTrue(commandLines.seen.stream().anyMatch(line -> line.contains(child)),
                    child + " never seen among " + commandLines.seen.size() + " child command lines");
        }
    }

    /**
     * Reads the {@code /proc/PID/cmdline} of every process the run starts, over and over while it runs,
     * as any user of the machine can: the children that name the store, and any line that holds the
     * password.
     */
    private static final class CommandLines {
        final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> withPassword = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.Set<Long> pids = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private volatile boolean running = true;
        private final Thread thread;

        private CommandLines(String password) {
            thread = new Thread(() -> {
                while (running) {
                    // the run's own processes, at any depth: other programs on a shared machine may
                    // well name the test server's password (a psql a developer started)
                    ProcessHandle.current().descendants().forEach(process -> {
                        String line = read(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
                        if (line.contains(password)) {
                            withPassword.add(line.replace(password, "<password>"));
                        }
                        // a child's command line names the run's store by its URL
                        if (line.contains("postgresql://") && pids.add(process.pid())) {
                            seen.add(line);
                        }
                    });
                    try {
                        Thread.sleep(5); // a child JVM lives for a second at least: no need to spin
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "cmdline-watch");
            thread.setDaemon(true);
        }

        static CommandLines watch(String password) {
            CommandLines lines = new CommandLines(password);
            lines.thread.start();
            return lines;
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        private static String read(Path cmdline) {
            try {
                return new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ');
            } catch (java.io.IOException | RuntimeException gone) {
                return "";
            }
        }
    }

    @Test
    void anExistingSchemaIsRefusedAndLeftAlone(@TempDir Path folder) throws Exception {
        try (Connection connection = server.connect()) {
            connection.createStatement().execute("CREATE SCHEMA \"" + server.schema() + "\"");
            connection.createStatement().execute("CREATE TABLE \"" + server.schema() + "\".users (id int)");
        }
        Run refused = run(folder, "existing", new Benchmark.Stores(server.url(), server.schema(), false));
        assertEquals(2, refused.exit, refused.stderr);
        assertTrue(refused.stderr.contains("Schema " + server.schema() + " already exists"), refused.stderr);
        assertFalse(refused.stderr.contains(server.password()), refused.stderr);
        assertEquals(List.of(server.schema()), schemasStartingWith(server.schema()));
    }

    private record Run(int exit, String stdout, String stderr, Map<?, ?> json, String resultText) {
    }

    private static Run run(Path folder, String name, Benchmark.Stores stores) throws Exception {
        Path result = folder.resolve("results").resolve(name + ".json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Benchmark.run(folder.resolve("work-" + name), stores, 120, 12, result,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new Benchmark.Extent(1_001, 1));
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        String text = Files.exists(result) ? Files.readString(result) : "";
        Map<?, ?> json = text.isEmpty() ? Map.of() : new ObjectMapper().readValue(text, Map.class);
        return new Run(exit, stdout, stderr, json, text);
    }

    /** The figures of a workload's section that are counts (whole numbers and ids), not times. */
    private static Object counts(Object section) {
        if (section instanceof Map<?, ?> map) {
            Map<Object, Object> kept = new java.util.TreeMap<>();
            map.forEach((key, value) -> {
                String name = String.valueOf(key);
                if (!name.endsWith("_ms") && !name.endsWith("_s") && !name.contains("per_s")) {
                    kept.put(name, counts(value));
                }
            });
            return kept;
        }
        return section instanceof Double ? null : section;
    }

    private List<String> schemasStartingWith(String prefix) throws Exception {
        List<String> schemas = new ArrayList<>();
        try (Connection connection = server.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT nspname FROM pg_catalog.pg_namespace WHERE starts_with(nspname, ?) ORDER BY nspname")) {
            query.setString(1, prefix);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    schemas.add(rows.getString(1));
                }
            }
        }
        return schemas;
    }
}
