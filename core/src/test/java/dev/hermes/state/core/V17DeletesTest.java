package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.WindowEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deletes at schema 17's rules, on both engines: the delegate cascade, bulk and conditional deletes,
 * the empty and ghost sessions, the orphaned continuations, the transcript files, and the conversation
 * windows that must go with their sessions. Expected values: the agent's v17 module run with the same
 * calls (C1-C12, D0-D4 of the reference run).
 */
class V17DeletesTest extends FreshStoreTest {
    @TempDir
    Path folder;

    @Override
    int schemaVersion() {
        return 17;
    }

    /**
     * p has: d1 (tagged delegate) with its own delegate d2, whose untagged child g5 survives orphaned;
     * u3 (untagged child: orphaned), d4 (tagged with p, no parent link: found by its marker), b1 (a branch).
     */
    @Test
    void deleteSessionCascadesToTaggedDelegatesAndOrphansEveryOtherChild() throws Exception {
        store.createSession("p", "cli");
        store.createSession(NewSession.builder("d1", "cli").parentSessionId("p").modelConfig(Map.of("_delegate_from", "p")).build());
        store.createSession(NewSession.builder("d2", "cli").parentSessionId("d1").modelConfig(Map.of("_delegate_from", "d1")).build());
        store.createSession(NewSession.builder("u3", "cli").parentSessionId("p").build());
        store.createSession(NewSession.builder("d4", "cli").modelConfig(Map.of("_delegate_from", "p")).build());
        store.createSession(NewSession.builder("b1", "cli").parentSessionId("p").modelConfig(Map.of("_branched_from", "p")).build());
        store.createSession(NewSession.builder("g5", "cli").parentSessionId("d2").build());
        for (String id : List.of("p", "d1", "d2", "u3", "d4", "b1", "g5")) {
            store.appendMessage(id, NewMessage.of("user", "hello " + id));
        }
        Path sessions = Files.createDirectories(folder.resolve("sessions"));
        for (String name : List.of("p.json", "p.jsonl", "request_dump_p_1.json", "request_dump_p_x.txt",
                "request_dump_px_1.json", "d1.json", "d2.jsonl", "u3.json", "d4.json", "g5.json")) {
            Files.writeString(sessions.resolve(name), "x");
        }
        Files.createDirectory(sessions.resolve("d2.json"));
        assertTrue(store.deleteSession("p", sessions));
        assertEquals(Map.of("b1", "-", "g5", "-", "u3", "-"), parents());
        assertEquals(List.of("b1", "g5", "u3"), strings("SELECT DISTINCT session_id FROM messages ORDER BY session_id"));
        assertEquals(List.of("d2.json", "g5.json", "request_dump_p_x.txt", "request_dump_px_1.json", "u3.json"), files(sessions));
        assertFalse(store.deleteSession("p", sessions));
        assertEquals(3, queryLong("SELECT count(*) FROM messages"));
    }

    @Test
    void aMarkerChainBackToTheDeletedSessionDoesNotDeleteItTwice() throws Exception {
        store.createSession(NewSession.builder("a", "cli").modelConfig(Map.of("_delegate_from", "b")).build());
        store.createSession(NewSession.builder("b", "cli").parentSessionId("a").modelConfig(Map.of("_delegate_from", "a")).build());
        store.createSession("c", "cli");
        assertTrue(store.deleteSession("a"));
        assertEquals(Map.of("c", "-"), parents());
    }

    /** The agent: json_extract reads a duplicate key at its first occurrence, on either engine. */
    @Test
    void theMarkerIsReadAsSqliteReadsIt() throws Exception {
        store.createSession("p", "cli");
        store.createSession("x", "cli");
        execute("INSERT INTO sessions (id, source, started_at, model_config) VALUES ('dup', 'cli', 1,"
                + " '{\"_delegate_from\": \"p\", \"_delegate_from\": \"x\"}')");
        assertTrue(store.deleteSession("p"));
        assertEquals(Map.of("x", "-"), parents());
    }

