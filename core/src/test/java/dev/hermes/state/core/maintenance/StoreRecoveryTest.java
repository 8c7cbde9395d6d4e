package dev.hermes.state.core.maintenance;

import dev.hermes.state.StateIOException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RecoveryReport;
import dev.hermes.state.core.model.RecoveryReport.RowidRange;
import dev.hermes.state.core.model.RecoveryReport.TableSalvage;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.hermes.state.core.maintenance.StoreDoctorTest.execute;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files damaged on purpose, salvaged by recover: pages of the messages' and sessions' b-trees zeroed,
 * the file cut short. What each damaged page held is read from the page's own cells before the damage
 * (not through the code under test), so every row not on a damaged page must come back, and the loss is
 * reported exactly.
 */
class StoreRecoveryTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T06:00:00Z"), ZoneOffset.UTC);
    private static final int SESSIONS = 40;
    private static final int MESSAGES_PER_SESSION = 50;

    @TempDir
    static Path shared;
    private static Path pristine;

    @TempDir
    Path dir;

    /** A store written through the repository's API, big enough for its tables to span many pages. */
    @BeforeAll
    static void generate() throws SQLException {
        pristine = shared.resolve("generated.db");
        try (StateRepository store = StateRepository.open(pristine)) {
            for (int s = 0; s < SESSIONS; s++) {
                String id = String.format("s%03d", s);
                NewSession.Builder session = NewSession.builder(id, "cli").systemPrompt("prompt " + id + " " + "x".repeat(600));
                if (s % 5 != 0) {
                    session.parentSessionId(String.format("s%03d", s - 1));
                }
                store.createSession(session.build());
                List<NewMessage> messages = new ArrayList<>();
                for (int m = 0; m < MESSAGES_PER_SESSION; m++) {
                    messages.add(NewMessage.of(m % 2 == 0 ? "user" : "assistant", "message " + m + " of " + id
                            + " word" + s + "x" + m + " " + "lorem ipsum ".repeat(20)));
                }
                store.appendMessages(id, messages);
            }
        }
        execute(pristine, "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA journal_mode = DELETE");
    }

    @Test
    void zeroedPagesInTheMiddleOfTheMessagesLoseTheirRowsOnly() throws Exception {
        Path file = copy();
        List<Long> leaves = leafPages(file, "messages");
        List<Long> damaged = List.of(leaves.get(leaves.size() / 3), leaves.get(2 * leaves.size() / 3));
        TreeSet<Long> lostIds = new TreeSet<>();
        for (long page : damaged) {
            lostIds.addAll(rowids(file, page));
        }
        long all = SqliteFiles.number(file, "SELECT count(*) FROM messages");
        damaged.forEach(page -> zero(file, page));

        DoctorReport report = StoreDoctor.forFile(file).check();
        assertTrue(report.problemCodes().contains("file.integrity"), report.toString());
        assertEquals("hermes-state recover --from " + file + " --to " + file + ".recovered",
                report.problems().get(0).remedy());
        StateIOException refused = assertThrows(StateIOException.class, () -> StoreDoctor.forFile(file).repair(false));
        assertTrue(refused.getMessage().contains("repair does not write on a damaged file"), refused.getMessage());

        String sourceHash = Fixtures.sha256(file);
        Path target = dir.resolve("recovered.db");
        RecoveryReport recovery = StoreRecovery.recover(file, target, false, CLOCK);
        assertEquals(sourceHash, Fixtures.sha256(file));
        assertEquals(all - lostIds.size(), recovery.messages().recovered());
        assertEquals(ranges(lostIds), recovery.messages().lostRanges());
        assertEquals(all, recovery.messages().expected());
        assertEquals(all, recovery.messages().highestId());
        assertEquals(SESSIONS, recovery.sessions().recovered());
        assertEquals(List.of(), recovery.sessions().lostRanges());
        assertEquals(lostIds.size(), recovery.sessionsShort().stream().mapToLong(s -> s.counted() - s.recovered()).sum());
        assertNull(recovery.placeholder());
        assertEquals(List.of(), recovery.check().problems(), recovery.check().toString());
        assertEquals(all - lostIds.size(), SqliteFiles.number(target, "SELECT count(*) FROM messages"));
        assertEquals(0, SqliteFiles.number(target, "SELECT count(*) FROM messages WHERE id IN (" + join(lostIds) + ")"));
        assertEquals(all - lostIds.size(), SqliteFiles.number(target, "SELECT sum(message_count) FROM sessions"));
        assertEquals(all - lostIds.size(), SqliteFiles.number(target, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'lorem'"));
        assertEquals(all, SqliteFiles.number(target, "SELECT seq FROM sqlite_sequence WHERE name = 'messages'"));
    }

    @Test
    void aZeroedSessionsPageSendsItsMessagesUnderAPlaceholderAndClearsTheChildrensLinks() throws Exception {
        Path file = copy();
        List<Long> leaves = leafPages(file, "sessions");
        long page = leaves.get(leaves.size() / 2);
        List<Long> lostRowids = rowids(file, page);
        List<String> lostSessions = new ArrayList<>();
        for (long rowid : lostRowids) {
            lostSessions.add(Objects.requireNonNull(SqliteFiles.text(file, "SELECT id FROM sessions WHERE rowid = " + rowid)));
        }
        long orphaned = SqliteFiles.number(file, "SELECT count(*) FROM messages WHERE session_id IN ('" + String.join("', '", lostSessions) + "')");
        long children = SqliteFiles.number(file, "SELECT count(*) FROM sessions WHERE parent_session_id IN ('"
                + String.join("', '", lostSessions) + "') AND id NOT IN ('" + String.join("', '", lostSessions) + "')");
        zero(file, page);

        Path target = dir.resolve("recovered.db");
        RecoveryReport inspected = StoreRecovery.recover(file, target, true, CLOCK);
        assertFalse(Files.exists(target));
        assertNull(inspected.check());

        RecoveryReport recovery = StoreRecovery.recover(file, target, false, CLOCK);
        assertEquals(SESSIONS - lostRowids.size(), recovery.sessions().recovered());
        assertEquals(List.of(new RowidRange(lostRowids.get(0), lostRowids.get(lostRowids.size() - 1))),
                recovery.sessions().lostRanges());
        assertEquals("recovered-orphans-20261202-060000", recovery.placeholder());
        assertEquals(orphaned, recovery.orphanMessages());
        assertEquals(inspected.orphanMessages(), recovery.orphanMessages());
        assertEquals((long) SESSIONS * MESSAGES_PER_SESSION, recovery.messages().recovered());
        assertEquals(children, recovery.parentsDropped().size());
        assertEquals(orphaned, SqliteFiles.number(target, "SELECT message_count FROM sessions WHERE id = 'recovered-orphans-20261202-060000'"));
        assertEquals(List.of(), recovery.check().problems(), recovery.check().toString());
    }

    @Test
    void aFileCutShortKeepsEveryRowBeforeTheCut() throws Exception {
        Path file = copy();
        List<Long> messageLeaves = leafPages(file, "messages");
        long cut = messageLeaves.get(messageLeaves.size() - 1);
        TreeSet<Long> lostIds = new TreeSet<>();
        for (long leaf : messageLeaves) {
            if (leaf >= cut) {
                lostIds.addAll(rowids(file, leaf));
            }
        }
        assertTrue(leafPages(file, "sessions").stream().allMatch(p -> p < cut), "the sessions lie before the cut");
        long all = SqliteFiles.number(file, "SELECT count(*) FROM messages");
        long pageSize = SqliteFiles.number(file, "PRAGMA page_size");
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.setLength((cut - 1) * pageSize);
        }
        DoctorReport report = StoreDoctor.forFile(file).check();
        assertTrue(report.problemCodes().contains("file.truncated"), report.toString());

        Path target = dir.resolve("recovered.db");
        RecoveryReport recovery = StoreRecovery.recover(file, target, false, CLOCK);
        assertEquals(all - lostIds.size(), recovery.messages().recovered());
        assertEquals(lostIds.first(), recovery.messages().lostRanges().get(0).first());
        assertEquals(1, recovery.messages().lostRanges().size());
        assertEquals(SESSIONS, recovery.sessions().recovered());
        assertEquals(List.of(), recovery.check().problems(), recovery.check().toString());
    }

    /**
     * The agent's own v17 file, opened once by the repository (which adds its window tables), then given
     * rows in the small tables by plain SQL as the agent and the chat memories write them: a window of a
     * session that exists, one of a session that does not, a window entry whose message does not exist.
     * Nothing is damaged: every table must come across row for row, less exactly the dangling rows.
     */
    @Test
    void everyOtherTableOfAnAgentFileComesAcrossRowForRow() throws Exception {
        Path file = v17WithSmallTables();
        Path target = dir.resolve("recovered.db");
        RecoveryReport recovery = StoreRecovery.recover(file, target, false, CLOCK);

        // in the source's schema order: the agent made state_meta and compression_locks, the repository then its windows
        assertEquals(List.of(
                new TableSalvage("state_meta", 4, 0, List.of(), false),
                new TableSalvage("compression_locks", 2, 0, List.of(), false),
                new TableSalvage("hermes_state_window", 2, 1, List.of(), false),
                new TableSalvage("hermes_state_window_message", 4, 1, List.of(), false)), recovery.otherTables());
        assertEquals(List.of(), recovery.check().problems(), recovery.check().toString());
        assertFalse(recovery.anyUnreadable());
        assertEquals(contents(file, "state_meta", ""), contents(target, "state_meta", ""));
        assertEquals(contents(file, "compression_locks", ""), contents(target, "compression_locks", ""));
        assertEquals(contents(file, "hermes_state_window", " WHERE session_id <> 'gone'"),
                contents(target, "hermes_state_window", ""));
        assertEquals(contents(file, "hermes_state_window_message", " WHERE message_id <> 999999"),
                contents(target, "hermes_state_window_message", ""));
        assertEquals(contents(file, "sessions", ""), contents(target, "sessions", ""));
        assertEquals(contents(file, "messages", ""), contents(target, "messages", ""));

        RecoveryReport inspected = StoreRecovery.recover(file, dir.resolve("not-written.db"), true, CLOCK);
        assertEquals(recovery.otherTables(), inspected.otherTables());
    }

    /** A zeroed leaf page of state_meta loses that page's rows only; the rest of it and the other tables come across. */
    @Test
    void aZeroedPageOfStateMetaLosesItsRowsOnly() throws Exception {
        Path file = v17WithSmallTables();
        StringBuilder rows = new StringBuilder("INSERT INTO state_meta (key, value) VALUES ");
        for (int i = 0; i < 60; i++) {
            rows.append(i == 0 ? "" : ", ").append("('bulk:").append(i).append("', '").append("v".repeat(400)).append("')");
        }
        execute(file, rows.toString(), "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA journal_mode = DELETE");
        List<Long> leaves = leafPages(file, "state_meta");
        long page = leaves.get(leaves.size() / 2);
        TreeSet<Long> lostRowids = new TreeSet<>(rowids(file, page));
        long all = SqliteFiles.number(file, "SELECT count(*) FROM state_meta");
        Map<String, String> expected = contents(file, "state_meta", " WHERE rowid NOT IN (" + join(lostRowids) + ")");
        zero(file, page);

        Path target = dir.resolve("recovered.db");
        RecoveryReport recovery = StoreRecovery.recover(file, target, false, CLOCK);
        TableSalvage meta = recovery.otherTables().get(0);
        assertEquals(new TableSalvage("state_meta", all - lostRowids.size(), 0, ranges(lostRowids), false), meta);
        assertTrue(recovery.anyUnreadable());
        assertEquals(expected, contents(target, "state_meta", ""));
        assertEquals(new TableSalvage("hermes_state_window_message", 4, 1, List.of(), false), recovery.otherTables().get(3));
        assertEquals(List.of(), recovery.check().problems(), recovery.check().toString());
    }

    private Path v17WithSmallTables() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        StateRepository.open(file).close();
        String session = Objects.requireNonNull(SqliteFiles.text(file, "SELECT session_id FROM messages ORDER BY id LIMIT 1"));
        String other = Objects.requireNonNull(SqliteFiles.text(file, "SELECT id FROM sessions WHERE id <> '" + session + "' ORDER BY id LIMIT 1"));
        long first = SqliteFiles.number(file, "SELECT min(id) FROM messages WHERE session_id = '" + session + "'");
        long second = SqliteFiles.number(file, "SELECT min(id) FROM messages WHERE session_id = '" + session + "' AND id > " + first);
        execute(file,
                "INSERT INTO state_meta (key, value) VALUES ('goal:recovery-test', '{\"status\": \"active\"}'), ('note', NULL)",
                "INSERT INTO compression_locks (session_id, holder, acquired_at, expires_at) VALUES ('" + other
                        + "', 'pid:77:recovery-test', 1796159200.5, 1796159500.5)",
                "INSERT INTO hermes_state_window (session_id, session_started_at, saved_at) SELECT id, started_at, 1796159300.25"
                        + " FROM sessions WHERE id = '" + session + "'",
                "INSERT INTO hermes_state_window (session_id, session_started_at, saved_at) VALUES ('gone', 1.0, 2.0)",
                "INSERT INTO hermes_state_window_message (session_id, position, message_id) VALUES ('" + session + "', 0, "
                        + first + "), ('" + session + "', 1, " + second + "), ('" + session + "', 2, 999999), ('"
                        + session + "', 3, " + first + ")",
                "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA journal_mode = DELETE");
        return file;
    }

    /**
     * A table's rows, each as its columns' names and values in one string (columns by name: a store the
     * migration created orders them otherwise than the agent's file), counted.
     */
    private static Map<String, String> contents(Path file, String table, String where) throws SQLException {
        Map<String, String> rows = new TreeMap<>();
        try (Connection connection = SqliteFiles.readWrite(file); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT * FROM " + table + where)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, String> row = new TreeMap<>();
                for (int i = 1; i <= columns; i++) {
                    row.put(result.getMetaData().getColumnName(i), String.valueOf(result.getObject(i)));
                }
                rows.merge(row.toString(), "1", (a, b) -> String.valueOf(Integer.parseInt(a) + 1));
            }
        }
        return rows;
    }

    private Path copy() throws IOException {
        Path file = dir.resolve("state.db");
        Files.copy(pristine, file);
        return file;
    }

    /** The table's leaf pages, in page order, from SQLite's dbstat table. */
    private static List<Long> leafPages(Path file, String table) throws SQLException {
        List<Long> pages = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWrite(file); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pageno FROM dbstat WHERE name = '" + table
                     + "' AND pagetype = 'leaf' ORDER BY pageno")) {
            while (rows.next()) {
                pages.add(rows.getLong(1));
            }
        }
        assertTrue(pages.size() >= 3, table + " spans " + pages.size() + " leaf pages");
        return pages;
    }

    /** The rowids of a table b-tree leaf page, read from its cells (sqlite.org/fileformat.html). */
    private static List<Long> rowids(Path file, long page) throws IOException, SQLException {
        int pageSize = (int) SqliteFiles.number(file, "PRAGMA page_size");
        byte[] bytes = new byte[pageSize];
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "r")) {
            raw.seek((page - 1) * pageSize);
            raw.readFully(bytes);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        assertEquals(0x0D, bytes[0], "a table leaf page");
        int cells = buffer.getShort(3) & 0xffff;
        List<Long> rowids = new ArrayList<>();
        for (int i = 0; i < cells; i++) {
            int[] at = {buffer.getShort(8 + 2 * i) & 0xffff};
            varint(bytes, at); // payload size
            rowids.add(varint(bytes, at));
        }
        rowids.sort(null);
        return rowids;
    }

    private static long varint(byte[] bytes, int[] at) {
        long value = 0;
        for (int i = 0; i < 9; i++) {
            int b = bytes[at[0]++] & 0xff;
            if (i == 8) {
                return (value << 8) | b;
            }
            value = (value << 7) | (b & 0x7f);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        return value;
    }

    private static void zero(Path file, long page) {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            int pageSize = (int) SqliteFiles.number(file, "PRAGMA page_size");
            raw.seek((page - 1) * pageSize);
            raw.write(new byte[pageSize]);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<RowidRange> ranges(TreeSet<Long> ids) {
        List<RowidRange> ranges = new ArrayList<>();
        Long first = null;
        Long last = null;
        for (long id : ids) {
            if (last != null && id == last + 1) {
                last = id;
                continue;
            }
            if (first != null) {
                ranges.add(new RowidRange(first, last));
            }
            first = id;
            last = id;
        }
        if (first != null) {
            ranges.add(new RowidRange(first, last));
        }
        return ranges;
    }

    private static String join(TreeSet<Long> ids) {
        return String.join(", ", ids.stream().map(String::valueOf).toList());
    }
}
