package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.SearchSessionsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prune at scale and vacuum on a SQLite file: the log shrinks, the file gives space back (what is
 * particular to a file; the prune itself is in the contract suite, {@link ExportDeletePruneTest}).
 */
class SqliteVacuumTest {
    @TempDir
    Path dir;

    @Test
    void pruneOfMoreSessionsThanSqliteHasVariablesShrinksTheLogAndVacuumReclaimsSpace() throws Exception {
        Path file = TestStores.newDatabase(dir);
        int sessions = 40_500;
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement session = connection.prepareStatement(
                    "INSERT INTO sessions (id, source, started_at, ended_at, end_reason, message_count) VALUES (?, 'cli', ?, ?, 'cli_close', 1)");
                 PreparedStatement message = connection.prepareStatement(
                         "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)")) {
                for (int i = 0; i < sessions; i++) {
                    String id = String.format("old-%06d", i);
                    session.setString(1, id);
                    session.setDouble(2, 1_000_000.0 + i);
                    session.setDouble(3, 1_000_001.0 + i);
                    session.addBatch();
                    message.setString(1, id);
                    message.setString(2, "message number " + i + " of an old conversation about lorem ipsum dolor sit amet");
                    message.setDouble(3, 1_000_000.5 + i);
                    message.addBatch();
                }
                session.executeBatch();
                message.executeBatch();
            }
            connection.commit();
        }
        try (StateRepository store = StateRepository.open(file)) {
            store.createSession("survivor", "cli");
            long started = System.nanoTime();
            assertEquals(sessions, store.pruneSessions(Duration.ofDays(90), null).count());
            assertEquals(1, store.sessionCount());
            assertEquals(0, store.messageCount(null));
            long wal = Files.size(Path.of(file + "-wal"));
            assertTrue(wal < 16L * 1024 * 1024, "the log was checkpointed and truncated after the prune: " + wal + " bytes");
            long before = Files.size(file);
            long reclaimed = store.vacuum().bytesReclaimed();
            assertTrue(reclaimed > 1_000_000, "vacuum reclaimed " + reclaimed);
            assertEquals(before - reclaimed, Files.size(file));
            assertEquals("survivor", store.searchSessions(new SearchSessionsQuery(null, 5, 0)).get(0).id());
        }
        assertEquals("ok", SqliteFiles.text(file, "PRAGMA integrity_check"));
    }
}
