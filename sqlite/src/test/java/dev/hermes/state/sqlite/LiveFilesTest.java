package dev.hermes.state.sqlite;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The one place that opens database files: raw reads are refused while any connection of this
 * process is open on the file, by whatever name and whoever opened it, and every connection to one
 * file uses one name for it.
 */
class LiveFilesTest {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("try") // the connections are held open only to be seen
    void rawReadsAreRefusedWhileAConnectionOfThisProcessIsOpenByAnyName() throws Exception {
        Path db = walDatabase(dir.resolve("state.db"));
        Path symlink = Files.createSymbolicLink(dir.resolve("symlink.db"), db);
        Path hardLink = Files.createLink(dir.resolve("hard-link.db"), db);
        assertArrayEquals(MAGIC, LiveFiles.readPrefix(db, "", 16).orElseThrow(), "nothing open: read");

        for (Path name : List.of(db, symlink, hardLink)) {
            try (Connection connection = SqliteConnections.open(name, RetryPolicy.HERMES, true)) {
                for (Path other : List.of(db, symlink, hardLink)) {
                    assertTrue(LiveFiles.isOpen(other), name + " is open, seen as " + other);
                    assertEquals(Optional.empty(), LiveFiles.readPrefix(other, "", 16), "read refused: " + other);
                    assertEquals(Optional.empty(), LiveFiles.readPrefix(other, "-wal", 32));
                }
            }
            assertFalse(LiveFiles.isOpen(db), "closed again");
        }
        assertArrayEquals(MAGIC, LiveFiles.readPrefix(hardLink, "", 16).orElseThrow());
    }

    /** The application's own sqlite-jdbc connection is not registered here; its descriptor is seen (Linux). */
    @Test
    @SuppressWarnings("try") // the connection is held open only to be seen
    void anApplicationsOwnConnectionIsSeenByItsDescriptor() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "only Linux lists a process's descriptors");
        Path db = walDatabase(dir.resolve("state.db"));
        try (Connection application = SqliteFiles.readWrite(db)) {
            assertTrue(LiveFiles.isOpen(db));
            assertEquals(Optional.empty(), LiveFiles.readPrefix(db, "-shm", 48));
            assertFalse(SqliteHeaders.hasUnindexedWal(db), "a log in use by this process is not checked");
        }
        assertFalse(LiveFiles.isOpen(db));
    }

    @Test
    void aMissingCompanionReadsAsNoBytes() throws Exception {
        Path db = walDatabase(dir.resolve("state.db"));
        assertArrayEquals(new byte[0], LiveFiles.readPrefix(db, "-journal", 16).orElseThrow());
    }

    /**
     * SQLite names the -wal and -shm after the path it is given, but shares one wal-index per file in
     * a process: a second name for an open file (a hard link) would pair that index with another log.
     * A connection by the second name uses the first one's.
     */
    @Test
    void aSecondNameForAnOpenFileIsOpenedUnderTheFirst() throws Exception {
        Path db = walDatabase(dir.resolve("state.db"));
        Path hardLink = Files.createLink(Files.createDirectory(dir.resolve("elsewhere")).resolve("link.db"), db);
        try (Connection first = SqliteConnections.open(db, RetryPolicy.HERMES, false);
             Statement statement = first.createStatement()) {
            statement.execute("PRAGMA wal_autocheckpoint = 0");
            statement.execute("INSERT INTO t(v) VALUES ('by the first name')");
            try (Connection second = SqliteConnections.open(hardLink, RetryPolicy.HERMES, false);
                 Statement other = second.createStatement()) {
                assertEquals("jdbc:sqlite:" + db.toRealPath(), second.getMetaData().getURL());
                assertEquals(2, count(other));
                other.execute("INSERT INTO t(v) VALUES ('by the second name')");
            }
            assertEquals(3, count(statement));
        }
        assertFalse(Files.exists(Path.of(hardLink + "-wal")) || Files.exists(Path.of(hardLink + "-shm")));
        // closed everywhere: the next connection by the second name uses its own name again
        try (Connection alone = SqliteConnections.open(hardLink, RetryPolicy.HERMES, true)) {
            assertEquals("jdbc:sqlite:" + hardLink.toRealPath(), alone.getMetaData().getURL());
        }
    }

    /** On Linux the name an application's own connection uses is seen too, and followed. */
    @Test
    void aSecondNameIsOpenedUnderTheNameOfTheApplicationsOwnConnection() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "only Linux lists a process's descriptors");
        Path db = walDatabase(dir.resolve("state.db"));
        Path hardLink = Files.createLink(dir.resolve("link.db"), db);
        try (Connection application = SqliteFiles.readWrite(db);
             Statement statement = application.createStatement()) {
            statement.execute("PRAGMA wal_autocheckpoint = 0");
            statement.execute("INSERT INTO t(v) VALUES ('by the application')");
            try (Connection ours = SqliteConnections.open(hardLink, RetryPolicy.HERMES, true);
                 Statement other = ours.createStatement()) {
                assertEquals("jdbc:sqlite:" + db.toRealPath(), ours.getMetaData().getURL());
                assertEquals(2, count(other));
            }
        }
        assertFalse(Files.exists(Path.of(hardLink + "-wal")));
    }

    private static Path walDatabase(Path db) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = WAL");
            statement.execute("CREATE TABLE t(v TEXT)");
            statement.execute("INSERT INTO t(v) VALUES ('first')");
        }
        return db;
    }

    private static long count(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM t")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
