package dev.hermes.state.memory;

import dev.hermes.state.core.model.ToolCalls;
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

class ToolCallTest {
    @TempDir
    Path dir;

    @Test
    void callsAreStoredInTheShapeThePythonAgentWrites() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "spring-ai");
            long id = store.appendMessage("s", NewMessage.builder("assistant").content("")
                    .toolCalls(ToolCalls.of(List.of(new ToolCall("call_1", null, "terminal", "{\"command\": \"ls\"}"))))
                    .build());
            String stored = store.dsl().select(MESSAGES.TOOL_CALLS).from(MESSAGES).where(MESSAGES.ID.eq(id)).fetchOne().value1().data();
            // the JSON the Python agent writes (json.dumps of its list; the spacing is the writer's own)
            assertEquals(new ObjectMapper().readTree("[{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"terminal\","
                    + " \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\"}}]"), new ObjectMapper().readTree(stored));
            assertEquals(1, store.getSession("s").orElseThrow().toolCallCount());
        }
    }

    @Test
    void noCallsAreStoredAsNull() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "spring-ai");
            long id = store.appendMessage("s", NewMessage.builder("assistant").content("x").toolCalls(ToolCalls.of(List.of())).build());
            assertNull(store.dsl().select(MESSAGES.TOOL_CALLS).from(MESSAGES).where(MESSAGES.ID.eq(id)).fetchOne().value1());
            assertEquals(0, store.getSession("s").orElseThrow().toolCallCount());
            Message message = store.getMessages("s").get(0);
            assertNull(message.toolCalls());
            assertEquals(List.of(), message.calls());
        }
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
                    twoCalls.calls());
        }
    }

    @Test
    void argumentsStoredAsAnObjectReadBackAsItsJsonText() {
        ToolCalls stored = ToolCalls.json(List.of(Map.of("id", "c", "type", "function",
                "function", Map.of("name", "f", "arguments", Map.of("path", "a.txt")))));
        assertEquals(List.of(new ToolCall("c", "function", "f", "{\"path\":\"a.txt\"}")), stored.calls());
    }

    @Test
    void anotherShapeIsRefusedWithTheMessageId() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "spring-ai");
            long id = store.appendMessage("s", NewMessage.builder("assistant").content("x")
                    .toolCalls(ToolCalls.json(Map.of("id", "c"))).build());
            Message stored = store.getMessages("s").get(0);
            InvalidArgumentException notAList = assertThrows(InvalidArgumentException.class, stored::calls);
            assertEquals("The tool_calls of message " + id + " are not in the OpenAI shape"
                    + " ([{id, type, function: {name, arguments}}]): it is not a list", notAList.getMessage());
        }
        assertThrows(InvalidArgumentException.class, () -> ToolCalls.json(List.of(Map.of("id", "c"))).calls());
        assertThrows(InvalidArgumentException.class,
                () -> ToolCalls.json(List.of(Map.of("function", Map.of("arguments", "{}")))).calls());
        assertThrows(InvalidArgumentException.class, () -> ToolCalls.json(List.of("call")).calls());
    }
}
