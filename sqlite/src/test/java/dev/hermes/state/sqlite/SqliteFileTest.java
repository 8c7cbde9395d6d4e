package dev.hermes.state.sqlite;

import dev.hermes.state.testsupport.LiveCopy;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file checks, on real files: those made before SQLite touches a file, and SQLite's own verdict
 * on a read-only connection ({@link SqliteFile#checkAccepted}, the migrator's first read) as
 * SqliteFile words it.
 */
class SqliteFileTest {
    @TempDir
    Path dir;

    @Test
    void acceptsARealDatabaseForWritingAndReading() throws Exception {
        Path db = database("ok.db", 20);
        assertTrue(SqliteFile.prepareForWriting(db));
        SqliteFile.checkReadable(db);
        accepted(db);
    }

    @Test
    void reportsAnAbsentFileAndCreatesItsFoldersOwnerOnly() throws Exception {
        Path db = dir.resolve("a/b/state.db");
        assertFalse(SqliteFile.prepareForWriting(db));
        assertFalse(Files.exists(db), "the file itself is not created");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b"))));
    }

    @Test
    void refusesAZeroLengthFile() throws Exception {
        Path db = Files.createFile(dir.resolve("empty.db"));
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> SqliteFile.prepareForWriting(db));
        assertTrue(e.getMessage().contains("empty (zero-length)"), e.getMessage());
        assertThrows(NotAHermesDatabaseException.class, () -> SqliteFile.checkReadable(db));
        assertEquals(0, Files.size(db));
    }

    @Test
    void refusesATextFile() throws Exception {
        Path db = Files.writeString(dir.resolve("notes.db"), "these are my notes, not a database\n".repeat(50));
        byte[] before = Files.readAllBytes(db);
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(db));
        assertTrue(e.getMessage().contains("not a SQLite database (wrong file header)"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(db));
    }

    @Test
    void refusesAFileShorterThanTheHeader() throws Exception {
        Path db = Files.write(dir.resolve("short.db"), "SQLite format 3\0 and then nothing".getBytes(StandardCharsets.ISO_8859_1));
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(db));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void refusesAFileCutMidPage() throws Exception {
        Path db = database("cut.db", 50);
        long size = Files.size(db);
        truncate(db, size - 1000);
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(db));
        assertTrue(e.getMessage().contains("truncated SQLite database (" + (size - 1000) + " bytes, page size 4096"), e.getMessage());
    }

    @Test
    void refusesAFileCutAtAPageBoundaryByTheHeadersPageCount() throws Exception {
        Path db = database("pages.db", 50);
        long size = Files.size(db);
        truncate(db, size - 4096);
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(db));
        assertTrue(e.getMessage().contains((size / 4096) + " pages expected"), e.getMessage());
    }

    /**
     * A process killed during a checkpoint that grows the file leaves page 1 (with the new page
     * count) copied and the pages after it not yet: the file looks cut at a page boundary, but
     * every missing page is still in the write-ahead log, and SQLite reads it from there.
     */
    @Test
    void acceptsAFileShortOfItsPageCountWhenTheLogHoldsTheMissingPages() throws Exception {
        Path db = database("growing.db", 5);
        Path crashed = Files.createDirectory(dir.resolve("crashed")).resolve("growing.db");
        long pages;
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = WAL");
            statement.execute("PRAGMA wal_autocheckpoint = 0");
            statement.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)"
                    + " INSERT INTO t(v) SELECT printf('%.1000c', 'y') || i FROM n");
            statement.execute("INSERT INTO t(v) SELECT v FROM t");
            pages = single(statement, "PRAGMA page_count");
            // the file as a kill during the next checkpoint leaves it: log intact, only page 1 copied
            LiveCopy.copy(db, crashed);
            LiveCopy.copy(Path.of(db + "-wal"), Path.of(crashed + "-wal"));
        }
        long copiedPages = Files.size(crashed) / 4096;
        assertTrue(pages > copiedPages + 10, pages + " pages in the log, " + copiedPages + " in the file");
        try (RandomAccessFile file = new RandomAccessFile(crashed.toFile(), "rw")) {
            file.seek(24);
            int changeCounter = file.readInt();
            file.seek(28);
            file.writeInt((int) pages);
            file.seek(92);
            file.writeInt(changeCounter);
        }

        Path withoutLog = Files.createDirectory(dir.resolve("no-log")).resolve("growing.db");
        Files.copy(crashed, withoutLog); // the same file without its log really is cut short
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(withoutLog));
        assertTrue(e.getMessage().contains(pages + " pages expected"), e.getMessage());

        assertTrue(SqliteFile.prepareForWriting(crashed));
        SqliteFile.checkReadable(crashed);
        accepted(crashed);
        try (Connection connection = SqliteFiles.readWrite(crashed);
             Statement statement = connection.createStatement()) {
            assertEquals(410, single(statement, "SELECT count(*) FROM t"));
            try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                assertTrue(check.next());
                assertEquals("ok", check.getString(1));
            }
        }

    }

    @Test
    void refusesAnImpossiblePageSize() throws Exception {
        Path db = database("page-size.db", 1);
        try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
            file.seek(16);
            file.writeShort(1000);
        }
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> accepted(db));
        assertTrue(e.getMessage().contains("page size 1000"), e.getMessage());
    }

    @Test
    void refusesReadOnlyFilesAndFoldersByTheirPermissionBitsEvenForRoot() throws Exception {
        Path db = database("ro.db", 1);
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
        StateIOException file = assertThrows(StateIOException.class, () -> SqliteFile.prepareForWriting(db));
        assertTrue(file.getMessage().contains("is read-only"), file.getMessage());

        Path folder = Files.createDirectory(dir.resolve("ro-folder"));
        Path inside = database("ro-folder/state.db", 1);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            StateIOException e = assertThrows(StateIOException.class, () -> SqliteFile.prepareForWriting(inside));
            assertTrue(e.getMessage().contains("Folder " + folder + " is read-only"), e.getMessage());
            assertThrows(StateIOException.class, () -> SqliteFile.prepareForWriting(folder.resolve("new.db")));
            assertFalse(Files.exists(folder.resolve("new.db")));
        } finally {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void refusesAFolder() {
        StateIOException e = assertThrows(StateIOException.class, () -> SqliteFile.prepareForWriting(dir));
        assertTrue(e.getMessage().contains("is a folder"), e.getMessage());
    }

    @Test
    void publishesABuiltFileOnlyUnderAFreeNameAndAlwaysRemovesTheTemporaryOne() throws Exception {
        Path target = dir.resolve("state.db");
        Path first = SqliteFile.createTemporarySibling(target);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first)));
        assertEquals(dir, first.getParent());
        Files.writeString(first, "first");
        assertTrue(SqliteFile.publish(first, target));
        assertFalse(Files.exists(first));

        Path second = SqliteFile.createTemporarySibling(target);
        Files.writeString(second, "second");
        assertFalse(SqliteFile.publish(second, target), "an existing file is never replaced");
        assertFalse(Files.exists(second));
        assertEquals("first", Files.readString(target));
        try (var listing = Files.list(dir)) {
            assertEquals(1, listing.count(), "only the published file is left");
        }
    }

    @Test
    void opensConnectionsWithForeignKeysOnAndTheBusyTimeoutOfThePolicy() throws Exception {
        Path db = database("settings.db", 1);
        RetryPolicy policy = RetryPolicy.HERMES.withBusyTimeout(java.time.Duration.ofMillis(1234));
        try (Connection connection = SqliteConnections.open(db, policy, false); Statement statement = connection.createStatement()) {
            assertEquals(1, single(statement, "PRAGMA foreign_keys"));
            assertEquals(1234, single(statement, "PRAGMA busy_timeout"));
            assertEquals(1, single(statement, "PRAGMA synchronous"), "NORMAL");
        }
        try (Connection connection = SqliteConnections.open(db, policy, true); Statement statement = connection.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> statement.execute("INSERT INTO t(v) VALUES ('x')"));
            assertEquals(SqliteErrors.SQLITE_READONLY, e.getErrorCode() & 0xff);
        }
    }

    /** SQLite's verdict as the migrator's inspection takes it: on a read-only connection, before anything else. */
    private static void accepted(Path db) throws Exception {
        try (Connection connection = SqliteConnections.open(db, RetryPolicy.HERMES, true)) {
            SqliteHeaders.checkAccepted(connection, db);
        } catch (SQLException failure) {
            throw SqliteHeaders.refusal(db, failure);
        }
    }

    private Path database(String name, int rows) throws SQLException {
        Path db = dir.resolve(name);
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t(v TEXT)");
            char[] filler = new char[1000];
            Arrays.fill(filler, 'x');
            for (int i = 0; i < rows; i++) {
                statement.execute("INSERT INTO t(v) VALUES ('" + new String(filler) + i + "')");
            }
        }
        return db;
    }

    private static void truncate(Path file, long size) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
    }

    private static int single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next());
            return rows.getInt(1);
        }
    }
}
