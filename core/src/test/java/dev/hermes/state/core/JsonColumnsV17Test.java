package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCall;
import dev.hermes.state.core.model.ToolCalls;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JSON columns through the typed values under the rules of schema 17: a value read is the stored
 * text, and written again it is the same text; a value made from Java values is the agent's
 * {@code json.dumps} text; the conversation's keys follow the agent's replay.
 */
class JsonColumnsV17Test extends FreshStoreTest {
    @Override
    int schemaVersion() {
        return 17;
    }

    @BeforeEach
    void createSession() {
        store.createSession("s1", "cli");
    }

    @Test
    void aValueReadIsWrittenBackAsTheSameText() throws Exception {
        execute("INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, codex_reasoning_items,"
                + " timestamp) VALUES ('s1', 'assistant', 'a', '[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{}\"}}]', '{\"b\":1,  \"a\" : 2}', 'not json', 1.5)");
        Message read = store.getMessages("s1").get(0);
        store.appendMessage("s1", NewMessage.builder("assistant").content("b").toolCalls(read.toolCalls())
                .reasoningDetails(read.reasoningDetails()).codexReasoningItems(read.codexReasoningItems()).build());
        assertEquals("[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]",
                queryString("SELECT tool_calls FROM messages WHERE content = 'b'"));
        assertEquals("{\"b\":1,  \"a\" : 2}", queryString("SELECT reasoning_details FROM messages WHERE content = 'b'"));
        assertEquals("not json", queryString("SELECT codex_reasoning_items FROM messages WHERE content = 'b'"));
        assertEquals(List.of(ToolCall.function("c", "f", "{}")), store.getMessages("s1").get(1).calls());
    }

    @Test
    void valuesAreStoredAsTheAgentStoresThem() throws Exception {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", "reasoning.text");
        details.put("text", "ü");
        store.appendMessage("s1", NewMessage.builder("assistant").content("")
                .toolCalls(ToolCalls.of(List.of(ToolCall.function("c1", "terminal", "{\"command\": \"ls\"}"))))
                .reasoningDetails(JsonValue.of(List.of(details))).codexMessageItems(JsonValue.of(List.of()))
                .codexReasoningItems(JsonValue.ofJson(" {} ")).build());
        assertEquals("[{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"terminal\", \"arguments\":"
                + " \"{\\\"command\\\": \\\"ls\\\"}\"}}]", queryString("SELECT tool_calls FROM messages"));
        assertEquals("[{\"type\": \"reasoning.text\", \"text\": \"\\u00fc\"}]", queryString("SELECT reasoning_details FROM messages"));
        // what Python counts false is stored as NULL, whether given as a value or as text
        assertEquals(0, queryLong("SELECT count(*) FROM messages WHERE codex_message_items IS NOT NULL"));
        assertEquals(0, queryLong("SELECT count(*) FROM messages WHERE codex_reasoning_items IS NOT NULL"));
        assertEquals(1, store.getSession("s1").orElseThrow().toolCallCount());
    }

    @Test
    void aValueThatHasNoJsonIsRefusedByTheAppend() throws Exception {
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("assistant").reasoningDetails(JsonValue.of(List.of(new Object()))).build()));
        assertTrue(refused.getMessage().startsWith("reasoning_details cannot be written as JSON"), refused.getMessage());
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("assistant").toolCalls(ToolCalls.json(new Object())).build()));
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
    }

    @Test
    void aValueThatContainsItselfIsRefusedByTheAppendAndNothingIsWritten() throws Exception {
        List<Object> calls = new java.util.ArrayList<>();
        calls.add(Map.of("id", "c1", "self", calls));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("assistant").toolCalls(ToolCalls.json(calls)).build()));
        List<Object> details = new java.util.ArrayList<>();
        details.add(details);
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("assistant").reasoningDetails(JsonValue.of(details)).build()));
        List<Object> parts = new java.util.ArrayList<>();
        parts.add(Map.of("type", "text", "text", "hi", "again", parts));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("user").content(dev.hermes.state.core.model.MessageContent.parts(parts)).build()));
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
        assertEquals(0, queryLong("SELECT message_count FROM sessions WHERE id = 's1'"));
    }

    @Test
    void theConversationHasTheAgentsKeys() throws Exception {
        execute("INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, codex_reasoning_items,"
                        + " codex_message_items, timestamp) VALUES ('s1', 'assistant', 'a', 'not json', 'null', 'bad', '', 1.5)",
                "INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, timestamp)"
                        + " VALUES ('s1', 'user', 'q', '', '[1]', 2.5)");
        List<ChatMessage> conversation = store.getMessagesAsConversation("s1");
        ChatMessage assistant = conversation.get(0);
        assertEquals("not json", assistant.toolCalls().json());
        assertEquals(List.of(), assistant.toolCalls().value());  // present: the agent's fallback
        assertTrue(assistant.reasoningDetails().isJson());
        assertNull(assistant.reasoningDetails().value());         // present with None
        assertFalse(assistant.codexReasoningItems().isJson());
        assertNull(assistant.codexMessageItems());                // empty text: no key
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("role", "assistant");
        expected.put("content", "a");
        expected.put("timestamp", assistant.timestamp());
        expected.put("tool_calls", List.of());
        expected.put("reasoning_details", null);
        expected.put("codex_reasoning_items", null);
        assertEquals(expected, assistant.toMap());
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(assistant.toMap().keySet()));
        ChatMessage user = conversation.get(1);
        assertNull(user.toolCalls());
        assertNull(user.reasoningDetails());                      // assistant messages only
        assertEquals(List.of("role", "content", "timestamp"), List.copyOf(user.toMap().keySet()));
    }
}
