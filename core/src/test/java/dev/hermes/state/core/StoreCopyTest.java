package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.CopyProgress;
import dev.hermes.state.core.model.CopyReport;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.model.UnstorableValueException;
import dev.hermes.state.testsupport.Fixtures;
import org.jooq.Field;
import org.jooq.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link StateRepository#copyTo} between SQLite files: every fixture copied exactly (row for row,
 * ids and AUTOINCREMENT counter included), what append does with taken ids and titles, the
 * pre-check that refuses what cannot be copied before anything is written, and parents whose ids
 * sort after their children's.
 */
class StoreCopyTest {
    @TempDir
    Path dir;

    /** The files of the version 1-6 data set (30 sessions, 95 messages), which the expectations below describe. */
    static List<String> fixtures() {
        return Fixtures.NAMES_V1_TO_V6;
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void everyFixtureIsCopiedRowForRow(String name) throws Exception {
        Path source = Fixtures.copy(name, folder("source"));
        Path target = TestStores.newDatabase(folder("target"));
        List<CopyProgress> progress = new ArrayList<>();
        CopyReport report;
        List<SessionExport> originalExport = new ArrayList<>();
        List<SessionExport> copiedExport = new ArrayList<>();
        try (StateRepository from = StateRepository.open(source); StateRepository to = StateRepository.open(target)) {
            report = from.copyTo(to, CopyOptions.intoEmpty().withBatchSessions(7), progress::add);
            from.exportAll(null, originalExport::add);
            to.exportAll(null, copiedExport::add);
            // the full-text index followed the inserts (the MANIFEST's ids)
            assertEquals(List.of(30L, 31L, 79L, 80L), to.searchMessages(SearchQuery.of("docker")).stream()
                    .map(SearchHit::id).sorted().toList());
        }
        assertTrue(report.verified(), report.toString());
        assertEquals(new CopyReport.Side(30, 95, report.source().checksum()), report.source());
        assertEquals(report.source(), report.target());
        assertEquals(List.of(30L, 95L, 30L, 95L, 0L, 0L, 0L, 0L), List.of(report.targetSessions(), report.targetMessages(),
                report.sessionsCopied(), report.messagesCopied(), report.sessionsSkipped(), report.sessionsRenumbered(),
                report.messagesRenumbered(), report.sessionsDiffering()));
        assertEquals(97, report.sourceMessageIdHighWater());
        assertEquals(97, report.targetMessageIdHighWater());
        assertEquals(originalExport, copiedExport);
        assertEquals(new CopyProgress(CopyProgress.Phase.VERIFYING, 30, 30, 95, 95), progress.get(progress.size() - 1));
        assertEquals(List.of(CopyProgress.Phase.CHECKING, CopyProgress.Phase.COPYING, CopyProgress.Phase.VERIFYING),
                progress.stream().map(CopyProgress::phase).distinct().toList());
        // 30 sessions in batches of 7: 5 write transactions
        assertEquals(5, progress.stream().filter(p -> p.phase() == CopyProgress.Phase.COPYING).count());

        try (Connection original = SqliteFiles.readWriteWithForeignKeys(source); Connection copy = SqliteFiles.readWriteWithForeignKeys(target)) {
            for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
                // every column the source's table has (the fixtures are version-6 files)
                String select = "SELECT " + rows(original, "SELECT name FROM pragma_table_info('" + table.getName() + "')")
                        .stream().map(row -> (String) row.get(0)).collect(Collectors.joining(", "))
                        + " FROM " + table.getName() + " ORDER BY id";
                List<List<Object>> originalRows = rows(original, select);
                assertEquals(table == SESSIONS ? 30 : 95, originalRows.size());
                assertEquals(originalRows, rows(copy, select), table.getName());
            }
        }
        // AUTOINCREMENT goes on past the source's counter: 97, the largest id ever used (51 and 52 were deleted)
        try (StateRepository to = StateRepository.open(target)) {
            to.createSession("after-copy", "cli");
            assertEquals(98L, to.appendMessage("after-copy", NewMessage.of("user", "next")));
        }
    }

    @Test
    void refusesATargetThatHoldsSessionsUnlessAppending() throws Exception {
        try (StateRepository from = store("source"); StateRepository to = store("target")) {
            from.createSession("s1", "cli");
            to.createSession("other", "cli");
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertEquals("The target already holds 1 sessions and 0 messages: copy into an empty store, or add to this"
                    + " one (and resume an interrupted copy) with append (--append)", refused.getMessage());
            assertEquals(1, to.sessionCount());

            assertThrows(InvalidArgumentException.class, () -> from.copyTo(from, CopyOptions.appending(), null));
            assertTrue(from.copyTo(to, CopyOptions.appending(), null).verified());
            assertEquals(2, to.sessionCount());
        }
    }

