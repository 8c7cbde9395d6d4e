package dev.hermes.state.core;

import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCalls;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The JSON columns through the typed values on a store kept at schema 6: values are written as the
 * compact JSON such a store always wrote, stored text that is not JSON is handed back unchanged, and
 * the conversation leaves out tool_calls that do not decode (the agent of schema 6 did).
 */
class JsonColumnsKeptAtSixTest extends FreshStoreTest {
    @BeforeEach
    void createSession() {
        store.createSession("s1", "cli");
    }

    @Test
    void valuesAreWrittenCompactAndTextThatIsNotJsonAsItIs() throws Exception {
        store.appendMessage("s1", NewMessage.builder("assistant").content("a")
                .toolCalls(ToolCalls.json(List.of(Map.of("id", "ü")))).reasoningDetails(JsonValue.ofJson("{ \"k\" : 1 }"))
                .codexReasoningItems(JsonValue.ofJson("not json")).build());
        assertEquals("[{\"id\":\"ü\"}]", queryString("SELECT tool_calls FROM messages"));
        assertEquals("{\"k\":1}", queryString("SELECT reasoning_details FROM messages"));
        assertEquals("not json", queryString("SELECT codex_reasoning_items FROM messages"));
        Message read = store.getMessages("s1").get(0);
        assertEquals("{\"k\":1}", read.reasoningDetails().json());
        assertEquals(List.of(Map.of("id", "ü")), read.toolCalls().value());
    }

    @Test
    void theConversationLeavesOutToolCallsThatDoNotDecode() throws Exception {
        execute("INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, timestamp)"
                        + " VALUES ('s1', 'assistant', 'a', 'not json', 'bad', 1.5)",
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'assistant', 'b', 'null', 2.5)");
        List<ChatMessage> conversation = store.getMessagesAsConversation("s1");
        assertNull(conversation.get(0).toolCalls());
        assertEquals(List.of("role", "content", "reasoning_details"), List.copyOf(conversation.get(0).toMap().keySet()));
        assertNull(conversation.get(0).toMap().get("reasoning_details"));
        assertEquals("null", conversation.get(1).toolCalls().json());
        assertEquals(List.of("role", "content", "tool_calls"), List.copyOf(conversation.get(1).toMap().keySet()));
        assertNull(conversation.get(1).toMap().get("tool_calls"));
    }
}
