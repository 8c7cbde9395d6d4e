package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.BusyException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.LiveCopy;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.Executable;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files the migrator must refuse: each gets its typed error, a clear message, and stays byte-for-byte unchanged. */
class RefusedFilesTest {
    /** Short waits so that a locked file fails fast in tests (Hermes' policy would wait about 16 s). */
    private static final RetryPolicy SHORT = RetryPolicy.HERMES.withBusyTimeout(Duration.ofMillis(100))
            .withMaxAttempts(3).withBackoff(Duration.ofMillis(10), Duration.ofMillis(20));

    @TempDir
    Path dir;

    @Test
    void aNewerFileIsRefusedNamingBothVersionsAndStillReadable() throws Exception {
        Path db = HermesFixture.V6.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
            statement.execute("UPDATE schema_version SET version = 30");
        }
        String sha = Fixtures.sha256(db);

        SchemaTooNewException e = assertRefused(db, SchemaTooNewException.class, () -> Migrator.create().migrate(db));
        assertEquals(30, e.fileVersion());
        assertEquals(17, e.supportedVersion());
        assertEquals(ErrorType.SCHEMA_TOO_NEW, e.type());
        assertTrue(e.getMessage().startsWith("Schema version 30 is newer than version 17"), e.getMessage());
        assertRefused(db, SchemaTooNewException.class, () -> Migrator.create().dryRun(db));
        assertEquals(sha, Fixtures.sha256(db));

