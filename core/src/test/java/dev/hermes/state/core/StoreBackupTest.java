package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.BackupReport;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Full and incremental backups of copies of the agent's v17 file: exact counts, files owner-only,
 * an incremental backup after writes of every kind equal to a fresh full backup (checksum and every
 * table's rows), and the refusals that leave everything as it was.
 */
class StoreBackupTest {
    private static final String FIXTURE = "state-v17.db";
    private static final String SESSION = "20260310_090000_8520da";

    @TempDir
    Path dir;

    @Test
    void aFullBackupHoldsTheStoreVerifiedAndOwnerOnly() throws Exception {
        Path db = Fixtures.copy(FIXTURE, dir);
        Path target = dir.resolve("backups/state-backup.db");
        Files.createDirectories(target.getParent());
        BackupReport report;
        try (StateRepository store = StateRepository.open(db)) {
            report = store.backupTo(target, BackupOptions.full());
        }
        assertEquals(43L, report.rows().get("sessions"));
        assertEquals(140L, report.rows().get("messages"));
        assertEquals(140L, report.rows().get("messages_fts"));
        assertEquals(140L, report.rows().get("messages_fts_trigram"), report.rows()::toString);
        // the agent's tables with the FTS5 tables (not their shadow tables), and what hermes-state's open added
        assertEquals(List.of("DATABASECHANGELOG", "DATABASECHANGELOGLOCK", "compression_locks", "hermes_state_window",
                "hermes_state_window_message", "messages", "messages_fts", "messages_fts_trigram", "schema_version",
                "sessions", "sqlite_sequence", "state_meta"), List.copyOf(report.rows().keySet()));
        assertNull(report.changes());
        assertEquals(Files.size(target), report.bytes());
        assertEquals(64, report.checksum().length());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(report.manifest())));
        assertEquals(target.toAbsolutePath() + ".manifest.json", report.manifest().toString());
        String manifest = Files.readString(report.manifest());
        assertTrue(manifest.contains("\"checksum\" : \"" + report.checksum() + "\""), manifest);
        assertEquals("ok", report.fullText().get("messages_fts"));
        assertEquals(List.of(target.getFileName().toString(), target.getFileName() + ".manifest.json"), names(target.getParent()));
        assertEquals(dump(db), dump(target), "every row of every table, as in the source");
        assertEquals("delete", single(target, "PRAGMA journal_mode"), "one self-contained file");
    }

    @Test
    void anIncrementalBackupAfterWritesEqualsAFreshFullBackup() throws Exception {
        Path db = Fixtures.copy(FIXTURE, dir);
        Path incremental = dir.resolve("incremental.db");
        Path fresh = dir.resolve("fresh.db");
        try (StateRepository store = StateRepository.open(db)) {
            BackupReport first = store.backupTo(incremental, BackupOptions.full());
            // writes of every kind: a new session with messages, messages appended to an old one, a
            // changed session row, a rewind (messages flipped in place), a deleted session
            store.createSession("backup-new", "cli");
            store.appendMessages("backup-new", List.of(NewMessage.of("user", "hello backup"), NewMessage.of("assistant", "hi")));
            long appended = store.appendMessage(SESSION, NewMessage.of("user", "one more"));
            store.setSessionTitle(SESSION, "retitled by the backup test");
            store.rewindToMessage(SESSION, appended);
            String deleted = "20260310_090500_53bef4";
            assertTrue(store.deleteSession(deleted));

            BackupReport update = store.backupTo(incremental, BackupOptions.incrementalUpdate());
            BackupReport full = store.backupTo(fresh, BackupOptions.full());
            assertNotEquals(first.checksum(), update.checksum());
            assertEquals(full.checksum(), update.checksum(), "the same logical contents");
            assertEquals(full.rows(), update.rows());
            assertEquals(dump(fresh), dump(incremental), "every table's rows");
            BackupReport.Changes changes = update.changes();
            assertEquals(1, changes.sessionsAdded());
            assertEquals(1, changes.sessionsRemoved());
            assertTrue(changes.sessionsUpdated() >= 1, changes::toString);
            assertEquals(3, changes.messagesAdded(), changes::toString);
            assertEquals(first.rows().get("messages") + 3 - changes.messagesRemoved(), update.rows().get("messages"));
            assertFalse(changes.fullComparison(), "every change showed in a session row");
            assertTrue(Files.readString(update.manifest()).contains("\"incrementalUpdates\" : 1"));
            assertEquals(BackupReport.NOT_CHECKED, update.fullText().get("messages_fts"), "verified in the changed rows");

            // an undo of the rewind flips messages back without touching the session row
            assertEquals(1, store.restoreRewound(SESSION, appended));
            BackupReport again = store.backupTo(incremental, BackupOptions.incrementalUpdate());
            assertTrue(again.changes().fullComparison());
            assertEquals(1, again.changes().messagesUpdated());
            BackupReport fullAgain = store.backupTo(fresh, new BackupOptions(false, true));
            assertEquals(fullAgain.checksum(), again.checksum());
            assertEquals(dump(fresh), dump(incremental));

            BackupReport nothing = store.backupTo(incremental, BackupOptions.incrementalUpdate());
            assertEquals(0, nothing.changes().messagesAdded() + nothing.changes().messagesUpdated()
                    + nothing.changes().messagesRemoved() + nothing.changes().sessionsAdded()
                    + nothing.changes().sessionsUpdated() + nothing.changes().sessionsRemoved());
            assertFalse(nothing.changes().fullComparison());
            assertEquals(again.checksum(), nothing.checksum());
        }
    }

    @Test
    void anIncrementalRunReadsTheChangedRowsAndVerifyFullReadsAll() throws Exception {
        Path db = Fixtures.copy(FIXTURE, dir);
        Path backup = dir.resolve("backup.db");
        try (StateRepository store = StateRepository.open(db)) {
            BackupReport first = store.backupTo(backup, BackupOptions.full());
            assertTrue(first.verifiedFully());
            long sessionMessages = store.getMessages(SESSION, true).size();
            store.appendMessage(SESSION, NewMessage.of("user", "one more"));

            BackupReport update = store.backupTo(backup, BackupOptions.incrementalUpdate());
            assertFalse(update.verifiedFully());
            assertEquals(BackupReport.NOT_CHECKED, update.fullText().get("messages_fts"));
            // the changed session's messages, in messages and both word indexes, on the backup before and
            // after and on the source: 9 times; and the tables that are not messages' whole, on both sides
            long small = 0;
            for (Map.Entry<String, Long> table : update.rows().entrySet()) {
                if (!table.getKey().startsWith("messages")) {
                    small += table.getValue();
                }
            }
            assertEquals(3 * (sessionMessages + (sessionMessages + 1) * 2) + 2 * small, update.changes().rowsExamined(),
                    update.changes()::toString);

            BackupReport full = store.backupTo(backup, new BackupOptions(true, false, true));
            assertTrue(full.verifiedFully());
            assertEquals("ok", full.fullText().get("messages_fts"));
            assertEquals(update.checksum(), full.checksum(), "nothing changed since");
            long all = full.rows().values().stream().mapToLong(Long::longValue).sum();
            assertEquals(2 * all + 2 * small, full.changes().rowsExamined());
            assertTrue(update.changes().rowsExamined() < full.changes().rowsExamined() / 2, "less than one store's rows");
            BackupReport fresh = store.backupTo(dir.resolve("fresh.db"), BackupOptions.full());
            assertEquals(fresh.checksum(), full.checksum());

            // the backup written to by hand since: its manifest's sums no longer describe it, and the run
            // verifies in full, compares every message and puts the deleted one back
            try (Connection connection = SqliteFiles.readWrite(backup);
                 Statement statement = connection.createStatement()) {
                statement.execute("DELETE FROM messages WHERE id = (SELECT min(id) FROM messages)");
            }
            BackupReport repaired = store.backupTo(backup, BackupOptions.incrementalUpdate());
            assertTrue(repaired.verifiedFully());
            assertTrue(repaired.changes().fullComparison());
            assertEquals(1, repaired.changes().messagesAdded());
            assertEquals(fresh.checksum(), repaired.checksum());
            assertEquals(dump(dir.resolve("fresh.db")), dump(backup));
        }
    }

    @Test
    void refusalsChangeNothingAndLeaveNothingBehind() throws Exception {
        Path db = Fixtures.copy(FIXTURE, dir);
        Path target = dir.resolve("backup.db");
        try (StateRepository store = StateRepository.open(db)) {
            store.backupTo(target, BackupOptions.full());
            byte[] before = Files.readAllBytes(target);
            List<String> files = names(dir);

            InvalidArgumentException exists = assertThrows(InvalidArgumentException.class,
                    () -> store.backupTo(target, BackupOptions.full()));
            assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
            InvalidArgumentException itself = assertThrows(InvalidArgumentException.class,
                    () -> store.backupTo(db, new BackupOptions(false, true)));
            assertTrue(itself.getMessage().contains("is the store itself"), itself.getMessage());
            assertThrows(InvalidArgumentException.class, () -> store.backupTo(Path.of(db + "-wal"), new BackupOptions(false, true)));
            StateIOException noFolder = assertThrows(StateIOException.class,
                    () -> store.backupTo(dir.resolve("missing/backup.db"), BackupOptions.full()));
            assertTrue(noFolder.getMessage().contains("does not exist"), noFolder.getMessage());
            InvalidArgumentException noBackup = assertThrows(InvalidArgumentException.class,
                    () -> store.backupTo(dir.resolve("none.db"), BackupOptions.incrementalUpdate()));
            assertTrue(noBackup.getMessage().contains("take a full backup first"), noBackup.getMessage());
            assertEquals(files, names(dir));
            assertTrue(Arrays.equals(before, Files.readAllBytes(target)));
        }

        // another store's backup is not brought up to date from this one
        Path other = Fixtures.copy(FIXTURE, Files.createDirectories(dir.resolve("other")));
        try (StateRepository store = StateRepository.open(other)) {
            InvalidArgumentException foreign = assertThrows(InvalidArgumentException.class,
                    () -> store.backupTo(target, BackupOptions.incrementalUpdate()));
            assertTrue(foreign.getMessage().contains("is a backup of " + db.toAbsolutePath()), foreign.getMessage());
        }

        // a source whose schema changed since needs a full backup
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE INDEX backup_test_extra ON messages(role)");
        }
        byte[] before = Files.readAllBytes(target);
        try (StateRepository store = StateRepository.open(db)) {
            InvalidArgumentException migrated = assertThrows(InvalidArgumentException.class,
                    () -> store.backupTo(target, BackupOptions.incrementalUpdate()));
            assertTrue(migrated.getMessage().contains("backup_test_extra"), migrated.getMessage());
        }
        assertTrue(Arrays.equals(before, Files.readAllBytes(target)));
    }

    @Test
    void aReadOnlyFolderIsATypedErrorAndNothingIsWritten() throws Exception {
        Path db = Fixtures.copy(FIXTURE, dir);
        Path folder = Files.createDirectories(dir.resolve("read-only"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
        try (StateRepository store = StateRepository.open(db)) {
            StateIOException readOnly = assertThrows(StateIOException.class,
                    () -> store.backupTo(folder.resolve("backup.db"), BackupOptions.full()));
            assertTrue(readOnly.getMessage().contains("read-only") || readOnly.getMessage().contains("Permission"),
                    readOnly.getMessage());
        } finally {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        }
        assertEquals(List.of(), names(folder));
    }

    private static List<String> names(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static String single(Path db, String sql) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** Every table's rows in key order, read with plain JDBC (not the code under test). */
    static Map<String, List<String>> dump(Path db) throws SQLException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        Map<String, String> order = new LinkedHashMap<>();
        order.put("sessions", "id");
        order.put("messages", "id");
        order.put("messages_fts", "rowid");
        order.put("messages_fts_trigram", "rowid");
        order.put("state_meta", "key");
        order.put("compression_locks", "session_id");
        order.put("schema_version", "version");
        order.put("sqlite_sequence", "name");
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            for (Map.Entry<String, String> table : order.entrySet()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet result = statement.executeQuery("SELECT rowid AS r, * FROM " + table.getKey()
                        + " ORDER BY " + table.getValue())) {
                    int width = result.getMetaData().getColumnCount();
                    while (result.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = table.getKey().startsWith("messages_fts") ? 1 : 2; i <= width; i++) {
                            Object value = result.getObject(i);
                            row.append(value == null ? "NULL" : value.getClass().getSimpleName() + ":" + value).append('|');
                        }
                        rows.add(row.toString());
                    }
                }
                tables.put(table.getKey(), rows);
            }
        }
        return tables;
    }
}
