package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sqlite.SQLiteDataSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several stores on one file in one JVM (upstream Hermes lost writes when other handles on the live
 * database were opened and closed: POSIX locks are per process, and closing any descriptor of a file
 * drops them all). While store A holds a write transaction, a second store is opened, used and
 * closed beside it, by the same path or by another name for the file; another process (Python's
 * sqlite3, the agent's library) must still be refused the write lock, and A's write must be there.
 */
class SameFileStoresTest {
    private static final long SECONDS = Long.getLong("hermes.reliability.sameFileSeconds", 20);
    /** BEGIN IMMEDIATE without waiting: prints "refused: <reason>" or "acquired". */
    private static final String LOCK_PROBE = String.join("\n",
            "import sqlite3, sys",
            "c = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)",
            "try:",
            "    c.execute('BEGIN IMMEDIATE')",
            "except sqlite3.OperationalError as e:",
            "    print('refused: %s' % e)",
            "    sys.exit(0)",
            "c.execute('ROLLBACK')",
            "print('acquired')");

    @TempDir
    Path dir;

    /** How the second store (or the application's own handle) reaches the file, and what it does with it. */
    enum SecondOpen {
        READ_ONLY, READ_WRITE, READ_ONLY_BY_SYMLINK, READ_WRITE_BY_SYMLINK, READ_ONLY_BY_HARD_LINK, READ_WRITE_BY_HARD_LINK,
        /** The application's own sqlite-jdbc connection, not through this library. */
        APPLICATION_CONNECTION,
        /** A store built on the application's DataSource. */
        APPLICATION_DATA_SOURCE,
        /** What the CLI's status and migrate commands do: the migrator's inspection, status and fast path. */
        MIGRATOR;

        void openUseAndClose(Path db, Path symlink, Path hardLink) throws Exception {
            switch (this) {
                case READ_ONLY -> useAndClose(StateRepository.openReadOnly(db));
                case READ_WRITE -> useAndClose(StateRepository.open(db));
                case READ_ONLY_BY_SYMLINK -> useAndClose(StateRepository.openReadOnly(symlink));
                case READ_WRITE_BY_SYMLINK -> useAndClose(StateRepository.open(symlink));
                case READ_ONLY_BY_HARD_LINK -> useAndClose(StateRepository.openReadOnly(hardLink));
                case READ_WRITE_BY_HARD_LINK -> useAndClose(StateRepository.open(hardLink));
                case APPLICATION_CONNECTION -> {
                    try (Connection connection = SqliteFiles.readOnly(db); Statement statement = connection.createStatement()) {
                        statement.executeQuery("SELECT count(*) FROM sessions").close();
                    }
                }
                case APPLICATION_DATA_SOURCE -> {
                    SQLiteDataSource dataSource = new SQLiteDataSource();
                    dataSource.setUrl("jdbc:sqlite:" + db);
                    useAndClose(StateRepository.builder().dataSource(dataSource).build());
                }
                case MIGRATOR -> {
                    Migrator migrator = Migrator.create();
                    assertEquals(StateRepository.DEFAULT_SCHEMA_VERSION, migrator.checkReadable(db));
                    assertTrue(migrator.status(hardLink).upToDate());
                    assertTrue(migrator.migrate(symlink).fastPath());
                }
            }
        }

        private static void useAndClose(StateRepository store) {
            try (store) {
                assertTrue(store.getSession("first").isPresent());
                assertEquals(5, store.messageCount("first"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SecondOpen.class)
    void aSecondHandleOpenedAndClosedBesideAHeldWriteTransactionLeavesItsLocksAlone(SecondOpen second) throws Exception {
        requirePython();
        Path db = Files.createDirectory(dir.resolve("store")).resolve("state.db");
        Path others = Files.createDirectory(dir.resolve("others"));
        Path symlink = others.resolve("symlink.db");
        Path hardLink = others.resolve("hard-link.db");
        List<String> probes = new ArrayList<>();
        try (StateRepository a = StateRepository.open(db)) {
            Files.createSymbolicLink(symlink, db);
            Files.createLink(hardLink, db);
            a.createSession("first", "cli");
            for (int i = 0; i < 5; i++) {
                a.appendMessage("first", NewMessage.builder("user").content("message " + i).build());
            }
            assertTrue(Files.size(Path.of(db + "-wal")) > 32, "the log holds frames: the foreign-log check looks at it");

            a.inWriteTransaction(dsl -> {
                dsl.execute("INSERT INTO sessions (id, source, started_at) VALUES ('held', 'cli', 1)");
                try {
                    second.openUseAndClose(db, symlink, hardLink);
                    probes.add(lockProbe(db));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return null;
            });
        }
        assertEquals(List.of("refused: database is locked"), probes,
                "another process must not get the write lock while store A holds it (" + second + ")");
        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertEquals("ok", StoreFiles.integrityCheck(connection));
            assertEquals(1, count(connection, "SELECT count(*) FROM sessions WHERE id = 'held'"), "A's committed write is in the file");
        }
        assertFalse(Files.exists(Path.of(hardLink + "-wal")) || Files.exists(Path.of(hardLink + "-shm")),
                "the hard link was opened under the file's first name: SQLite made no second log or index");
    }

    /**
     * Two stores on other names for the file (a symbolic and a hard link) opened and closed over and
     * over, a long-lived store, read-only stores, and the agent's Python writer in another process,
     * all writing for about 20 seconds (-Dhermes.reliability.sameFileSeconds=N): no error anywhere, every
     * committed message in the file, the integrity checks pass and every counter matches its rows.
     */
    @Test
    void storesOpenedAndClosedOverAndOverBesideAPythonWriterLoseNothing() throws Exception {
        requirePython();
        Path db = Files.createDirectory(dir.resolve("store")).resolve("state.db");
        Path symlink = dir.resolve("symlink.db");
        Path hardLink = dir.resolve("hard-link.db");
        List<String> shared = List.of("same-file-shared-1", "same-file-shared-2");
        Map<Long, String> committed = new ConcurrentHashMap<>();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        Map<String, Integer> opens = new ConcurrentHashMap<>();
        try (StateRepository longLived = StateRepository.open(db)) {
            Files.createSymbolicLink(symlink, db);
            Files.createLink(hardLink, db);
            for (String id : shared) {
                longLived.createSession(id, AppendingWriterChild.SOURCE);
            }
            ChildProcess python = startPythonWriter(db, shared);
            assertTrue(python.awaitLines(1, Duration.ofSeconds(60)), "the Python writer never got ready\n" + python.transcript());

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            List<Thread> threads = List.of(
                    writer("long-lived", deadline, () -> longLived, false, committed, errors, opens),
                    writer("by-symlink", deadline, () -> StateRepository.open(symlink), true, committed, errors, opens),
                    writer("by-hard-link", deadline, () -> StateRepository.open(hardLink), true, committed, errors, opens),
                    reader(deadline, List.of(db, symlink, hardLink), errors, opens));
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(SECONDS + 120));
            }
            int exit = python.waitFor(Duration.ofSeconds(SECONDS + 120));
            WriterReport report = WriterReport.parse(python.lines());
            assertEquals(List.of(), report.errors(), "the Python writer saw errors\n" + python.transcript());
            assertEquals(0, exit, python.transcript());
            assertTrue(report.done() && report.writes() > 0, python.transcript());
            committed.putAll(report.committed());
        }
        assertEquals(List.of(), errors, "errors in the stores of this JVM");
        assertTrue(opens.getOrDefault("by-symlink", 0) > 1 && opens.getOrDefault("by-hard-link", 0) > 1
                && opens.getOrDefault("reader", 0) > 1, "the stores were opened and closed repeatedly: " + opens);
        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertEquals("ok", StoreFiles.integrityCheck(connection), "PRAGMA integrity_check");
            assertNull(StoreFiles.ftsIntegrityProblem(connection), "FTS5 integrity-check");
            assertEquals(List.of(), StoreFiles.counterMismatches(connection), "session counters vs rows");
            assertEquals(count(connection, "SELECT count(*) FROM messages"), count(connection, "SELECT sum(message_count) FROM sessions"),
                    "SUM(message_count) = COUNT(*) of messages");
            Map<Long, String> stored = StoreFiles.messageSessions(connection);
            assertEquals(List.of(), new WriterReport(new HashMap<>(committed), 0, List.of(), true, true).missingFrom(stored),
                    "messages reported committed but missing");
            assertEquals(committed.size(), stored.size(), "every stored message was committed by a writer");
        }
        assertFalse(Files.exists(Path.of(hardLink + "-wal")), "no second log under the hard link's name");
    }

    private interface StoreOpener {
        StateRepository open();
    }

    /** Appends until the deadline; a writer that {@code reopens} opens and closes its store every few writes. */
    private static Thread writer(String name, long deadline, StoreOpener opener, boolean reopens, Map<Long, String> committed,
                                 List<String> errors, Map<String, Integer> opens) {
        return new Thread(() -> {
            int op = 0;
            StateRepository store = null;
            try {
                while (System.nanoTime() < deadline) {
                    if (store == null) {
                        store = opener.open();
                        opens.merge(name, 1, Integer::sum);
                        store.ensureSession(name + "-s", AppendingWriterChild.SOURCE, null);
                    }
                    String session = op % 3 == 0 ? "same-file-shared-" + (1 + op % 2) : name + "-s";
                    long id = store.appendMessage(session, NewMessage.builder("user").content(name + " op " + op).build());
                    committed.put(id, session);
                    if (++op % 7 == 0) {
                        List<Long> ids = store.appendMessages(session, List.of(
                                NewMessage.builder("assistant").content(name + " batch " + op + " a").build(),
                                NewMessage.builder("assistant").content(name + " batch " + op + " b").build()));
                        ids.forEach(batchId -> committed.put(batchId, session));
                    }
                    if (reopens && op % 5 == 0) {
                        store.close();
                        store = null;
                    }
                }
            } catch (RuntimeException e) {
                errors.add(name + ": " + e);
            } finally {
                if (store != null && reopens) {
                    store.close();
                }
            }
        }, name);
    }

    /** Opens read-only stores by each name in turn, reads a consistent snapshot, closes. */
    private static Thread reader(long deadline, List<Path> names, List<String> errors, Map<String, Integer> opens) {
        return new Thread(() -> {
            int round = 0;
            try {
                while (System.nanoTime() < deadline) {
                    try (StateRepository store = StateRepository.openReadOnly(names.get(round++ % names.size()))) {
                        opens.merge("reader", 1, Integer::sum);
                        long sessions = store.sessionCount();
                        if (sessions < 2) {
                            errors.add("reader: saw " + sessions + " sessions");
                        }
                        store.listSessionsRich(ListSessionsQuery.defaults());
                    }
                }
            } catch (RuntimeException e) {
                errors.add("reader: " + e);
            }
        }, "reader");
    }

    private ChildProcess startPythonWriter(Path db, List<String> shared) throws IOException {
        Path script = dir.resolve("agent_writer.py");
        try (InputStream in = SameFileStoresTest.class.getResourceAsStream("/reliability/agent_writer.py")) {
            Files.copy(in, script);
        }
        List<String> command = new ArrayList<>(List.of("python3", script.toString(), db.toString(), "python",
                String.valueOf(Seeds.seed("same file") & 0x7fffffff), String.valueOf(SECONDS)));
        command.addAll(shared);
        return Command.of(command).withStdin("").start();
    }

    private static long count(Connection connection, String sql) throws SQLException {
        return ((Number) SqliteFiles.query(connection, sql).get(0).get(0)).longValue();
    }

    /** Runs the lock probe in a separate Python process against {@code db}. */
    private String lockProbe(Path db) throws IOException, InterruptedException {
        Path script = dir.resolve("lock_probe.py");
        if (!Files.exists(script)) {
            Files.writeString(script, LOCK_PROBE);
        }
        ProcessResult probe = Command.python(script.toString(), db.toString()).run(Duration.ofSeconds(60));
        return (probe.stdout() + probe.stderr()).strip();
    }

    static void requirePython() {
        Python.requireSqlite3();
    }
}