        // read-only use still works: every version-6 column is there
        assertEquals(30, Migrator.create().checkReadable(db));
        assertEquals(sha, Fixtures.sha256(db));
        assertEquals(List.of(db), list(dir), "no -wal, -shm or -journal was left beside it");
    }

    /**
     * The newer version number may sit in the write-ahead log only (the agent has not checkpointed
     * yet). It is seen, and neither the file nor its WAL is touched: no checkpoint, no write.
     */
    @Test
    void aNewerVersionThatIsOnlyInTheWalIsSeenAndNothingIsCheckpointed() throws Exception {
        Path source = Files.createDirectory(dir.resolve("agent"));
        Path live = HermesFixture.V6.copyInto(source);
        Path copy = Files.createDirectory(dir.resolve("copy")).resolve("state.db");
        try (Connection agent = SqliteFiles.readWrite(live); Statement statement = agent.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("PRAGMA wal_autocheckpoint=0");
            statement.execute("UPDATE schema_version SET version = 30");
            // the agent is still running: copy the file with its un-checkpointed WAL
            LiveCopy.copy(live, copy);
            LiveCopy.copy(Path.of(live + "-wal"), Path.of(copy + "-wal"));
        }
        Path wal = Path.of(copy + "-wal");
        assertTrue(Files.size(wal) > 0);
        String dbSha = Fixtures.sha256(copy);
        String walSha = Fixtures.sha256(wal);

        SchemaTooNewException e = assertThrows(SchemaTooNewException.class, () -> Migrator.create().migrate(copy));
        assertEquals(30, e.fileVersion());
        assertEquals(30, Migrator.create().checkReadable(copy));
        assertEquals(dbSha, Fixtures.sha256(copy));
        assertEquals(walSha, Fixtures.sha256(wal));
    }

    @Test
    void aTextFileIsNotADatabase() throws Exception {
        Path db = Files.writeString(dir.resolve("state.db"), "# my notes\nnot a database at all\n".repeat(100));
        NotAHermesDatabaseException e = assertRefused(db, NotAHermesDatabaseException.class, () -> Migrator.create().migrate(db));
        assertEquals(db.toAbsolutePath() + " is not a SQLite database (wrong file header)", e.getMessage());
    }

    @Test
    void aZeroLengthFileIsRefused() throws Exception {
        Path db = Files.createFile(dir.resolve("state.db"));
        NotAHermesDatabaseException e = assertRefused(db, NotAHermesDatabaseException.class, () -> Migrator.create().migrate(db));
        assertTrue(e.getMessage().contains("is an empty (zero-length) file, not a Hermes database"), e.getMessage());
        assertEquals(0, Files.size(db));
    }

    @Test
    void aFileCutMidPageIsRefused() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
            file.setLength(100_000);
        }
        NotAHermesDatabaseException e = assertRefused(db, NotAHermesDatabaseException.class, () -> Migrator.create().migrate(db));
        assertTrue(e.getMessage().contains("is a truncated SQLite database (100000 bytes, page size 4096"), e.getMessage());
    }

    @Test
    void anotherApplicationsDatabaseIsRefused() throws Exception {
        Path db = dir.resolve("state.db");
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE)");
            statement.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id), total REAL)");
            statement.execute("INSERT INTO users (email) VALUES ('ann@example.com')");
        }
        NotAHermesDatabaseException e = assertRefused(db, NotAHermesDatabaseException.class, () -> Migrator.create().migrate(db));
        assertEquals(db + " is a SQLite database but not a Hermes session store (it has the tables [orders, users]"
                + " but no Hermes sessions table); it was left unchanged", e.getMessage());
        assertRefused(db, NotAHermesDatabaseException.class, () -> Migrator.create().checkReadable(db));
        assertEquals(List.of("orders", "users"), SqliteFiles.rows(db, "SELECT name FROM sqlite_master ORDER BY name")
                .stream().map(row -> (String) row.get(0)).filter(n -> !n.startsWith("sqlite_")).toList());
    }

    @Test
    void aReadOnlyFileIsRefused() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
        StateIOException e = assertRefused(db, StateIOException.class, () -> Migrator.create().migrate(db));
        assertEquals("Database file " + db + " is read-only. Open it read-only instead.", e.getMessage());
    }

    @Test
    void aReadOnlyFolderIsRefusedForExistingAndNewFiles() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("ro"));
        Path db = HermesFixture.V2.copyInto(folder);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            StateIOException e = assertRefused(db, StateIOException.class, () -> Migrator.create().migrate(db));
            assertTrue(e.getMessage().startsWith("Folder " + folder + " is read-only"), e.getMessage());
            Path fresh = folder.resolve("new.db");
            assertThrows(StateIOException.class, () -> Migrator.create().migrate(fresh));
            assertEquals(List.of(db), list(folder), "nothing was created in the read-only folder");
        } finally {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aFileHeldByAnExclusiveTransactionIsBusy() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        try (Connection holder = SqliteFiles.readWrite(db); Statement statement = holder.createStatement()) {
            statement.execute("BEGIN EXCLUSIVE");
            BusyException e = assertRefused(db, BusyException.class, () -> Migrator.withRetryPolicy(SHORT).migrate(db));
            assertEquals(ErrorType.BUSY, e.type());
            assertTrue(e.getMessage().startsWith("Database is busy (locked by another connection) while inspecting " + db),
                    e.getMessage());
            statement.execute("ROLLBACK");
        }
    }

    /** In WAL mode an exclusive writer does not block readers: the inspection works, the migration's write lock does not. */
    @Test
    void aWalFileHeldByAnotherWriterIsBusyAtTheWriteLock() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        try (Connection holder = SqliteFiles.readWrite(db); Statement statement = holder.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("BEGIN EXCLUSIVE");
            BusyException e = assertRefused(db, BusyException.class, () -> Migrator.withRetryPolicy(SHORT).migrate(db));
            assertTrue(e.getMessage().startsWith("Database is busy (locked by another connection) while migrating " + db),
                    e.getMessage());
            statement.execute("ROLLBACK");
        }
        assertEquals(2, SqliteFiles.single(db, "SELECT version FROM schema_version"));
    }

    @Test
    void theCommandReportsRefusalsInOneLineWithExitCodeOne() throws Exception {
        Path newer = HermesFixture.V6.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(newer); Statement statement = connection.createStatement()) {
            statement.execute("UPDATE schema_version SET version = 30");
        }
        Path text = Files.writeString(dir.resolve("notes.db"), "plain text\n");
        for (Path db : List.of(newer, text)) {
            String sha = Fixtures.sha256(db);
            ProcessResult result = MigrateJar.run("--db", db.toString());
            result.userError(MigrateJar.PROGRAM);
            assertEquals(sha, Fixtures.sha256(db));
        }
        ProcessResult newerResult = MigrateJar.run("--db", newer.toString());
        assertTrue(newerResult.stderr().contains("Schema version 30 is newer than version 17"), newerResult.stderr());

        // the agent's own version-17 file, kept at 6: refused, unchanged
        Path latest = HermesFixture.V17.copyInto(Files.createDirectory(dir.resolve("latest")));
        ProcessResult kept = MigrateJar.run("--db", latest.toString(), "--to", "6");
        String refusal = kept.userError(MigrateJar.PROGRAM);
        assertTrue(refusal.startsWith(MigrateJar.PROGRAM + ": Schema version 17 is newer than version 6"), refusal);
        assertEquals(Fixtures.originalSha256(HermesFixture.V17.fileName), Fixtures.sha256(latest));

        String usageLine = "usage: hermes-state-migrate --db PATH|postgresql://USER:PASSWORD@HOST:PORT/DB [--schema NAME]"
                + " [--to 6|17] [--dry-run]\n";
        ProcessResult usage = MigrateJar.run("--database", "x.db");
        assertEquals(2, usage.exitCode(), usage.toString());
        assertEquals("unknown argument: --database\n" + usageLine, usage.stderr());
        assertFalse(Files.exists(Path.of("x.db")));
        ProcessResult badTarget = MigrateJar.run("--db", dir.resolve("new.db").toString(), "--to", "16");
        assertEquals(2, badTarget.exitCode(), badTarget.toString());
        assertEquals("--to takes 6 or 17, not 16\n" + usageLine, badTarget.stderr());
        assertFalse(Files.exists(dir.resolve("new.db")));
    }

    private static <T extends HermesStateException> T assertRefused(Path db, Class<T> type, Executable call) throws Exception {
        String sha = Fixtures.sha256(db);
        T error = assertThrows(type, call);
        assertEquals(sha, Fixtures.sha256(db), "the refused file is byte-for-byte unchanged");
        return error;
    }

    private static List<Path> list(Path folder) throws Exception {
        try (var listing = Files.list(folder)) {
            return listing.sorted().toList();
        }
    }
}
