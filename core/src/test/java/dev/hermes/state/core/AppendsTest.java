package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Appends as one unit on both engines, whichever statements the engine runs them as (PostgreSQL:
 * the counters' update and the first row in one statement): every column of the first row and of the
 * others of a batch, the counters, and a session deleted before the append.
 */
class AppendsTest extends FreshStoreTest {
    private static final NewMessage EVERY_COLUMN = NewMessage.builder("assistant").content("all set").toolCallId("call_9")
            .toolCalls(ToolCalls.json(List.of(MessagesTest.CALL))).toolName("terminal").tokenCount(7L).finishReason("tool_calls")
            .reasoning("because").reasoningDetails(JsonValue.of(List.of(Map.of("type", "reasoning.text")))).codexReasoningItems(JsonValue.of(List.of(Map.of("id", "r1"))))
            .build();
    private static final NewMessage ROLE_ONLY = NewMessage.builder("user").build();

    @BeforeEach
    void createSessions() {
        store.createSession("s1", "cli");
        store.createSession("kept", "cli");
        store.appendMessage("kept", NewMessage.of("user", "stays"));
    }

    @Test
    void everyColumnOfTheFirstAndTheFollowingRowsIsStored() {
        long single = store.appendMessage("s1", EVERY_COLUMN);
        List<Long> batch = store.appendMessages("s1", List.of(ROLE_ONLY, EVERY_COLUMN, ROLE_ONLY));
        List<Long> nullFirst = store.appendMessages("s1", List.of(ROLE_ONLY, EVERY_COLUMN));
        List<Message> messages = store.getMessages("s1");
        assertEquals(6, messages.size());
        assertEquals(List.of(single, batch.get(0), batch.get(1), batch.get(2), nullFirst.get(0), nullFirst.get(1)),
                messages.stream().map(Message::id).toList());
        for (int i : new int[] {0, 2, 5}) {
            Message full = messages.get(i);
            assertEquals("s1", full.sessionId());
            assertEquals("all set", full.text());
            assertEquals("call_9", full.toolCallId());
            assertEquals(List.of(MessagesTest.CALL), full.toolCalls().value());
            assertEquals("terminal", full.toolName());
            assertEquals(7L, full.tokenCount());
            assertEquals("tool_calls", full.finishReason());
            assertEquals("because", full.reasoning());
            assertEquals("[{\"type\":\"reasoning.text\"}]", full.reasoningDetails().json());
            assertEquals("[{\"id\":\"r1\"}]", full.codexReasoningItems().json());
        }
        for (int i : new int[] {1, 3, 4}) {
            Message bare = messages.get(i);
            assertEquals("user", bare.role());
            assertNull(bare.text());
            assertNull(bare.toolCallId());
            assertNull(bare.toolCalls());
            assertNull(bare.toolName());
            assertNull(bare.tokenCount());
            assertNull(bare.finishReason());
            assertNull(bare.reasoning());
            assertNull(bare.reasoningDetails());
            assertNull(bare.codexReasoningItems());
        }
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(6, session.messageCount());
        assertEquals(3, session.toolCallCount());
    }

    @Test
    void anAppendToADeletedSessionIsAConstraintViolationAndWritesNothing() throws Exception {
        store.appendMessage("s1", NewMessage.of("user", "before"));
        store.deleteSession("s1");
        ConstraintViolationException single = assertThrows(ConstraintViolationException.class,
                () -> store.appendMessage("s1", EVERY_COLUMN));
        assertEquals("Cannot append to session 's1': no such session", single.getMessage());
        ConstraintViolationException batch = assertThrows(ConstraintViolationException.class,
                () -> store.appendMessages("s1", List.of(EVERY_COLUMN, ROLE_ONLY)));
        assertEquals("Cannot append to session 's1': no such session", batch.getMessage());
        assertEquals(0, queryLong("SELECT count(*) FROM messages WHERE session_id = 's1'"));
        assertEquals(0, queryLong("SELECT count(*) FROM sessions WHERE id = 's1'"));
        assertEquals(1, queryLong("SELECT count(*) FROM messages"));
        assertEquals(1, store.getSession("kept").orElseThrow().messageCount());
    }
}
