package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.SessionExport;
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

/** docs/behaviour.md#export-delete-prune: the contract, on both engines. */
class ExportDeletePruneTest extends FreshStoreTest {

    @Test
    void exportSessionHasEveryColumnAndTheMessages() {
        {
            store.createSession(NewSession.builder("s1", "cli").model("m").build());
            store.appendMessage("s1", NewMessage.of("user", "q"));
            store.appendMessage("s1", NewMessage.builder("assistant").content("a").toolCalls(ToolCalls.json(List.of(MessagesTest.CALL))).build());
            SessionExport export = store.exportSession("s1").orElseThrow();
            assertEquals(store.getSession("s1").orElseThrow(), export.session());
            assertEquals(store.getMessages("s1"), export.messages());
            assertEquals(List.of(MessagesTest.CALL), export.messages().get(1).toolCalls().value());
            assertTrue(store.exportSession("nobody").isEmpty());
        }
    }

    @Test
    void exportAllStreamsEverySessionNewestFirst() {
        {
            for (int i = 0; i < 5; i++) {
                store.createSession("s" + i, i % 2 == 0 ? "cli" : "slack");
                store.appendMessage("s" + i, NewMessage.of("user", "message of s" + i));
            }
            List<String> seen = new ArrayList<>();
            assertEquals(5, store.exportAll(null, export -> seen.add(export.session().id() + "/" + export.messages().size())));
            assertEquals(List.of("s4/1", "s3/1", "s2/1", "s1/1", "s0/1"), seen);
            seen.clear();
            assertEquals(2, store.exportAll("slack", export -> seen.add(export.session().id())));
            assertEquals(List.of("s3", "s1"), seen);
            IllegalStateException stop = new IllegalStateException("sink full");
            assertSame(stop, assertThrows(IllegalStateException.class, () -> store.exportAll(null, export -> {
                throw stop;
            })));
            assertEquals(5, store.sessionCount(), "the store stays usable after a failing sink");
        }
    }

    @Test
    void deleteOrphansChildrenKeepsGrandchildrenAndRemovesMessagesWithTheirIndexRows() throws Exception {
        {
            store.createSession("parent", "cli");
            store.createSession(NewSession.builder("child", "cli").parentSessionId("parent").build());
            store.createSession(NewSession.builder("grandchild", "cli").parentSessionId("child").build());
            store.appendMessage("parent", NewMessage.of("user", "unique-parent-word"));
            store.appendMessage("child", NewMessage.of("user", "unique-child-word"));
            assertTrue(store.deleteSession("parent"));
            assertTrue(store.getSession("parent").isEmpty());
            assertNull(store.getSession("child").orElseThrow().parentSessionId());
            assertEquals("child", store.getSession("grandchild").orElseThrow().parentSessionId());
            assertEquals(1, store.messageCount(null));
            // the deleted message's words are gone from the index, the other's stay
            assertEquals(List.of(), store.searchMessages(SearchQuery.of("\"unique-parent-word\"")));
            assertEquals(1, store.searchMessages(SearchQuery.of("\"unique-child-word\"")).size());
            assertFalse(store.deleteSession("parent"));
            assertThrows(InvalidArgumentException.class, () -> store.deleteSession(" "));
        }
    }

    @Test
    void pruneDeletesOnlyOldEndedSessionsAndOrphansTheirChildren() {
        {
            store.createSession("old-ended", "cli");
            store.endSession("old-ended", "cli_close");
            store.createSession("old-live", "cli");
            store.createSession("old-ended-slack", "slack");
            store.endSession("old-ended-slack", "session_reset");
            store.createSession(NewSession.builder("child-of-old", "cli").parentSessionId("old-ended").build());
            store.appendMessage("old-ended", NewMessage.of("user", "bye"));
            clock.advance(Duration.ofDays(10));
            store.createSession("recent-ended", "cli");
            store.endSession("recent-ended", "cli_close");
            clock.advance(Duration.ofDays(1));

            assertEquals(List.of("old-ended-slack", "old-ended"), SessionsTest.ids(store.listPruneCandidates(Duration.ofHours(252), null)));
            assertEquals(List.of("old-ended"), SessionsTest.ids(store.listPruneCandidates(Duration.ofHours(252), "cli")));
            assertEquals(List.of(), SessionsTest.ids(store.listPruneCandidates(Duration.ofHours(276), null)));
            assertEquals(1, store.pruneSessions(Duration.ofHours(252), "cli").count());
            assertTrue(store.getSession("old-ended").isEmpty());
            assertTrue(store.getSession("old-ended-slack").isPresent());
            assertNull(store.getSession("child-of-old").orElseThrow().parentSessionId());
            assertEquals(0, store.messageCount(null));
            assertEquals(1, store.pruneSessions(Duration.ofHours(252), null).count());
            assertEquals(List.of("recent-ended", "child-of-old", "old-live"), SessionsTest.ids(store.searchSessions(new SearchSessionsQuery(null, 10, 0))));
            assertEquals(1, store.pruneSessions(Duration.ZERO, null).count());
            assertTrue(store.getSession("old-live").isPresent(), "live sessions are never pruned");
            assertThrows(InvalidArgumentException.class, () -> store.pruneSessions(Duration.ofSeconds(-1), null));
            assertThrows(InvalidArgumentException.class, () -> store.pruneSessions(null, null));
        }
    }

}
