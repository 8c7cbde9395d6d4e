package dev.hermes.state.migrations;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.LiveCopy;
import dev.hermes.state.sqlite.SqliteHeaders;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write-ahead log that belongs to another store must never be folded into a file, while this
 * file's own log (indexed by a live or crashed connection, or copied with the file) is accepted.
 */
class ForeignWalTest {
    @TempDir
    Path dir;

    private final Migrator migrator = Migrator.create();

    @Test
    void aLogCopiedFromAnotherStoreIsRefusedAndNothingChanges() throws Exception {
        Path db = store("a", 3);
        Path other = store("b", 60);
        Path otherWal = liveWal(other, "INSERT INTO messages (session_id, role, content, timestamp)"
                + " VALUES ('s0', 'user', 'from the other store', 2)");
        Files.copy(otherWal, Path.of(db + "-wal"));
        String dbBefore = Fixtures.sha256(db);
        String walBefore = Fixtures.sha256(Path.of(db + "-wal"));
        assertTrue(SqliteHeaders.hasUnindexedWal(db));

        NotAHermesDatabaseException refused = assertThrows(NotAHermesDatabaseException.class, () -> migrator.migrate(db));
        assertTrue(refused.getMessage().contains("-wal"), refused.getMessage());
        assertThrows(NotAHermesDatabaseException.class, () -> migrator.checkReadable(db), "and read-only too, every time");

        assertEquals(dbBefore, Fixtures.sha256(db));
        assertEquals(walBefore, Fixtures.sha256(Path.of(db + "-wal")));
        assertFalse(Files.exists(Path.of(db + "-shm")), "the index the check built is not left behind");
    }

    @Test
    void theFilesOwnLogCopiedWithoutItsIndexIsVerifiedAndAccepted() throws Exception {
        Path db = store("c", 3);
        Path wal = liveWal(db, "UPDATE sessions SET title = 'kept' WHERE id = 's1'");
        Path copy = Files.createDirectory(dir.resolve("copy")).resolve("state.db");
        Files.copy(db, copy);
        Files.copy(wal, Path.of(copy + "-wal"));
        assertTrue(SqliteHeaders.hasUnindexedWal(copy), "no -shm vouches for it");

        assertTrue(migrator.migrate(copy).fastPath());
        try (Connection connection = SqliteFiles.readWrite(copy);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT title FROM sessions WHERE id = 's1'")) {
            assertTrue(rows.next());
            assertEquals("kept", rows.getString(1), "the log's commit is part of the file");
        }
    }

    @Test
    void aLogIndexedByItsOwnConnectionNeedsNoCheck() throws Exception {
        Path db = store("d", 2);
        try (Connection writer = SqliteFiles.readWrite(db);
             Statement statement = writer.createStatement()) {
            statement.execute("PRAGMA wal_autocheckpoint=0");
            statement.executeUpdate("UPDATE sessions SET title = 'live' WHERE id = 's0'");
            assertFalse(SqliteHeaders.hasUnindexedWal(db), "a live writer's -shm holds the log's salts");
            assertTrue(migrator.migrate(db).fastPath());
        }
    }

    /** A migrated store with {@code sessions} sessions s0..s(n-1), one message each, WAL folded in. */
    private Path store(String name, int sessions) throws Exception {
        Path db = Files.createDirectory(dir.resolve(name)).resolve("state.db");
        migrator.migrate(db);
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            for (int i = 0; i < sessions; i++) {
                statement.executeUpdate("INSERT INTO sessions (id, source, started_at) VALUES ('s" + i + "', 'cli', 1)");
                statement.executeUpdate("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s" + i
                        + "', 'user', 'hello " + name + " " + i + " " + "x".repeat(200 * (i % 7)) + "', 1)");
            }
        }
        assertFalse(Files.exists(Path.of(db + "-wal")), "closed cleanly: no log left");
        return db;
    }

    /** Runs {@code sql} on {@code db} without a checkpoint and returns a snapshot of the live log. */
    private Path liveWal(Path db, String sql) throws Exception {
        Path snapshot = dir.resolve(db.getParent().getFileName() + "-snapshot.wal");
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_autocheckpoint=0");
            statement.executeUpdate(sql);
            LiveCopy.copy(Path.of(db + "-wal"), snapshot);
            assertTrue(Files.size(snapshot) > 32, "the log holds frames");
        }
        return snapshot;
    }
}
