package dev.hermes.state.migrations;

import dev.hermes.state.StateIOException;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.LiveCopy;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file in rollback-journal mode (as the Python agent's files are until something switches them to
 * WAL) whose writer died mid-transaction: the database file already holds some of the unfinished
 * transaction's pages and the hot {@code -journal} holds the originals. The files are copied while
 * the transaction is open, which is exactly what a SIGKILL at that moment leaves on disk.
 */
class InterruptedTransactionTest {
    private static final int COMMITTED_MESSAGES = 300;

    @TempDir
    Path dir;

    private Path crashed;

    @BeforeEach
    void fileWithAHotJournal() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        crashed = Files.createDirectory(dir.resolve("crashed")).resolve("state.db");
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = DELETE");
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1000)");
            statement.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + COMMITTED_MESSAGES + ")"
                    + " INSERT INTO messages (session_id, role, content, timestamp) SELECT 's1', 'user', 'committed ' || i, 1000 + i FROM n");
            // the unfinished transaction: a cache of one page makes SQLite write changed pages to the file early
            statement.execute("PRAGMA cache_size = 1");
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("UPDATE messages SET content = content || ' never committed'");
            LiveCopy.copy(db, crashed);
            LiveCopy.copy(Path.of(db + "-journal"), Path.of(crashed + "-journal"));
            statement.execute("ROLLBACK");
        }
        assertTrue(Files.size(Path.of(crashed + "-journal")) > 0);
    }

    @Test
    void readOnlyChecksExplainTheUnfinishedTransactionAndWriteNothing() throws Exception {
        String before = Fixtures.sha256(crashed);
        Migrator migrator = Migrator.create();
        StateIOException readable = assertThrows(StateIOException.class, () -> migrator.checkReadable(crashed));
        assertTrue(readable.getMessage().contains("left unfinished") && readable.getMessage().contains("state.db-journal"),
                readable.getMessage());
        StateIOException status = assertThrows(StateIOException.class, () -> migrator.status(crashed));
        assertEquals(readable.getMessage(), status.getMessage());
        assertEquals(before, Fixtures.sha256(crashed));
        assertTrue(Files.size(Path.of(crashed + "-journal")) > 0, "the journal is still there for a writer to roll back");
    }

    @Test
    void aReadWriteOpenRollsTheTransactionBackAndMigratesTheCommittedState() throws Exception {
        String before = Fixtures.sha256(crashed);
        MigrationResult result = Migrator.create().migrate(crashed);
        assertEquals(17, result.toVersion());
        assertNotEquals(before, Fixtures.sha256(crashed), "the pages of the unfinished transaction were restored");
        assertFalse(Files.exists(Path.of(crashed + "-journal")) && Files.size(Path.of(crashed + "-journal")) > 0);
        try (Connection connection = SqliteFiles.readWrite(crashed);
             Statement statement = connection.createStatement()) {
            assertEquals(COMMITTED_MESSAGES, count(statement, "SELECT count(*) FROM messages WHERE content LIKE 'committed %'"));
            assertEquals(0, count(statement, "SELECT count(*) FROM messages WHERE content LIKE '%never committed'"));
            try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                assertTrue(check.next());
                assertEquals("ok", check.getString(1));
            }
            assertEquals(1, count(statement, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'committed AND 300'"));
        }
        assertEquals(17, Migrator.create().checkReadable(crashed));
    }

    private static int count(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next());
            return rows.getInt(1);
        }
    }
}
