package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.maintenance.StoreDoctor;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.BackupReport;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.Python;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backups of a copy of the agent's v17 file while a Python process (the stdlib sqlite3, as the agent
 * writes) appends numbered messages to one session, each with its counter in the same transaction.
 * A backup taken at any moment holds exactly messages 1..k of that session with message_count k (a
 * snapshot at one instant: no gap, no half-written transaction), passes SQLite's integrity check, the
 * word index's check and the counter check; an incremental backup after the writer stops has the
 * checksum and the rows of a fresh full backup.
 */
class BackupWhileWritingTest {
    private static final String WRITER = """
            import os, sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("INSERT INTO sessions (id, source, started_at) VALUES ('live-writer', 'cli', 1)")
            i = 0
            while not os.path.exists(sys.argv[2]) and i < 200000:
                i += 1
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('live-writer', 'user', ?, ?)",
                                   ("message %06d" % i, 1000 + i))
                connection.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = 'live-writer'")
                connection.execute("COMMIT")
                if i == 200:
                    print("WRITING", flush=True)
            print("WROTE %d" % i, flush=True)
            """;

    @TempDir
    Path dir;

    /** What the doctor finds in the fixture itself (the agent's trigram index): a backup must add nothing. */
    private List<String> doctorOnFixture = List.of();

    @Test
    void aBackupWhileTheAgentWritesIsASnapshotAtOneInstantAndAnIncrementalOneEqualsAFreshOne() throws Exception {
        Python.requireSqlite3();
        Path db = Fixtures.copy("state-v17.db", dir);
        Files.setPosixFilePermissions(db, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        List<String> fixtureMismatches;
        try (Connection connection = SqliteFiles.readOnly(db)) {
            fixtureMismatches = StoreFiles.counterMismatches(connection);
        }
        doctorOnFixture = StoreDoctor.forFile(db).check().problemCodes();
        Path script = Files.writeString(dir.resolve("writer.py"), WRITER);
        Path stop = dir.resolve("stop");
        Path backup = dir.resolve("backup.db");
        long[] seen = new long[3];
        try (ChildProcess writer = Command.python(script.toString(), db.toString(), stop.toString()).start()) {
            assertTrue(writer.awaitLines(1, Duration.ofSeconds(60)), writer.transcript());
            try (StateRepository store = StateRepository.openReadOnly(db)) {
                store.backupTo(backup, BackupOptions.full());
                seen[0] = assertSnapshotAtOneInstant(backup, fixtureMismatches);
                store.backupTo(backup, BackupOptions.incrementalUpdate());
                seen[1] = assertSnapshotAtOneInstant(backup, fixtureMismatches);
            }
            Files.createFile(stop);
            assertEquals(0, writer.waitFor(Duration.ofSeconds(60)), writer.transcript());
            String last = writer.lines().get(writer.lines().size() - 1);
            seen[2] = Long.parseLong(last.substring("WROTE ".length()));
        }
        assertTrue(0 < seen[0] && seen[0] <= seen[1] && seen[1] <= seen[2], () -> java.util.Arrays.toString(seen));

        Path fresh = dir.resolve("fresh.db");
        try (StateRepository store = StateRepository.openReadOnly(db)) {
            BackupReport update = store.backupTo(backup, BackupOptions.incrementalUpdate());
            BackupReport full = store.backupTo(fresh, BackupOptions.full());
            assertEquals(full.checksum(), update.checksum());
            assertEquals(full.rows(), update.rows());
            assertEquals(seen[2] + 140, update.rows().get("messages"));
            assertEquals(seen[2] - seen[1], update.changes().messagesAdded());
        }
        assertEquals(seen[2], assertSnapshotAtOneInstant(backup, fixtureMismatches));
        assertEquals(StoreFiles.logicalDumpSha256(fresh, false), StoreFiles.logicalDumpSha256(backup, false));
    }

    /** The writer's messages in the backup are 1..k, its counter says k; the checks pass. Returns k. */
    private long assertSnapshotAtOneInstant(Path backup, List<String> fixtureMismatches) throws Exception {
        long k;
        try (Connection connection = SqliteFiles.readWrite(backup)) {
            List<String> contents = new ArrayList<>();
            for (List<Object> row : SqliteFiles.query(connection,
                    "SELECT content FROM messages WHERE session_id = 'live-writer' ORDER BY id")) {
                contents.add((String) row.get(0));
            }
            k = contents.size();
            for (int i = 0; i < k; i++) {
                assertEquals("message %06d".formatted(i + 1), contents.get(i));
            }
            assertEquals(k, StoreFiles.number(SqliteFiles.query(connection,
                    "SELECT message_count FROM sessions WHERE id = 'live-writer'").get(0).get(0)));
            assertEquals("ok", StoreFiles.integrityCheck(connection).lines()
                    .filter(line -> !line.contains("FTS5 table main.messages_fts_trigram")).findFirst().orElse("ok"),
                    "the b-trees (the fixture's trigram index fails its own check as the agent left it)");
            assertNull(StoreFiles.ftsIntegrityProblem(connection));
            assertEquals(fixtureMismatches, StoreFiles.counterMismatches(connection), "no counter but the fixture's own differs");
        }
        assertEquals(doctorOnFixture, StoreDoctor.forFile(backup).check().problemCodes(), "the doctor finds what it finds in the fixture");
        return k;
    }
}
