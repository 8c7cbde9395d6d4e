package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RecentUserMessage;
import dev.hermes.state.core.model.RewindResult;
import dev.hermes.state.core.model.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writes that change a transcript afterwards, under the rules of schema 17: rewind and restore, the
 * rewind picker, in-place compaction, transcript rewrites, and the questions about archived rows and
 * platform ids. Every expected value is what the agent at 7e8f50a returns for the same calls on its own
 * SessionDB (counters, ids, flags, previews, errors).
 */
class MessageEditsV17Test extends FreshStoreTest {
    static final Map<String, Object> CALL = MessagesV17Test.ordered("id", "c1", "type", "function",
            "function", MessagesV17Test.ordered("name", "f", "arguments", "{}"));
    static final List<Object> PARTS = List.of(MessagesV17Test.ordered("type", "text", "text", "And\n this   one?"),
            MessagesV17Test.ordered("type", "image_url", "image_url", Map.of("url", "u")));

    @Override
    int schemaVersion() {
        return 17;
    }

    /** The agent's five rows: a question, a tool call and its result, a multimodal question, an answer with two calls. */
    @BeforeEach
    void fiveRows() {
        store.createSession("s1", "cli");
        store.appendMessage("s1", at(NewMessage.builder("user").content("How do I rotate the logs?"), 10));
        store.appendMessage("s1", at(NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL))), 11));
        store.appendMessage("s1", at(NewMessage.builder("tool").content("done").toolCallId("c1"), 12));
        store.appendMessage("s1", at(NewMessage.builder("user").parts(PARTS), 13));
        store.appendMessage("s1", at(NewMessage.builder("assistant").content("Rotated.").toolCalls(ToolCalls.json(List.of(CALL, CALL)))
                .platformMessageId("p5"), 14));
    }

    private static NewMessage at(NewMessage.Builder message, long seconds) {
        return message.timestamp(Instant.ofEpochSecond(seconds)).build();
    }

    private List<Long> counters() throws Exception {
        Session session = store.getSession("s1").orElseThrow();
        return List.of(session.messageCount(), session.toolCallCount(),
                queryLong("SELECT rewind_count FROM sessions WHERE id = 's1'"));
    }

    @Test
    void aRewindHidesTheTargetAndWhatFollowsAndCountsEveryRewind() throws Exception {
        RewindResult first = store.rewindToMessage("s1", 4);
        assertEquals(2, first.rewoundCount());
        assertEquals(3L, first.newHeadId());
        Message target = first.targetMessage();
        assertEquals(4, target.id());
        assertEquals(new MessageContent.Structured(PARTS), target.content());
        assertTrue(target.active(), "the target as it was before the rewind");
        assertEquals(List.of(5L, 3L, 1L), counters());
        assertEquals(List.of(1L, 2L, 3L), ids(store.getMessages("s1")));

        RewindResult again = store.rewindToMessage("s1", 4);
        assertEquals(0, again.rewoundCount());
        assertEquals(3L, again.newHeadId());
        assertFalse(again.targetMessage().active());
        assertEquals(List.of(5L, 3L, 2L), counters());

        InvalidArgumentException notUser = assertThrows(InvalidArgumentException.class, () -> store.rewindToMessage("s1", 2));
        assertEquals("rewind target must be a 'user' message (got role='assistant', id=2)", notUser.getMessage());
        InvalidArgumentException missing = assertThrows(InvalidArgumentException.class, () -> store.rewindToMessage("s1", 99));
        assertEquals("message 99 not found in session s1", missing.getMessage());
        assertThrows(InvalidArgumentException.class, () -> store.rewindToMessage("other", 1));
        assertEquals(List.of(5L, 3L, 2L), counters(), "a refused rewind counts nothing");

        RewindResult toTheStart = store.rewindToMessage("s1", 1);
        assertEquals(3, toTheStart.rewoundCount());
        assertNull(toTheStart.newHeadId());
    }

    @Test
    void thePickerListsUserTurnsNewestFirstWithOneLinePreviews() throws Exception {
        store.rewindToMessage("s1", 4);
        assertEquals(List.of(new RecentUserMessage(1, Instant.ofEpochSecond(10), "How do I rotate the logs?")),
                store.listRecentUserMessages("s1", 20, false));
        assertEquals(List.of(new RecentUserMessage(4, Instant.ofEpochSecond(13), "And this one?"),
                        new RecentUserMessage(1, Instant.ofEpochSecond(10), "How do I rotate the logs?")),
                store.listRecentUserMessages("s1", 20, true));
        assertEquals(List.of(4L), store.listRecentUserMessages("s1", 1, true).stream().map(RecentUserMessage::id).toList());
        assertEquals(List.of(4L, 1L), store.listRecentUserMessages("s1", -1, true).stream().map(RecentUserMessage::id).toList());
        assertEquals(List.of(), store.listRecentUserMessages("s1", 0, true));
    }

    @Test
    void previewsAreCutAt80CharactersAndTextPartsJoined() {
        store.appendMessage("s1", NewMessage.of("user", "x".repeat(100) + "\n\n  y"));
        store.appendMessage("s1", NewMessage.builder("user").parts(List.of(Map.of("type", "image_url"))).build());
        store.appendMessage("s1", NewMessage.builder("user").parts(List.of(MessagesV17Test.ordered("type", "text", "text", "  a\n b "),
                MessagesV17Test.ordered("type", "text", "text", ""), MessagesV17Test.ordered("type", "text", "text", "c"))).build());
        store.appendMessage("s1", NewMessage.of("user", (String) null));
        store.appendMessage("s1", NewMessage.builder("user").content(MessageContent.of(Map.of("parts", List.of()))).build());
        List<String> previews = store.listRecentUserMessages("s1", 5, false).stream().map(RecentUserMessage::preview).toList();
        assertEquals(List.of("", "", "a b c", "[multimodal content]", "x".repeat(77) + "..."), previews);
    }

    @Test
    void restoringMakesInactiveRowsLiveAgain() throws Exception {
        store.rewindToMessage("s1", 4);
        assertTrue(store.hasArchivedMessages("s1"));
        assertEquals(1, store.restoreRewound("s1", 5));
        assertEquals(1, store.restoreRewound("s1", 0));
        assertEquals(0, store.restoreRewound("s1", 0));
        assertFalse(store.hasArchivedMessages("s1"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), ids(store.getMessages("s1")));
        assertEquals(0, store.restoreRewound("nope", 0));
        assertEquals(1L, counters().get(2));
    }

    @Test
    void compactionArchivesTheLiveRowsAndWritesTheSummaryAsTheTranscript() throws Exception {
        int live = store.archiveAndCompact("s1", List.of(
                NewMessage.builder("user").content("Summary of the log rotation.").reasoning("not kept").build(),
                NewMessage.builder("assistant").content("ok").reasoning("kept").toolCalls(ToolCalls.json(List.of(CALL)))
                        .platformMessageId("m7").timestamp(Instant.ofEpochSecond(50)).build(),
                NewMessage.of("unknown", "no role")));
        assertEquals(3, live);
        assertEquals(List.of(3L, 1L, 0L), counters());
        List<Message> all = store.getMessages("s1", true);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), ids(all));
        for (Message archived : all.subList(0, 5)) {
            assertFalse(archived.active());
            assertTrue(archived.compacted());
        }
        for (Message summary : all.subList(5, 8)) {
            assertTrue(summary.active());
            assertFalse(summary.compacted());
        }
        assertNull(all.get(5).reasoning(), "the agent keeps reasoning on assistant rows only");
        assertEquals("kept", all.get(6).reasoning());
        assertEquals("m7", all.get(6).platformMessageId());
        assertEquals(Instant.ofEpochSecond(50), all.get(6).timestamp());
        // rows without their own time: the write's time, then a microsecond past the latest so far
        List<Double> stamps = timestamps();
        assertEquals(stamps.get(5) + 1e-6 + 1e-6, stamps.get(7));
        assertEquals(List.of(6L, 7L, 8L), ids(store.getMessages("s1")));
        assertTrue(store.hasArchivedMessages("s1"));
        assertTrue(store.hasPlatformMessageId("s1", "m7"));
        assertTrue(store.hasPlatformMessageId("s1", "p5"), "archived rows count");
        assertFalse(store.hasPlatformMessageId("s1", "zz"));
        assertFalse(store.hasPlatformMessageId("other", "m7"));
    }

    @Test
    void aRewriteOfTheLiveRowsKeepsTheArchivedOnes() throws Exception {
        store.archiveAndCompact("s1", List.of());
        assertEquals(List.of(0L, 0L, 0L), counters());
        store.replaceMessages("s1", List.of(NewMessage.builder("user").content("rewritten").observed(true).build()), true);
        assertEquals(List.of(1L, 0L, 0L), counters());
        List<Message> all = store.getMessages("s1", true);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), ids(all));
        assertTrue(all.get(5).observed());
        assertTrue(all.get(5).active());

        store.replaceMessages("s1", List.of(NewMessage.builder("assistant").content("only").toolCalls(ToolCalls.json(Map.of("a", 1))).build()),
                false);
        assertEquals(List.of(1L, 1L, 0L), counters());
        assertEquals(List.of(7L), ids(store.getMessages("s1", true)));
    }

    @Test
    void clearingDeletesEveryRowAndKeepsTheRewindCount() throws Exception {
        store.rewindToMessage("s1", 4);
        store.clearMessages("s1");
        assertEquals(List.of(0L, 0L, 1L), counters());
        assertEquals(List.of(), store.getMessages("s1", true));
    }

    @Test
    void writesForAnUnknownSessionFailAndChangeNothing() throws Exception {
        assertThrows(ConstraintViolationException.class,
                () -> store.replaceMessages("nope", List.of(NewMessage.of("user", "x")), false));
        assertThrows(ConstraintViolationException.class,
                () -> store.archiveAndCompact("nope", List.of(NewMessage.of("user", "x"))));
        store.replaceMessages("nope", List.of(), false);
        assertEquals(0, store.archiveAndCompact("nope", List.of()));
        assertThrows(InvalidArgumentException.class, () -> store.replaceMessages("s1",
                List.of(NewMessage.of("user", "fine"), NewMessage.builder("user").parts(List.of(new Object())).build()), false));
        assertEquals(5, queryLong("SELECT count(*) FROM messages"));
        assertEquals(List.of(5L, 3L, 0L), counters());
    }

    private List<Double> timestamps() throws Exception {
        List<Double> stamps = new ArrayList<>();
        try (Connection connection = plainConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT timestamp FROM messages ORDER BY id")) {
            while (rows.next()) {
                stamps.add(rows.getDouble(1));
            }
        }
        return stamps;
    }

    private static List<Long> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }
}