    @Test
    void theSameFileIsNotACopy() throws Exception {
        Path file = TestStores.newDatabase(folder("one"));
        Path link = folder("two").resolve("link.db");
        Files.createSymbolicLink(link, file);
        try (StateRepository a = StateRepository.open(file); StateRepository b = StateRepository.open(link)) {
            a.createSession("s1", "cli");
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> a.copyTo(b, CopyOptions.appending(), null));
            assertEquals("The source and the target of a copy are the same store", refused.getMessage());
        }
    }

    /**
     * Append: a session the target has is skipped (left as it is); a copied session whose message ids
     * are taken gets new ones, all of them, in its (timestamp, id) order; the others keep theirs; the
     * verification counts the skipped session that differs.
     */
    @Test
    void appendSkipsSessionsTheTargetHasAndRenumbersTakenMessageIds() throws Exception {
        try (StateRepository from = store("source"); StateRepository to = store("target")) {
            from.createSession("shared", "cli");
            from.appendMessage("shared", NewMessage.of("user", "source version"));           // id 1
            from.createSession("a-new", "cli");
            from.appendMessages("a-new", List.of(NewMessage.of("user", "one"), NewMessage.of("assistant", "two"),
                    NewMessage.of("user", "three")));                                             // ids 2, 3, 4 (one timestamp)
            from.createSession("z-new", "cli");
            for (int i = 0; i < 3; i++) {
                from.appendMessage("z-new", NewMessage.of("user", "z" + i));                     // ids 5, 6, 7
            }
            to.createSession("shared", "telegram");
            to.appendMessage("shared", NewMessage.of("user", "target version"));               // id 1
            to.appendMessage("shared", NewMessage.of("assistant", "taken"));                   // id 2

            CopyReport report = from.copyTo(to, CopyOptions.appending(), null);

            assertEquals(List.of(2L, 6L, 1L, 1L, 3L, 1L), List.of(report.sessionsCopied(), report.messagesCopied(),
                    report.sessionsSkipped(), report.sessionsRenumbered(), report.messagesRenumbered(),
                    report.sessionsDiffering()));
            assertEquals(List.of("shared"), report.differingExamples());
            assertFalse(report.verified());
            assertEquals(List.of(3L, 8L), List.of(report.targetSessions(), report.targetMessages()));
            // the target's own session is untouched
            assertEquals("telegram", to.getSession("shared").orElseThrow().source());
            assertEquals(List.of("target version", "taken"), contents(to.getMessages("shared")));
            // a-new's ids 2..4: 2 was taken, so all three were renumbered after the kept ids 5..7, in order
            assertEquals(List.of(8L, 9L, 10L), to.getMessages("a-new").stream().map(Message::id).toList());
            assertEquals(List.of("one", "two", "three"), contents(to.getMessages("a-new")));
            assertEquals(List.of(5L, 6L, 7L), to.getMessages("z-new").stream().map(Message::id).toList());
            assertEquals(3, to.getSession("a-new").orElseThrow().messageCount());
            assertEquals(11L, to.appendMessage("z-new", NewMessage.of("user", "next")));
        }
    }

    @Test
    void appendRefusesATitleTheTargetUsesAndWritesNothingOfThatBatch() throws Exception {
        try (StateRepository from = store("source"); StateRepository to = store("target")) {
            from.createSession("s1", "cli");
            from.setSessionTitle("s1", "my project");
            from.createSession("s2", "cli");
            to.createSession("mine", "cli");
            to.setSessionTitle("mine", "my project");
            ConstraintViolationException refused = assertThrows(ConstraintViolationException.class,
                    () -> from.copyTo(to, CopyOptions.appending(), null));
            assertEquals("Cannot append session s1: its title 'my project' is already used by session mine in the target"
                    + " (titles are unique); the sessions of this batch were not written", refused.getMessage());
            assertEquals(1, to.sessionCount());
        }
    }

    /** A parent whose id sorts after its child's is written first, with its messages, and skipped when its page comes. */
    @Test
    void parentsAreWrittenBeforeTheirChildrenWhateverTheirIds() throws Exception {
        try (StateRepository from = store("source"); StateRepository to = store("target")) {
            from.createSession("z-root", "cli");
            from.appendMessage("z-root", NewMessage.of("user", "root"));
            from.createSession(NewSession.builder("m-child", "cli").parentSessionId("z-root").build());
            from.createSession(NewSession.builder("a-grandchild", "cli").parentSessionId("m-child").build());
            from.appendMessage("a-grandchild", NewMessage.of("user", "grandchild"));
            from.createSession("b-other", "cli");

            CopyReport report = from.copyTo(to, CopyOptions.intoEmpty().withBatchSessions(1), null);

            assertTrue(report.verified(), report.toString());
            assertEquals(List.of(4L, 2L, 0L), List.of(report.sessionsCopied(), report.messagesCopied(), report.sessionsSkipped()));
            assertEquals(List.of("a-grandchild", "m-child", "z-root"), to.getAncestors("a-grandchild").stream()
                    .map(node -> node.session().id()).toList());
        }
    }

    @Test
    void invalidUtf8IsRefusedBeforeAnythingIsWritten() throws Exception {
        Path source = TestStores.newDatabase(folder("source"));
        try (StateRepository from = StateRepository.open(source)) {
            from.createSession("a-fine", "cli");
            from.appendMessage("a-fine", NewMessage.of("user", "fine"));
            from.createSession("b-broken", "cli");
            from.appendMessage("b-broken", NewMessage.of("user", "placeholder"));
        }
        try (Connection plain = SqliteFiles.readWriteWithForeignKeys(source); Statement statement = plain.createStatement()) {
            // "caf" + a lone 0xE9 (Latin-1 é), as a program writing bytes through the C API may leave it
            statement.executeUpdate("UPDATE messages SET content = CAST(x'636166e9' AS TEXT) WHERE session_id = 'b-broken'");
        }
        try (StateRepository from = StateRepository.open(source); StateRepository to = store("target")) {
            UnstorableValueException refused = assertThrows(UnstorableValueException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertEquals("Cannot copy message 2 of session b-broken: its content is not valid UTF-8 (byte 0xE9 at byte 3"
                    + " of 4); copying it would change it. Nothing was copied; fix the value in the source (or delete the"
                    + " message) and copy again", refused.getMessage());
            assertEquals(List.of("b-broken", "content"), List.of(refused.sessionId(), refused.column()));
            assertEquals(2L, refused.messageId());
            assertEquals(0, to.sessionCount());
        }
    }

    /** SQLite stores U+0000 in text; a SQLite target takes it as it is. */
    @Test
    void aNulCharacterCopiesToSqlite() throws Exception {
        try (StateRepository from = store("source"); StateRepository to = store("target")) {
            from.createSession("s1", "cli");
            from.appendMessage("s1", NewMessage.of("tool", "before\u0000after"));
            assertTrue(from.copyTo(to, CopyOptions.intoEmpty(), null).verified());
            assertEquals("before\u0000after", to.getMessages("s1").get(0).text());
        }
    }

    @Test
    void aParentThatDoesNotExistOrACycleIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path source = TestStores.newDatabase(folder("source"));
        try (StateRepository from = StateRepository.open(source)) {
            from.createSession("a-fine", "cli");
        }
        try (Connection plain = SqliteFiles.readWriteWithForeignKeys(source); Statement statement = plain.createStatement()) {
            statement.execute("PRAGMA foreign_keys = OFF");
            statement.executeUpdate("INSERT INTO sessions (id, source, started_at, parent_session_id) VALUES ('orphan', 'cli', 1, 'gone')");
        }
        try (StateRepository from = StateRepository.open(source); StateRepository to = store("target")) {
            UnstorableValueException refused = assertThrows(UnstorableValueException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertEquals("Cannot copy session orphan: its parent_session_id names the parent session 'gone', which is not"
                    + " in the source (the target refuses a parent that does not exist). Nothing was copied; fix the value"
                    + " in the source (or delete the session) and copy again", refused.getMessage());
            assertNull(refused.messageId());
            assertEquals(0, to.sessionCount());
        }
        try (Connection plain = SqliteFiles.readWriteWithForeignKeys(source); Statement statement = plain.createStatement()) {
            statement.execute("PRAGMA foreign_keys = OFF");
            statement.executeUpdate("INSERT INTO sessions (id, source, started_at, parent_session_id) VALUES ('gone', 'cli', 1, 'orphan')");
        }
        try (StateRepository from = StateRepository.open(source); StateRepository to = store("target")) {
            UnstorableValueException refused = assertThrows(UnstorableValueException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertTrue(refused.getMessage().contains("its parent_session_id leads into a cycle of parents"), refused.getMessage());
            assertEquals(0, to.sessionCount());
        }
    }

    private StateRepository store(String name) throws Exception {
        return StateRepository.open(TestStores.newDatabase(folder(name)));
    }

    private Path folder(String name) throws Exception {
        return Files.createDirectories(dir.resolve(name));
    }

    private static List<String> contents(List<Message> messages) {
        return messages.stream().map(Message::text).toList();
    }

    /** Every row, every column as the driver returns it (integers as Long). */
    static List<List<Object>> rows(Connection connection, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    Object value = result.getObject(i);
                    row.add(value instanceof Integer small ? Long.valueOf(small) : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    // ------------------------------------------------------------------ schema 17

    /**
     * The agent's own v17 file copied into a new store at 17: every column of every row arrives, the
     * flags, the multimodal content and the coordination columns included.
     */
    @Test
    void aVersion17FileIsCopiedWithEveryColumn() throws Exception {
        Path source = Fixtures.copy("state-v17.db", folder("source"));
        Path target = TestStores.newDatabase(folder("target"), 17);
        CopyReport report;
        try (StateRepository from = StateRepository.builder().path(source).readOnly(true).schemaVersion(17).build();
             StateRepository to = StateRepository.builder().path(target).schemaVersion(17).build()) {
            report = from.copyTo(to, CopyOptions.intoEmpty(), null);
        }
        assertTrue(report.verified(), report.toString());
        assertEquals(new CopyReport.Side(43, 140, report.source().checksum()), report.source());
        assertEquals(report.source(), report.target());
        try (Connection original = SqliteFiles.readWriteWithForeignKeys(source); Connection copy = SqliteFiles.readWriteWithForeignKeys(target)) {
            for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
                String select = "SELECT " + Stream.of(table.fields()).map(Field::getName).collect(Collectors.joining(", "))
                        + " FROM " + table.getName() + " ORDER BY id";
                assertEquals(rows(original, select), rows(copy, select), table.getName());
            }
            // the multimodal rows kept the agent's NUL marker byte for byte
            assertEquals(List.of(List.of(135L), List.of(137L)),
                    rows(copy, "SELECT id FROM messages WHERE hex(substr(CAST(content AS BLOB), 1, 6)) = '006A736F6E3A' ORDER BY id"));
        }
    }

    /** A store kept at 6 cannot hold what a version-17 source has: refused before anything is written. */
    @Test
    void aTargetKeptAtSixIsRefusedForAVersion17Source() throws Exception {
        Path source = Fixtures.copy("state-v17.db", folder("source"));
        Path target = TestStores.newDatabase(folder("target"), 6);
        String before = Fixtures.sha256(target);
        try (StateRepository from = StateRepository.builder().path(source).readOnly(true).schemaVersion(17).build();
             StateRepository to = StateRepository.builder().path(target).schemaVersion(6).build()) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertTrue(refused.getMessage().contains("lacks columns the source has")
                    && refused.getMessage().contains("messages.active"), refused.getMessage());
        }
        assertEquals(before, Fixtures.sha256(target));
    }

    /** A column this version does not know (the agent's short-lived anthropic_content_blocks) holding values. */
    @Test
    void aSourceWithValuesInAnUnknownColumnIsRefused() throws Exception {
        Path source = Fixtures.copy("state-v17.db", folder("source"));
        SqliteFiles.execute(source, "ALTER TABLE messages ADD COLUMN anthropic_content_blocks TEXT",
                "UPDATE messages SET anthropic_content_blocks = '[]' WHERE id = 99");
        Path target = TestStores.newDatabase(folder("target"), 17);
        try (StateRepository from = StateRepository.builder().path(source).readOnly(true).schemaVersion(17).build();
             StateRepository to = StateRepository.builder().path(target).schemaVersion(17).build()) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> from.copyTo(to, CopyOptions.intoEmpty(), null));
            assertTrue(refused.getMessage().contains("messages.anthropic_content_blocks"), refused.getMessage());
            assertEquals(0, to.sessionCount());
        }
        // without values the column holds nothing to lose: the copy goes ahead
        SqliteFiles.execute(source, "UPDATE messages SET anthropic_content_blocks = NULL");
        try (StateRepository from = StateRepository.builder().path(source).readOnly(true).schemaVersion(17).build();
             StateRepository to = StateRepository.builder().path(target).schemaVersion(17).build()) {
            assertTrue(from.copyTo(to, CopyOptions.intoEmpty(), null).verified());
        }
    }
}
