package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import com.zaxxer.hikari.HikariDataSource;
import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.BusyException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteDataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.List;
import java.util.Map;

/** Opening, closing, connections and transactions of the store (docs/behaviour.md#file-and-schema, #opening-and-migrating, #contention). */
class OpeningTest {
    @TempDir
    Path dir;

    @Test
    void openCreatesAnOwnerOnlyVersion17FileInWalMode() throws Exception {
        Path file = dir.resolve("nested/folder/state.db");
        try (StateRepository store = StateRepository.open(file)) {
            store.createSession("s1", "cli");
            store.appendMessage("s1", NewMessage.of("user", "hello"));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(file + "-wal"))));
            assertEquals(Path.of(file.toString()), store.path().orElseThrow());
            assertFalse(store.isReadOnly());
        }
        assertEquals(17, SqliteFiles.number(file, "SELECT version FROM schema_version"));
        assertEquals("wal", SqliteFiles.text(file, "PRAGMA journal_mode"));
        assertEquals(1, SqliteFiles.number(file, "SELECT count(*) FROM messages"));
    }

    /**
     * "Cheap" means nothing to do: no migration step and no schema check that writes, so neither the
     * database file nor its WAL gets a single page (the file's bytes, including the header's change
     * counter at offset 24, stay as they were, and no WAL frame is appended).
     */
    @Test
    void reopeningAnUpToDateFileIsCheapAndKeepsData() throws Exception {
        Path file = TestStores.newDatabase(dir);
        try (StateRepository store = StateRepository.open(file)) {
            store.createSession("s1", "cli");
        }
        Path wal = Path.of(file + "-wal");
        String before = Fixtures.sha256(file);
        long walBefore = Files.exists(wal) ? Files.size(wal) : 0;
        try (StateRepository store = StateRepository.open(file)) {
            assertTrue(store.getSession("s1").isPresent());
            assertEquals(walBefore, Files.exists(wal) ? Files.size(wal) : 0, "the open appended WAL frames");
        }
        assertEquals(before, Fixtures.sha256(file), "the open wrote to an up-to-date file");
        assertEquals(walBefore, Files.exists(wal) ? Files.size(wal) : 0);
    }

    @Test
    void readOnlyNeverWritesAndRefusesWrites() throws Exception {
        Path file = Fixtures.copy("state-v6.db", dir);
        String before = Fixtures.sha256(file);
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            assertTrue(store.isReadOnly());
            assertEquals(30, store.sessionCount());
            assertEquals(95, store.messageCount(null));
            assertEquals(5, store.getMessages("20260310_090000_8520da").size());
            StateIOException refused = assertThrows(StateIOException.class, () -> store.createSession("x", "cli"));
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            assertThrows(StateIOException.class, () -> store.appendMessage("20260310_090000_8520da", NewMessage.of("user", "x")));
            assertThrows(StateIOException.class, store::vacuum);
            store.checkpoint(); // a no-op on a read-only store
        }
        assertEquals(before, Fixtures.sha256(file));
        assertFalse(Files.exists(Path.of(file + "-wal")));
    }

    @Test
    void aNewerSchemaOpensReadOnlyButNotReadWrite() throws Exception {
        Path file = Fixtures.copy("state-v6.db", dir);
        SqliteFiles.execute(file, "UPDATE schema_version SET version = 18", "ALTER TABLE sessions ADD COLUMN future_column TEXT");
        String before = Fixtures.sha256(file);
        SchemaTooNewException tooNew = assertThrows(SchemaTooNewException.class, () -> StateRepository.open(file));
        assertEquals(18, tooNew.fileVersion());
        assertTrue(tooNew.getMessage().contains("18") && tooNew.getMessage().contains(String.valueOf(StateRepository.DEFAULT_SCHEMA_VERSION)),
                tooNew.getMessage());
        assertThrows(SchemaTooNewException.class, () -> StateRepository.builder().path(file).migrate(false).build());
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            assertEquals("my project #4", store.getSession("20260310_135900_0957cb").orElseThrow().title());
            assertEquals(26, store.listSessionsRich(ListSessionsQuery.builder().limit(50).build()).size());
        }
        assertEquals(before, Fixtures.sha256(file));
    }

    @Test
    void badFilesGiveTypedErrorsAndStayUnchanged() throws Exception {
        Path notDb = dir.resolve("notes.db");
        Files.writeString(notDb, "this is not a database, just some text that is long enough".repeat(20));
        String before = Fixtures.sha256(notDb);
        assertThrows(NotAHermesDatabaseException.class, () -> StateRepository.open(notDb));
        assertThrows(NotAHermesDatabaseException.class, () -> StateRepository.openReadOnly(notDb));
        assertEquals(before, Fixtures.sha256(notDb));
        assertThrows(StateIOException.class, () -> StateRepository.openReadOnly(dir.resolve("missing.db")));
    }

    @Test
    void builderRefusesBadSettings() {
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().build());
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().path(dir.resolve("a.db"))
                .dataSource(new SQLiteDataSource()).build());
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().path(dir.resolve("a.db")).readerPoolSize(0).build());
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().path(dir.resolve("a.db")).maxAttempts(0).build());
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().path(dir.resolve("a.db")).checkpointEvery(0).build());
        assertThrows(InvalidArgumentException.class, () -> StateRepository.builder().path(dir.resolve("a.db"))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(10)).build());
        assertFalse(Files.exists(dir.resolve("a.db")));
    }

    /** A null setting is refused when it is given, typed, not later as a NullPointerException at build(). */
    @Test
    void builderRefusesNullSettingsAsTheyAreGiven() {
        StateRepository.Builder builder = StateRepository.builder().path(dir.resolve("a.db"));
        assertThrows(InvalidArgumentException.class, () -> builder.busyTimeout(null));
        assertThrows(InvalidArgumentException.class, () -> builder.backoff(null, Duration.ofMillis(10)));
        assertThrows(InvalidArgumentException.class, () -> builder.backoff(Duration.ofMillis(10), null));
        assertThrows(InvalidArgumentException.class, () -> builder.clock(null));
        assertThrows(InvalidArgumentException.class, () -> builder.schemaVersion(5).build());
        assertFalse(Files.exists(dir.resolve("a.db")));
    }

    /**
     * An application's DataSource that cannot connect is an I/O failure (the store cannot be reached),
     * whichever engine it was meant for: no server is needed, nothing listens on port 1.
     */
    @Test
    void aDataSourceThatCannotConnectIsAnIoFailure() {
        PGSimpleDataSource closedPort = new PGSimpleDataSource();
        closedPort.setServerNames(new String[] {"localhost"});
        closedPort.setPortNumbers(new int[] {1});
        closedPort.setDatabaseName("hermes");
        closedPort.setConnectTimeout(5);
        StateIOException e = assertThrows(StateIOException.class, () -> StateRepository.builder().dataSource(closedPort).build());
        assertEquals(ErrorType.IO, e.type());
        assertTrue(e.getMessage().contains("the application's DataSource"), e.getMessage());

        // a pool that fails to start throws unchecked around the driver's failure
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl("jdbc:postgresql://localhost:1/hermes");
            pool.setConnectionTimeout(1000);
            assertEquals(ErrorType.IO, assertThrows(StateIOException.class,
                    () -> StateRepository.builder().dataSource(pool).build()).type());
        }
    }

    @Test
    void storeOnAnApplicationDataSourceMigratesAndLeavesTheDataSourceUsable() throws Exception {
        SQLiteDataSource dataSource = new SQLiteDataSource();
        Path file = dir.resolve("app.db");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        dataSource.setUrl("jdbc:sqlite:" + file);
        try (StateRepository store = StateRepository.builder().dataSource(dataSource).build()) {
            assertTrue(store.path().isEmpty());
            store.createSession("s1", "cli");
            store.appendMessage("s1", NewMessage.of("user", "via the application's pool"));
            assertEquals(1, store.getSession("s1").orElseThrow().messageCount());
            assertEquals(1, store.searchSessions(new SearchSessionsQuery(null, 5, 0)).size());
            // the application's connections keep sqlite-jdbc's generated keys on: a kept-prepared
            // insert then leaves a statement stepping, which VACUUM must not trip over
            store.createSession("s2", "cli");
            assertTrue(store.vacuum().bytesReclaimed() >= 0);
            store.createSession("s3", "cli");
            assertEquals(3, store.sessionCount());
        }
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT content FROM messages")) {
            assertTrue(rows.next());
            assertEquals("via the application's pool", rows.getString(1));
        }
        assertEquals(17, SqliteFiles.number(file, "SELECT version FROM schema_version"));
    }

    @Test
    void aPassiveCheckpointFollowsEveryNthWrite() throws Exception {
        Path file = TestStores.newDatabase(dir);
        try (StateRepository store = StateRepository.builder().path(file).checkpointEvery(5).build()) {
            store.createSession("s1", "cli");
            long size = Files.size(file);
            for (int i = 0; i < 3; i++) {
                store.appendMessage("s1", NewMessage.of("user", "x".repeat(20_000)));
            }
            assertEquals(size, Files.size(file), "in WAL mode only a checkpoint writes the database file");
            store.appendMessage("s1", NewMessage.of("user", "x".repeat(20_000))); // the 5th write
            assertTrue(Files.size(file) > size + 60_000, "the 5th write was followed by a checkpoint");
        }
    }

    @Test
    void closeIsIdempotentAndLaterCallsFailTyped() {
        StateRepository store = TestStores.fresh(dir);
        store.createSession("s1", "cli");
        store.close();
        store.close();
        assertThrows(StateIOException.class, () -> store.getSession("s1"));
        assertThrows(StateIOException.class, () -> store.createSession("s2", "cli"));
        assertThrows(StateIOException.class, () -> store.dsl().fetchCount(SESSIONS));
    }

    @Test
    void customQueriesReadThroughConnectionsThatCannotWrite() throws Exception {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.createSession("s1", "cli");
            assertEquals(1, store.dsl().fetchCount(SESSIONS));
            assertEquals("cli", store.dsl().select(SESSIONS.SOURCE).from(SESSIONS).where(SESSIONS.ID.eq("s1")).fetchOne(SESSIONS.SOURCE));
            StateIOException refused = assertThrows(StateIOException.class,
                    () -> store.dsl().update(SESSIONS).set(SESSIONS.SOURCE, "hacked").execute());
            assertTrue(refused.getMessage().contains("readonly"), refused.getMessage());
            assertEquals("cli", store.getSession("s1").orElseThrow().source());
        }
    }

    @Test
    void customWriteTransactionsCommitOrRollBackAsAWhole() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.createSession("s1", "cli");
            int updated = store.inWriteTransaction(dsl -> dsl.update(SESSIONS).set(SESSIONS.TITLE, "custom").where(SESSIONS.ID.eq("s1")).execute());
            assertEquals(1, updated);
            IllegalStateException own = new IllegalStateException("application failure");
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> store.inWriteTransaction(dsl -> {
                dsl.update(SESSIONS).set(SESSIONS.TITLE, "half-done").where(SESSIONS.ID.eq("s1")).execute();
                throw own;
            }));
            assertSame(own, thrown);
            assertEquals("custom", store.getSession("s1").orElseThrow().title());
        }
    }

    @Test
    void aLockHeldPastTheRetryBudgetIsBusyAndWritesNothing() throws Exception {
        Path file = TestStores.newDatabase(dir);
        try (StateRepository store = StateRepository.builder().path(file).busyTimeout(Duration.ofMillis(50)).maxAttempts(3)
                .backoff(Duration.ofMillis(10), Duration.ofMillis(20)).build();
             Connection other = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = other.createStatement()) {
            store.createSession("s1", "cli");
            statement.execute("BEGIN IMMEDIATE");
            BusyException busy = assertThrows(BusyException.class, () -> store.appendMessage("s1", NewMessage.of("user", "blocked")));
            assertTrue(busy.getMessage().contains("appending a message to session s1"), busy.getMessage());
            statement.execute("ROLLBACK");
            assertEquals(0, store.getSession("s1").orElseThrow().messageCount());
        }
    }

    @Test
    void aLockReleasedWithinTheRetryBudgetIsWaitedFor() throws Exception {
        Path file = TestStores.newDatabase(dir);
        try (StateRepository store = StateRepository.builder().path(file).busyTimeout(Duration.ofMillis(100)).build();
             Connection other = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = other.createStatement()) {
            store.createSession("s1", "cli");
            statement.execute("BEGIN IMMEDIATE");
            CountDownLatch started = new CountDownLatch(1);
            Thread releaser = new Thread(() -> {
                try {
                    started.await();
                    Thread.sleep(400); // longer than one busy timeout: the store must retry the transaction
                    statement.execute("COMMIT");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            releaser.start();
            started.countDown();
            store.appendMessage("s1", NewMessage.of("user", "patient"));
            releaser.join();
            assertEquals(1, store.getSession("s1").orElseThrow().messageCount());
        }
    }

    @Test
    void aReadThatFailedLeavesItsConnectionUsable() throws Exception {
        // The fixture is in rollback-journal mode, where an exclusive lock keeps readers out.
        Path file = Fixtures.copy("state-v6.db", dir);
        try (StateRepository store = StateRepository.builder().path(file).readOnly(true)
                .busyTimeout(Duration.ofMillis(50)).maxAttempts(1).readerPoolSize(1).build()) {
            assertEquals(5, store.getMessages("20260310_090000_8520da").size());
            try (Connection other = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = other.createStatement()) {
                statement.execute("BEGIN EXCLUSIVE");
                assertThrows(BusyException.class, () -> store.getMessages("20260310_090000_8520da"));
                assertThrows(BusyException.class, () -> store.getCompressionTip("20260310_090000_8520da"));
                statement.execute("ROLLBACK");
            }
            // the same (only) read connection, with statements that failed mid-step, works again
            assertEquals(5, store.getMessages("20260310_090000_8520da").size());
            assertEquals("20260310_135900_0957cb", store.getCompressionTip("20260310_090000_8520da"));
        }
    }

    @Test
    void defaultPathFollowsHermesHome() throws Exception {
        assertEquals(dir.resolve("home").resolve("state.db").toString(),
                Command.java(PrintDefaultPathChild.class).withEnv("HERMES_HOME", "  " + dir.resolve("home") + "  ").run().ok().stdout());
        assertEquals(Path.of(System.getProperty("user.home"), ".hermes", "state.db").toString(),
                Command.java(PrintDefaultPathChild.class).withEnv("HERMES_HOME", "   ").run().ok().stdout());
    }

    @Test
    void theLibraryWritesNothingToTheConsole() throws Exception {
        Path file = dir.resolve("quiet.db");
        ProcessResult result = Command.java(SilentWorkChild.class, file.toString()).run();
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stdout());
        assertEquals("", result.stderr());
        assertEquals(3, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = 'quiet'"));
    }

    // the programs these tests start in child JVMs

    /** Prints {@link StateRepository#defaultPath()} (the test sets HERMES_HOME for this process). */
    static final class PrintDefaultPathChild {
        public static void main(String[] args) {
            System.out.print(StateRepository.defaultPath());
        }
    }

    /** Exercises the store on a file and prints nothing itself: any output came from a library. */
    static final class SilentWorkChild {
        public static void main(String[] args) {
            try (StateRepository store = StateRepository.open(Path.of(args[0]))) {
                store.createSession("quiet", "cli");
                store.appendMessage("quiet", NewMessage.builder("assistant").content("hello")
                        .toolCalls(ToolCalls.json(List.of(Map.of("id", "c1")))).build());
                store.appendMessages("quiet", List.of(NewMessage.of("user", "a"), NewMessage.of("user", "b")));
                store.listSessionsRich(ListSessionsQuery.defaults());
                store.getMessagesAsConversation("quiet");
                store.getCompressionTip("quiet");
                store.dsl().fetchCount(dev.hermes.state.db.Tables.SESSIONS);
                try {
                    store.appendMessage("missing", NewMessage.of("user", "x"));
                } catch (dev.hermes.state.ConstraintViolationException expected) {
                    // a typed failure must not print anything either
                }
            }
            try (StateRepository readOnly = StateRepository.openReadOnly(Path.of(args[0]))) {
                readOnly.getMessages("quiet");
            }
        }
    }
}
