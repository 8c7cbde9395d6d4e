package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Conversation windows: what a chat memory saves and loads (memory/DESIGN-memory.md). */
class ConversationWindowsTest {
    private static final Map<String, Object> CALL = Map.of("id", "call_1", "type", "function",
            "function", Map.of("name", "lookup", "arguments", "{\"n\": 1}"));

    @TempDir
    Path dir;

    private static WindowEntry fresh(String role, String content) {
        return WindowEntry.fresh(NewMessage.of(role, content));
    }

    /** The entries a memory saves after loading {@code loaded}: each loaded row kept, as it reads. */
    private static List<WindowEntry> kept(List<Message> loaded) {
        List<WindowEntry> entries = new ArrayList<>();
        for (Message row : loaded) {
            entries.add(WindowEntry.stored(row.id(), NewMessage.builder(row.role()).content(row.content())
                    .toolCallId(row.toolCallId()).toolName(row.toolName()).toolCalls(row.toolCalls()).build()));
        }
        return entries;
    }

    private static List<WindowEntry> plus(List<WindowEntry> entries, WindowEntry... more) {
        List<WindowEntry> all = new ArrayList<>(entries);
        all.addAll(List.of(more));
        return all;
    }

    private static List<String> contents(List<Message> messages) {
        return messages.stream().map(Message::text).toList();
    }

