package dev.hermes.state.core.maintenance;

import dev.hermes.state.BusyException;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.core.model.RepairReport;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doctor and repair on copies of the agent's own files, healthy and damaged on purpose: each
 * damage named by its code, repair mending it (search finds the messages again, the counters are
 * exact) after a backup, the file never written by the doctor.
 */
class StoreDoctorTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T06:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"state-v1.db", "state-v4.db", "state-v11.db", "state-v6.db", "state-v8.db", "state-v12.db", "state-v14.db",
            "state-v16.db", "state-v17.db", "state-v17-upgraded.db"})
    void theAgentsOwnFilesAreHealthyAndTheDoctorWritesNothing(String fixture) {
        Path file = Fixtures.copy(fixture, dir);
        String before = Fixtures.sha256(file);
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of(), report.problems(), report.toString());
        assertEquals(Finding.Severity.OK, report.worst());
        assertEquals(before, Fixtures.sha256(file));
        assertTrue(Files.notExists(Path.of(file + "-wal")));
    }

    @Test
    void driftedCountersAreNamedAndRecounted() throws Exception {
        Path file = Fixtures.copy("state-v17.db", dir);
        String session = firstSessionWithMessages(file);
        long messages = SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = '" + session + "'");
        execute(file, "UPDATE sessions SET message_count = message_count + 7, tool_call_count = 99 WHERE id = '" + session + "'");
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of("counters.message_count", "counters.tool_call_count"), report.problemCodes());
        assertEquals("1 session", report.problems().get(0).subject());
        assertEquals("hermes-state --db " + file + " repair", report.problems().get(0).remedy());

        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of("recount message_count and tool_call_count from the rows"), repaired.actions());
        assertEquals(List.of(), repaired.remaining());
        assertEquals(messages, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = '" + session + "'"));
        Path backup = Path.of(file + ".bak-20261202T060000Z");
        assertEquals(backup.toString(), repaired.backup());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)));
        assertEquals(messages + 7, SqliteFiles.number(backup, "SELECT message_count FROM sessions WHERE id = '" + session + "'"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v17.db"})
    void droppedTriggersAreNamedAndRecreatedAndSearchFindsWhatWasWrittenMeanwhile(String fixture) throws SQLException {
        Path file = Fixtures.copy(fixture, dir);
        String session = firstSessionWithMessages(file);
        execute(file, "DROP TRIGGER messages_fts_insert");
        execute(file, "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('" + session
                + "', 'user', 'zanzibarquokka', 1773133200)");
        DoctorReport report = StoreDoctor.forFile(file).check();
        // the row written beside the agent's API also left its session's counter behind
        assertEquals(List.of("fts.trigger", "fts.rows", "counters.message_count"), report.problemCodes(), report.toString());
        assertEquals("trigger messages_fts_insert", report.problems().get(0).subject());
        assertEquals("table messages_fts", report.problems().get(1).subject());
        assertTrue(report.problems().get(1).detail().startsWith("1 messages are not in the index"), report.toString());

        RepairReport dryRun = StoreDoctor.forFile(file).repair(true);
        assertTrue(dryRun.dryRun());
        assertTrue(dryRun.actions().contains("create trigger messages_fts_insert as version "
                + report.schemaVersion() + " defines it"), dryRun.actions().toString());
        assertEquals(0, SqliteFiles.number(file, "SELECT count(*) FROM sqlite_master WHERE name = 'messages_fts_insert'"));

        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of(), repaired.remaining(), repaired.after().toString());
        assertEquals(1, SqliteFiles.number(file, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'zanzibarquokka'"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v17.db"})
    void aDeletedFullTextSegmentIsNamedAndRebuilt(String fixture) throws SQLException {
        Path file = Fixtures.copy(fixture, dir);
        long hits = SqliteFiles.number(file, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'the'");
        execute(file, "DELETE FROM messages_fts_data WHERE id = (SELECT max(id) FROM messages_fts_data WHERE id > 10)");
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of("fts.integrity"), report.problemCodes(), report.toString());
        assertEquals("table messages_fts", report.problems().get(0).subject());
        assertEquals(Finding.Severity.ERROR, report.worst());

        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of(), repaired.remaining(), repaired.after().toString());
        assertEquals(hits, SqliteFiles.number(file, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'the'"));
    }

    @Test
    void orphansMissingParentsAndCyclesAreNamedAndMendedWithoutDeletingAMessage() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        long messages = SqliteFiles.number(file, "SELECT count(*) FROM messages");
        String session = firstSessionWithMessages(file);
        try (Connection connection = SqliteFiles.readWrite(file); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA foreign_keys = OFF");
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('cyc-a', 'cli', 1), ('cyc-b', 'cli', 2),"
                    + " ('dangling', 'cli', 3)");
            statement.execute("UPDATE sessions SET parent_session_id = 'cyc-b' WHERE id = 'cyc-a'");
            statement.execute("UPDATE sessions SET parent_session_id = 'cyc-a' WHERE id = 'cyc-b'");
            statement.execute("UPDATE sessions SET parent_session_id = 'nowhere' WHERE id = 'dangling'");
            statement.execute("UPDATE messages SET session_id = 'lost-session' WHERE session_id = '" + session + "'");
            statement.execute("DELETE FROM sessions WHERE id = '" + session + "'");
        }
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of("orphans.messages", "orphans.parents", "orphans.cycles"), report.problemCodes(), report.toString());
        assertEquals("1 cycle", report.problems().get(2).subject());
        assertTrue(report.problems().get(2).detail().contains("[cyc-a, cyc-b]"), report.toString());

        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of(), repaired.remaining(), repaired.after().toString());
        assertEquals(messages, SqliteFiles.number(file, "SELECT count(*) FROM messages"));
        assertEquals("recovered", SqliteFiles.text(file, "SELECT source FROM sessions WHERE id = 'lost-session'"));
        assertEquals(0, SqliteFiles.number(file, "SELECT count(*) FROM sessions WHERE id IN ('cyc-a', 'dangling') AND parent_session_id IS NOT NULL"));
        assertEquals("cyc-a", SqliteFiles.text(file, "SELECT parent_session_id FROM sessions WHERE id = 'cyc-b'"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v17.db"})
    void aDroppedFullTextTableIsCreatedAgainAndFilled(String fixture) throws SQLException {
        Path file = Fixtures.copy(fixture, dir);
        long hits = SqliteFiles.number(file, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'the'");
        execute(file, "DROP TABLE messages_fts");
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of("fts.table"), report.problemCodes(), report.toString());
        assertEquals("table messages_fts", report.problems().get(0).subject());
        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of(), repaired.remaining(), repaired.after().toString());
        assertEquals(hits, SqliteFiles.number(file, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'the'"));
    }

    @Test
    void aDroppedIndexIsCreatedAgain() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        execute(file, "DROP INDEX idx_messages_session_active");
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertEquals(List.of("schema.index"), report.problemCodes());
        assertEquals(Finding.Severity.WARNING, report.worst());
        RepairReport repaired = StoreDoctor.forFile(file).withClock(CLOCK).repair(false);
        assertEquals(List.of(), repaired.remaining());
        assertEquals(1, SqliteFiles.number(file, "SELECT count(*) FROM sqlite_master WHERE name = 'idx_messages_session_active'"));
    }

    @Test
    void repairRefusesWhileAnotherConnectionHoldsTheWriteLockAndChangesNothing() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        execute(file, "UPDATE sessions SET message_count = 1000");
        try (Connection holder = SqliteFiles.readWrite(file); Statement statement = holder.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            BusyException refused = assertThrows(BusyException.class,
                    () -> StoreDoctor.forFile(file).withClock(CLOCK).repair(false));
            assertTrue(refused.getMessage().startsWith("Another process holds the write lock on " + file), refused.getMessage());
            statement.execute("ROLLBACK");
        }
        assertTrue(Files.notExists(Path.of(file + ".bak-20261202T060000Z")));
        assertEquals(SqliteFiles.number(file, "SELECT count(*) FROM sessions"),
                SqliteFiles.number(file, "SELECT count(*) FROM sessions WHERE message_count = 1000"));
    }

    static String firstSessionWithMessages(Path file) throws SQLException {
        return Objects.requireNonNull(SqliteFiles.text(file, "SELECT session_id FROM messages GROUP BY session_id ORDER BY count(*) DESC, session_id LIMIT 1"));
    }

    static void execute(Path file, String... statements) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(file); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