    /** The agent (C7, C8): unknown ids and duplicates skipped; the count is of sessions that existed. */
    @Test
    void deleteSessionsDeletesTheExistingOnesInOneTransaction() throws Exception {
        store.createSession("x1", "cli");
        store.createSession("x2", "cli");
        store.createSession(NewSession.builder("x3", "cli").parentSessionId("x1").modelConfig(Map.of("_delegate_from", "x1")).build());
        store.createSession("keep", "cli");
        assertEquals(2, store.deleteSessions(Arrays.asList("x1", "x2", "x2", "", null, "missing"), null));
        assertEquals(Map.of("keep", "-"), parents());
        assertEquals(0, store.deleteSessions(List.of("", "missing"), null));
        assertEquals(0, store.deleteSessions(List.of(), null));
    }

    @Test
    void deleteSessionsHandlesMoreIdsThanOneStatementBinds() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            ids.add("bulk" + i);
        }
        execute(ids.stream().map(id -> "INSERT INTO sessions (id, source, started_at) VALUES ('" + id + "', 'cli', 1)")
                .toArray(String[]::new));
        store.createSession(NewSession.builder("child", "cli").parentSessionId("bulk700").build());
        assertEquals(1_200, store.deleteSessions(ids, null));
        assertEquals(Map.of("child", "-"), parents());
    }

    /** The agent (C9): only a session without messages, title and children goes. */
    @Test
    void deleteSessionIfEmptyKeepsASessionWithContent() throws Exception {
        store.createSession("e1", "cli");
        store.createSession("e2", "cli");
        store.setSessionTitle("e2", "T");
        store.createSession("e3", "cli");
        store.appendMessage("e3", NewMessage.of("user", "x"));
        store.createSession("e4", "cli");
        store.createSession(NewSession.builder("e5", "cli").parentSessionId("e4").build());
        Files.writeString(folder.resolve("e1.json"), "x");
        Files.writeString(folder.resolve("e2.json"), "x");
        List<Boolean> deleted = Stream.of("e1", "e2", "e3", "e4", "nope")
                .map(id -> store.deleteSessionIfEmpty(id, folder)).toList();
        assertEquals(List.of(true, false, false, false, false), deleted);
        assertEquals(List.of("e2.json"), files(folder));
        assertEquals(List.of("e2", "e3", "e4", "e5"), new ArrayList<>(parents().keySet()));
    }

    /** The agent (C10-C12b): ended, unarchived, message_count 0; children of a deleted one orphaned. */
    @Test
    void emptySessionsAreTheEndedUnarchivedOnesWithoutMessages() throws Exception {
        for (String id : List.of("m1", "m2", "m3", "m4", "m5")) {
            store.createSession(id, "cli");
        }
        store.endSession("m1", "done");
        store.endSession("m2", "done");
        store.endSession("m3", "done");
        store.setSessionArchived("m2", true);
        store.appendMessage("m3", NewMessage.of("user", "hi"));
        store.createSession(NewSession.builder("m6", "cli").parentSessionId("m1").build());
        assertEquals(1, store.countEmptySessions());
        assertEquals(1, store.deleteEmptySessions(null));
        assertEquals(Map.of("m2", "-", "m3", "-", "m4", "-", "m5", "-", "m6", "-"), parents());
        assertEquals(0, store.countEmptySessions());
    }

    /** The agent (D0-D4): TUI ghosts over a day old go; orphaned continuations over a week old are ended. */
    @Test
    void ghostsArePrunedAndOrphanedContinuationsEnded() throws Exception {
        store.createSession("t1", "tui");
        store.endSession("t1", "x");
        store.createSession("t2", "tui");
        store.endSession("t2", "x");
        store.setSessionTitle("t2", "kept");
        store.createSession("t3", "tui");
        store.endSession("t3", "x");
        store.appendMessage("t3", NewMessage.of("user", "hi"));
        store.createSession("t4", "tui");
        store.createSession("t5", "cli");
        store.endSession("t5", "x");
        store.createSession("cp", "cli");
        store.appendMessage("cp", NewMessage.of("user", "a"));
        store.endSession("cp", "compression");
        store.createSession(NewSession.builder("cc", "cli").parentSessionId("cp").build());
        store.appendMessage("cc", NewMessage.of("user", "b"));
        store.createSession(NewSession.builder("cc2", "cli").parentSessionId("cp").build());
        store.createSession(NewSession.builder("cc3", "cli").parentSessionId("cp").build());
        store.appendMessage("cc3", NewMessage.of("user", "c"));
        store.updateTokenCounts("cc3", dev.hermes.state.core.model.TokenUsage.builder().apiCallCount(1).build());
        assertEquals(0, store.pruneEmptyGhostSessions(folder));
        assertEquals(0, store.finalizeOrphanedCompressionSessions());
        clock.advance(Duration.ofDays(8));
        store.createSession("t6", "tui");
        store.endSession("t6", "x");
        Files.writeString(folder.resolve("t1.jsonl"), "x");
        assertEquals(1, store.pruneEmptyGhostSessions(folder));
        assertEquals(List.of(), files(folder));
        assertEquals(List.of("cc", "cc2", "cc3", "cp", "t2", "t3", "t4", "t5", "t6"), new ArrayList<>(parents().keySet()));
        double before = TestStores.EPOCH.getEpochSecond() + 8 * 86_400.0;
        assertEquals(1, store.finalizeOrphanedCompressionSessions());
        assertEquals("orphaned_compression", store.getSession("cc").orElseThrow().endReason());
        assertTrue(store.getSession("cc").orElseThrow().endedAt().getEpochSecond() >= before);
        assertEquals(null, store.getSession("cc2").orElseThrow().endReason());
        assertEquals(null, store.getSession("cc3").orElseThrow().endReason());
        assertEquals(0, store.finalizeOrphanedCompressionSessions());
    }

    @Test
    void aGhostWithAChildFailsOnTheParentReferenceAndNothingIsDeleted() throws Exception {
        store.createSession("t1", "tui");
        store.endSession("t1", "x");
        store.createSession(NewSession.builder("kid", "cli").parentSessionId("t1").build());
        clock.advance(Duration.ofDays(2));
        assertThrows(ConstraintViolationException.class, () -> store.pruneEmptyGhostSessions(null));
        assertEquals(Map.of("kid", "t1", "t1", "-"), parents());
    }

    @Test
    void pruneSessionsRemovesThePrunedSessionsFiles() throws Exception {
        store.createSession("old", "cli");
        store.endSession("old", "x");
        store.createSession("live", "cli");
        Files.writeString(folder.resolve("old.json"), "x");
        Files.writeString(folder.resolve("live.json"), "x");
        clock.advance(Duration.ofDays(100));
        assertEquals(1, store.pruneSessions(Duration.ofDays(90), null, folder).count());
        assertEquals(List.of("live.json"), files(folder));
    }

    /** Every delete takes the conversation windows of the sessions it removes with it. */
    @Test
    void windowsGoWithEverySessionDeleted() throws Exception {
        for (String id : List.of("w1", "w2", "w3", "w4")) {
            store.saveConversationWindow(id, "cli", List.of(WindowEntry.fresh(NewMessage.of("user", "hi " + id))));
        }
        store.createSession(NewSession.builder("wd", "cli").parentSessionId("w1").modelConfig(Map.of("_delegate_from", "w1")).build());
        store.saveConversationWindow("wd", "cli", List.of(WindowEntry.fresh(NewMessage.of("user", "delegate"))));
        store.clearMessages("w4");
        store.endSession("w4", "done");
        assertTrue(store.deleteSession("w1"));
        assertEquals(1, store.deleteSessions(List.of("w2"), null));
        assertEquals(1, store.deleteEmptySessions(null));
        assertEquals(List.of("w3"), strings("SELECT session_id FROM hermes_state_window ORDER BY session_id"));
        assertEquals(List.of("w3"), strings("SELECT DISTINCT session_id FROM hermes_state_window_message ORDER BY session_id"));
    }

    private Map<String, String> parents() throws Exception {
        Map<String, String> parents = new TreeMap<>();
        try (Connection connection = plainConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, parent_session_id FROM sessions")) {
            while (rows.next()) {
                parents.put(rows.getString(1), rows.getString(2) == null ? "-" : rows.getString(2));
            }
        }
        return parents;
    }

    private List<String> strings(String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection connection = plainConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    private static List<String> files(Path folder) throws Exception {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
        }
    }
}