    @Test
    void theFirstSaveCreatesTheSessionAndALoadReturnsExactlyTheWindowAfterARestartToo() throws Exception {
        Path file;
        try (StateRepository store = TestStores.fresh(dir)) {
            file = store.path().orElseThrow();
            SavedWindow saved = store.saveConversationWindow("c1", "spring-ai", List.of(fresh("system", "Be terse."),
                    fresh("user", "where is the kestrel nest?"),
                    WindowEntry.fresh(NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL))).build()),
                    WindowEntry.fresh(NewMessage.builder("tool").content("on the tower").toolCallId("call_1").toolName("lookup").build())));
            assertEquals("c1", saved.sessionId());
            assertEquals(4, saved.appended());
            assertFalse(saved.continuedInChild());
            Session session = store.getSession("c1").orElseThrow();
            assertEquals("spring-ai", session.source());
            assertEquals(4L, session.messageCount());
            assertEquals(1L, session.toolCallCount());
            assertEquals(store.getMessages("c1"), store.loadConversationWindow("c1"));
            assertEquals(saved.messageIds(), store.loadConversationWindow("c1").stream().map(Message::id).toList());
        }
        try (StateRepository reopened = StateRepository.open(file)) {
            List<Message> window = reopened.loadConversationWindow("c1");
            assertEquals(Arrays.asList("Be terse.", "where is the kestrel nest?", "", "on the tower"), contents(window));
            assertEquals(List.of(CALL), window.get(2).toolCalls().value());
            assertEquals("call_1", window.get(3).toolCallId());
        }
        try (StateRepository readOnly = StateRepository.openReadOnly(file)) {
            assertEquals(4, readOnly.loadConversationWindow("c1").size());
        }
    }

    @Test
    void aTrimmedAndExtendedWindowAppendsOnlyTheNewMessageAndTheDroppedOnesStaySearchable() throws Exception {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.saveConversationWindow("c1", "langchain4j", List.of(fresh("user", "first about the kestrel"),
                    fresh("assistant", "ok"), fresh("user", "second")));
            List<Message> loaded = store.loadConversationWindow("c1");

            // the memory drops the oldest, keeps two, adds one: the same "ok" again is a new message
            SavedWindow saved = store.saveConversationWindow("c1", "langchain4j",
                    plus(kept(loaded.subList(1, 3)), fresh("assistant", "ok")));
            assertEquals(1, saved.appended());
            assertFalse(saved.continuedInChild());
            assertEquals(List.of("ok", "second", "ok"), contents(store.loadConversationWindow("c1")));
            assertEquals(List.of(loaded.get(1).id(), loaded.get(2).id()), saved.messageIds().subList(0, 2));
            assertEquals(4, store.messageCount("c1"));
            assertEquals(4L, SqliteFiles.number(store.path().orElseThrow(), "SELECT message_count FROM sessions WHERE id = 'c1'"));
            List<SearchHit> hits = store.searchMessages(SearchQuery.of("kestrel"));
            assertEquals(List.of(loaded.get(0).id()), hits.stream().map(SearchHit::id).toList());

            // a window saved again unchanged writes no message
            assertEquals(0, store.saveConversationWindow("c1", "langchain4j", kept(store.loadConversationWindow("c1"))).appended());
            assertEquals(4, store.messageCount("c1"));
        }
    }

    @Test
    void aSaveWritesOnlyTheWindowRowsThatChangedAndLoadsStayInWindowOrder() throws Exception {
        try (StateRepository store = TestStores.fresh(dir)) {
            Path file = store.path().orElseThrow();
            store.saveConversationWindow("c1", "spring-ai", List.of(fresh("system", "Be terse."), fresh("user", "q1"),
                    fresh("assistant", "a1"), fresh("user", "q2")));
            List<Message> loaded = store.loadConversationWindow("c1");
            assertEquals("0:s 1:q1 2:a1 3:q2", rows(file));

            // Spring AI's eviction: the system message stays, the oldest other one goes, the new one comes last
            store.saveConversationWindow("c1", "spring-ai", plus(List.of(kept(loaded).get(0)),
                    plus(kept(loaded.subList(2, 4)), fresh("assistant", "a2")).toArray(WindowEntry[]::new)));
            assertEquals("0:s 2:a1 3:q2 4:a2", rows(file), "the kept rows keep their positions");
            assertEquals(List.of("Be terse.", "a1", "q2", "a2"), contents(store.loadConversationWindow("c1")));

            // the system message moved to the end: the rows from it on are placed again after the last one
            List<Message> window = store.loadConversationWindow("c1");
            store.saveConversationWindow("c1", "spring-ai", plus(kept(window.subList(1, 4)), kept(window).get(0)));
            assertEquals("2:a1 3:q2 4:a2 5:s", rows(file));
            assertEquals(List.of("a1", "q2", "a2", "Be terse."), contents(store.loadConversationWindow("c1")));

            // unchanged: no row is written; emptied: none is left
            store.saveConversationWindow("c1", "spring-ai", kept(store.loadConversationWindow("c1")));
            assertEquals("2:a1 3:q2 4:a2 5:s", rows(file));
            store.saveConversationWindow("c1", "spring-ai", List.of());
            assertEquals("", rows(file));
            assertEquals(List.of(), store.loadConversationWindow("c1"));
            assertEquals(5, store.messageCount("c1"));
        }
    }

    @Test
    void theWindowTablesHoldTheRowsEachSaveLeavesAddingAndDroppingSeveralAtOnce() throws Exception {
        for (int version : new int[]{6, 17}) {
            Path folder = dir.resolve("v" + version);
            java.nio.file.Files.createDirectories(folder);
            try (StateRepository store = TestStores.fresh(folder, new TestStores.TickingClock(TestStores.EPOCH,
                    Duration.ofMillis(1)), version)) {
                Path file = store.path().orElseThrow();
                List<Double> savedAt = new ArrayList<>();
                store.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "q1"), fresh("assistant", "a1"),
                        fresh("user", "q2")));
                assertEquals("0:q1 1:a1 2:q2", rows(file));
                savedAt.add(stamp(file));
                List<Message> w = store.loadConversationWindow("c1");
                // one dropped, two added: the dropped row is reused for the first, the second is a new row
                store.saveConversationWindow("c1", "spring-ai", plus(kept(w.subList(1, 3)), fresh("assistant", "a2"),
                        fresh("user", "q3")));
                assertEquals("1:a1 2:q2 3:a2 4:q3", rows(file));
                savedAt.add(stamp(file));
                w = store.loadConversationWindow("c1");
                // three dropped, one added
                store.saveConversationWindow("c1", "spring-ai", plus(kept(w.subList(3, 4)), fresh("assistant", "a3")));
                assertEquals("4:q3 5:a3", rows(file));
                savedAt.add(stamp(file));
                // unchanged: only the time of the save changes
                store.saveConversationWindow("c1", "spring-ai", kept(store.loadConversationWindow("c1")));
                assertEquals("4:q3 5:a3", rows(file));
                savedAt.add(stamp(file));
                w = store.loadConversationWindow("c1");
                store.saveConversationWindow("c1", "spring-ai", plus(kept(w.subList(1, 2)), fresh("user", "q4"),
                        fresh("assistant", "a4"), fresh("user", "q5")));
                assertEquals("5:a3 6:q4 7:a4 8:q5", rows(file));
                savedAt.add(stamp(file));
                for (int i = 1; i < savedAt.size(); i++) {
                    assertTrue(savedAt.get(i) > savedAt.get(i - 1), savedAt.toString());
                }
                assertEquals("c1|1", SqliteFiles.text(file, "SELECT group_concat(w.session_id || '|' ||"
                        + " (w.session_started_at = s.started_at)) FROM hermes_state_window w JOIN sessions s ON s.id = w.session_id"));
                assertEquals(1L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window"));
                assertEquals(9L, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = 'c1'"));
                assertEquals(4L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message"));
                assertEquals(List.of("a3", "q4", "a4", "q5"), contents(store.loadConversationWindow("c1")));
            }
        }
    }

    /** The saved_at of c1's window. */
    private static double stamp(Path file) throws Exception {
        return ((Number) SqliteFiles.single(file, "SELECT saved_at FROM hermes_state_window WHERE session_id = 'c1'")).doubleValue();
    }

    /** The window rows of c1 as {@code position:text}, system messages as {@code s}, in position order. */
    private static String rows(Path file) throws Exception {
        return SqliteFiles.text(file, "SELECT coalesce(group_concat(p, ' '), '') FROM (SELECT w.position || ':'"
                + " || CASE m.role WHEN 'system' THEN 's' ELSE m.content END AS p FROM hermes_state_window_message w"
                + " JOIN messages m ON m.id = w.message_id WHERE w.session_id = 'c1' ORDER BY w.position)");
    }

    @Test
    void aWindowLargerThanOneStatementsRowsIsKeptWhole() {
        try (StateRepository store = TestStores.fresh(dir)) {
            List<WindowEntry> many = new ArrayList<>();
            for (int i = 0; i < 1201; i++) {
                many.add(fresh(i % 2 == 0 ? "user" : "assistant", "message " + i));
            }
            assertEquals(1201, store.saveConversationWindow("big", "spring-ai", many).appended());
            List<Message> loaded = store.loadConversationWindow("big");
            assertEquals(many.stream().map(entry -> entry.message().text()).toList(), contents(loaded));

            SavedWindow saved = store.saveConversationWindow("big", "spring-ai",
                    plus(kept(loaded.subList(1, 1201)), fresh("user", "message 1201")));
            assertEquals(1, saved.appended());
            assertFalse(saved.continuedInChild());
            assertEquals(1201, store.loadConversationWindow("big").size());
            assertEquals("message 1", store.loadConversationWindow("big").get(0).text());
            assertEquals(1202, store.messageCount("big"));
        }
    }

    @Test
    void anEmptyWindowIsAWindowAndNothingIsDeleted() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "a"), fresh("assistant", "b")));
            SavedWindow empty = store.saveConversationWindow("c1", "spring-ai", List.of());
            assertEquals(List.of(), empty.messageIds());
            assertEquals(List.of(), store.loadConversationWindow("c1"));
            assertEquals(2, store.messageCount("c1"));
            assertEquals(List.of(), store.loadConversationWindow("never-saved"));
        }
    }

    @Test
    void aNewSystemMessageMaySitAnywhereOtherNewMessagesComeLast() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.saveConversationWindow("c1", "langchain4j", List.of(fresh("system", "Be brief."), fresh("user", "q1"),
                    fresh("assistant", "a1")));
            List<Message> loaded = store.loadConversationWindow("c1");
            // LangChain4j's alwaysKeepSystemMessageFirst: the new system message replaces the old one at the head
            SavedWindow systemFirst = store.saveConversationWindow("c1", "langchain4j",
                    plus(List.of(fresh("system", "Be thorough.")), kept(loaded.subList(1, 3)).toArray(WindowEntry[]::new)));
            assertFalse(systemFirst.continuedInChild());
            // its row is newer than the rows after it, and the next add still extends the window
            SavedWindow next = store.saveConversationWindow("c1", "langchain4j",
                    plus(kept(store.loadConversationWindow("c1")), fresh("user", "q2")));
            assertFalse(next.continuedInChild());
            assertEquals(List.of("Be thorough.", "q1", "a1", "q2"), contents(store.loadConversationWindow("c1")));
            // Spring AI's way: a new system message at the end, the old one out of the window
            List<Message> window = store.loadConversationWindow("c1");
            SavedWindow systemLast = store.saveConversationWindow("c1", "langchain4j",
                    plus(kept(window.subList(1, 4)), fresh("system", "Be kind.")));
            assertFalse(systemLast.continuedInChild());
            assertEquals(List.of("q1", "a1", "q2", "Be kind."), contents(store.loadConversationWindow("c1")));
            assertEquals(6, store.messageCount("c1"));
            assertEquals(1, store.sessionCount());
        }
    }

    @Test
    void rewrittenHistoryContinuesInACompressionChildThatTheConversationIdStillNames() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.createSession(NewSession.builder("c1", "spring-ai").model("gpt-x").systemPrompt("Be terse.").build());
            store.setSessionTitle("c1", "trip planning");
            store.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "plan a trip"), fresh("assistant", "where to?"),
                    fresh("user", "Lisbon")));
            List<Message> loaded = store.loadConversationWindow("c1");
            // the application edits the middle message: a new object where a stored one was
            List<WindowEntry> edited = List.of(kept(loaded).get(0), fresh("assistant", "Where would you like to go?"),
                    kept(loaded).get(2));

            SavedWindow saved = store.saveConversationWindow("c1", "spring-ai", edited);

            assertTrue(saved.continuedInChild());
            assertEquals(3, saved.appended());
            String child = saved.sessionId();
            assertTrue(child.matches("\\d{8}_\\d{6}_[0-9a-f]{6}"), child);
            Session root = store.getSession("c1").orElseThrow();
            assertEquals("compression", root.endReason());
            Session continued = store.getSession(child).orElseThrow();
            assertEquals("c1", continued.parentSessionId());
            assertEquals(root.endedAt(), continued.startedAt());
            assertNull(continued.endedAt());
            assertEquals("spring-ai", continued.source());
            assertEquals("gpt-x", continued.model());
            assertEquals("Be terse.", continued.systemPrompt());
            assertEquals("trip planning #2", continued.title());
            assertEquals(child, store.getCompressionTip("c1"));
            assertEquals(List.of("plan a trip", "Where would you like to go?", "Lisbon"), contents(store.loadConversationWindow("c1")));
            assertEquals(3, store.messageCount("c1"), "the root keeps its history");
            assertEquals(3, store.messageCount(child));

            // the conversation goes on in the child
            SavedWindow next = store.saveConversationWindow("c1", "spring-ai",
                    plus(kept(store.loadConversationWindow("c1")), fresh("assistant", "Lisbon it is.")));
            assertEquals(child, next.sessionId());
            assertFalse(next.continuedInChild());
            assertEquals(4, store.messageCount(child));

            // a reordering and a message inserted into the past are rewrites too
            List<WindowEntry> current = kept(store.loadConversationWindow("c1"));
            assertTrue(store.saveConversationWindow("c1", "spring-ai", List.of(current.get(1), current.get(0))).continuedInChild());
            current = kept(store.loadConversationWindow("c1"));
            assertTrue(store.saveConversationWindow("c1", "spring-ai",
                    List.of(current.get(0), fresh("user", "forgotten"), current.get(1))).continuedInChild());
            assertEquals(4, store.sessionCount());
            assertEquals(List.of("Where would you like to go?", "forgotten", "plan a trip"),
                    contents(store.loadConversationWindow("c1")));

            assertTrue(store.deleteConversation("c1"));
            assertEquals(0, store.sessionCount());
            assertEquals(0, store.messageCount(null));
            assertFalse(store.deleteConversation("c1"));
        }
    }

    @Test
    void aRowOfAnotherConversationOrAGoneRowIsANewMessageNeverAnError() {
        try (StateRepository store = TestStores.fresh(dir)) {
            store.saveConversationWindow("other", "cli", List.of(fresh("user", "not yours")));
            Message foreign = store.loadConversationWindow("other").get(0);
            SavedWindow saved = store.saveConversationWindow("c1", "spring-ai", List.of(
                    WindowEntry.stored(foreign.id(), NewMessage.of("user", "not yours")),
                    WindowEntry.stored(999_999L, NewMessage.of("assistant", "made up"))));
            assertFalse(saved.continuedInChild());
            assertEquals(2, saved.appended());
            assertEquals(List.of("not yours", "made up"), contents(store.loadConversationWindow("c1")));
            assertEquals(1, store.messageCount("other"));
        }
    }

    @Test
    void aSessionWrittenWithoutAWindowHasAllItsMessagesAsItsWindowAndAFirstSaveKeepsThem() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        try (StateRepository store = StateRepository.open(copy)) {
            String session = "20260311_080000_2133b2"; // six messages, tool calls in the Python agent's JSON spacing
            List<Message> loaded = store.loadConversationWindow(session);
            assertEquals(store.getMessages(session), loaded);
            assertEquals(6, loaded.size());
            SavedWindow saved = store.saveConversationWindow(session, "cli", plus(kept(loaded), fresh("user", "and now?")));
            assertFalse(saved.continuedInChild(), "the Python agent's rows read as the memory's entries");
            assertEquals(1, saved.appended());
            assertEquals(7, store.messageCount(session));
            // a compression chain the Python agent made: the window is its tip's messages
            assertEquals(store.getMessages("20260310_135900_0957cb"), store.loadConversationWindow("20260310_090000_8520da"));
        }
    }

    @Test
    void aReadOnlyOpenOfAFileWithoutTheWindowTablesLoadsAndAStoreThatMayNotMigrateRefusesToSave() throws Exception {
        Path copy = Fixtures.copy("state-v6.db", dir);
        try (StateRepository readOnly = StateRepository.openReadOnly(copy)) {
            assertEquals(readOnly.getMessages("20260311_080000_2133b2"), readOnly.loadConversationWindow("20260311_080000_2133b2"));
        }
        try (StateRepository notMigrated = StateRepository.builder().path(copy).migrate(false).build()) {
            assertEquals(6, notMigrated.loadConversationWindow("20260311_080000_2133b2").size());
            StateIOException refused = assertThrows(StateIOException.class,
                    () -> notMigrated.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "hi"))));
            assertTrue(refused.getMessage().contains("no tables for conversation windows"), refused.getMessage());
            assertTrue(notMigrated.getSession("c1").isEmpty(), "nothing was written");
            assertTrue(notMigrated.deleteSession("20260311_080000_2133b2"), "deletes work without the tables");
            notMigrated.clearMessages("20260311_122852_b6ebb0");
        }
        try (StateRepository migrated = StateRepository.open(copy)) {
            migrated.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "hi")));
            assertEquals(List.of("hi"), contents(migrated.loadConversationWindow("c1")));
        }
    }

    @Test
    void deletesClearsAndPrunesTakeTheWindowsWithThem() throws Exception {
        TestStores.TickingClock clock = new TestStores.TickingClock(TestStores.EPOCH, Duration.ofMillis(1));
        try (StateRepository store = TestStores.fresh(dir, clock)) {
            Path file = store.path().orElseThrow();
            for (String id : List.of("deleted", "cleared", "pruned", "kept")) {
                store.saveConversationWindow(id, "spring-ai", List.of(fresh("user", "hello " + id)));
            }
            store.createSession(NewSession.builder("delegate", "cli").parentSessionId("kept").build());
            assertTrue(store.deleteSession("deleted"));
            store.clearMessages("cleared");
            store.endSession("pruned", "cli_close");
            clock.advance(Duration.ofDays(2));
            assertEquals(1, store.pruneSessions(Duration.ofDays(1), null).count());
            assertEquals(List.of(), store.loadConversationWindow("cleared"));
            assertEquals("kept", SqliteFiles.text(file, "SELECT group_concat(session_id) FROM hermes_state_window"));
            assertEquals(1L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message"));

            // a conversation's delete: its sessions, messages and windows; a delegate becomes a root
            assertTrue(store.deleteConversation("kept"));
            assertEquals(List.of("delegate", "cleared"), store.searchSessions(new SearchSessionsQuery(null, 10, 0)).stream().map(Session::id).toList());
            assertNull(store.getSession("delegate").orElseThrow().parentSessionId());
            assertEquals(0L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window"));
            assertEquals(0L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message"));
        }
    }

    @Test
    void windowRowsLeftByAnotherWritersDeletesAreSkippedIgnoredAndPrunedAway() throws Exception {
        TestStores.TickingClock clock = new TestStores.TickingClock(TestStores.EPOCH, Duration.ofMillis(1));
        try (StateRepository store = TestStores.fresh(dir, clock)) {
            Path file = store.path().orElseThrow();
            store.saveConversationWindow("c1", "spring-ai", List.of(fresh("user", "a"), fresh("assistant", "b")));
            long first = store.loadConversationWindow("c1").get(0).id();
            // the Python agent's statements know nothing of the window tables
            SqliteFiles.execute(file, "DELETE FROM messages WHERE id = " + first);
            assertEquals(List.of("b"), contents(store.loadConversationWindow("c1")));

            SqliteFiles.execute(file, "DELETE FROM messages WHERE session_id = 'c1'", "DELETE FROM sessions WHERE id = 'c1'");
            clock.advance(Duration.ofSeconds(5));
            store.createSession("c1", "cli");
            store.appendMessage("c1", NewMessage.of("user", "a new session of the same id"));
            assertEquals(List.of("a new session of the same id"), contents(store.loadConversationWindow("c1")),
                    "the window of a deleted session of the same id is not this session's");

            SqliteFiles.execute(file, "DELETE FROM messages WHERE session_id = 'c1'", "DELETE FROM sessions WHERE id = 'c1'");
            assertEquals(0, store.pruneSessions(Duration.ofDays(1), null).count());
            assertEquals(0L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window"));
            assertEquals(0L, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message"));
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsWritten() {
        try (StateRepository store = TestStores.fresh(dir)) {
            assertThrows(InvalidArgumentException.class, () -> store.saveConversationWindow(" ", "spring-ai", List.of()));
            assertThrows(InvalidArgumentException.class, () -> store.saveConversationWindow("c1", " ", List.of()));
            assertThrows(InvalidArgumentException.class, () -> store.saveConversationWindow("c1", "spring-ai", null));
            assertThrows(InvalidArgumentException.class,
                    () -> store.saveConversationWindow("c1", "spring-ai", Arrays.asList(fresh("user", "a"), null)));
            assertThrows(InvalidArgumentException.class,
                    () -> store.saveConversationWindow("c1", "spring-ai", List.of(fresh(" ", "no role"))));
            assertThrows(InvalidArgumentException.class, () -> store.loadConversationWindow(null));
            assertThrows(InvalidArgumentException.class, () -> store.deleteConversation(""));
            assertEquals(0, store.sessionCount());
        }
    }
}
