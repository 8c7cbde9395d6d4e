package dev.hermes.state.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCall;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolCallTest {
    @TempDir
    Path dir;

    @Test
    void callsAreStoredInTheShapeThePythonAgentWrites() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "spring-ai");
            long id = store.appendMessage("s", NewMessage.builder("assistant").content("")
                    .toolCalls(ToolCall.toHermes(List.of(new ToolCall("call_1", null, "terminal", "{\"command\": \"ls\"}"))))
                    .build());
            String stored = store.dsl().select(MESSAGES.TOOL_CALLS).from(MESSAGES).where(MESSAGES.ID.eq(id)).fetchOne().value1().data();
            // the JSON the Python agent writes (json.dumps of its list; the spacing is the writer's own)
            assertEquals(new ObjectMapper().readTree("[{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"terminal\","
                    + " \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\"}}]"), new ObjectMapper().readTree(stored));
            assertEquals(1, store.getSession("s").orElseThrow().toolCallCount());
        }
    }

    @Test
    void noCallsAreStoredAsNull() {
        assertNull(ToolCall.toHermes(List.of()));
        assertNull(ToolCall.toHermes(null));
        assertEquals(List.of(), ToolCall.fromHermes(null, 1));
    }

    @Test
    void callsThePythonAgentWroteReadBack() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        try (StateRepository store = StateRepository.open(copy)) {
            // the columns this query needs: a store's file may be older than the generated classes
            Message twoCalls = store.dsl().select(MESSAGES.ID, MESSAGES.SESSION_ID).from(MESSAGES)
                    .where(MESSAGES.TOOL_CALLS.like("%call_0002%")).fetch().stream()
                    .map(row -> store.getMessages(row.value2()).stream().filter(m -> m.id() == row.value1()).findFirst().orElseThrow())
                    .findFirst().orElseThrow();
            assertEquals(List.of(new ToolCall("call_0002", "function", "terminal", "{\"command\": \"git status\"}"),
                            new ToolCall("call_0003", "function", "read_file", "{\"path\": \"README.md\"}")),
                    ToolCall.fromHermes(twoCalls.toolCalls(), twoCalls.id()));
        }
    }

    @Test
    void argumentsStoredAsAnObjectReadBackAsItsJsonText() {
        Object stored = List.of(Map.of("id", "c", "type", "function",
                "function", Map.of("name", "f", "arguments", Map.of("path", "a.txt"))));
        assertEquals(List.of(new ToolCall("c", "function", "f", "{\"path\":\"a.txt\"}")), ToolCall.fromHermes(stored, 7));
    }

    @Test
    void anotherShapeIsRefusedWithTheMessageId() {
        InvalidArgumentException notAList = assertThrows(InvalidArgumentException.class,
                () -> ToolCall.fromHermes(Map.of("id", "c"), 42));
        assertTrue(notAList.getMessage().contains("message 42"), notAList.getMessage());
        assertThrows(InvalidArgumentException.class, () -> ToolCall.fromHermes(List.of(Map.of("id", "c")), 1));
        assertThrows(InvalidArgumentException.class,
                () -> ToolCall.fromHermes(List.of(Map.of("function", Map.of("arguments", "{}"))), 1));
        assertThrows(InvalidArgumentException.class, () -> ToolCall.fromHermes(List.of("call"), 1));
    }
}
