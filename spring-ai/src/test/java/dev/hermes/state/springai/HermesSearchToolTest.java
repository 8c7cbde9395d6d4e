package dev.hermes.state.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.PastConversations;
import dev.hermes.state.memory.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The tool as Spring AI calls it: a ToolCallback built from the annotated method, JSON in, JSON out. */
class HermesSearchToolTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static void fill(StateRepository store) {
        store.createSession("s1", "spring-ai");
        store.appendMessage("s1", NewMessage.of("user", "How do I roll back the postgres migration?"));
        store.createSession("s2", "cli");
        for (int i = 0; i < 5; i++) {
            store.appendMessage("s2", NewMessage.of("assistant", "migration step " + i + " done"));
        }
    }

    @Test
    void theModelSeesTheToolAndItsParameters() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            ToolCallback[] callbacks = ToolCallbacks.from(new HermesSearchTool(store));
            assertEquals(1, callbacks.length);
            assertEquals(PastConversations.TOOL_NAME, callbacks[0].getToolDefinition().name());
            assertEquals(PastConversations.TOOL_DESCRIPTION, callbacks[0].getToolDefinition().description());
            JsonNode schema = JSON.readTree(callbacks[0].getToolDefinition().inputSchema());
            List<String> parameters = new java.util.ArrayList<>();
            schema.get("properties").fieldNames().forEachRemaining(parameters::add);
            assertEquals(List.of("query", "limit"), parameters);
            assertEquals(JSON.readTree("[\"query\"]"), schema.get("required"));
            assertEquals(PastConversations.LIMIT_DESCRIPTION, schema.at("/properties/limit/description").asText());
        }
    }

    @Test
    void aCallReturnsHitsWithSnippetsAndSessionIds() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            fill(store);
            ToolCallback search = MethodToolCallbackProvider.builder().toolObjects(new HermesSearchTool(store, List.of("spring-ai")))
                    .build().getToolCallbacks()[0];

            JsonNode hits = JSON.readTree(search.call("{\"query\": \"postgres migration\"}"));

            assertEquals(JSON.readTree("[{\"sessionId\": \"s1\", \"source\": \"spring-ai\", \"role\": \"user\","
                    + " \"snippet\": \"How do I roll back the >>>postgres<<< >>>migration<<<?\","
                    + " \"timestamp\": \"2026-03-10T09:00:02Z\", \"toolName\": null}]"), hits);
        }
    }

    @Test
    void theLimitTheModelGivesIsHonoured() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            fill(store);
            ToolCallback search = ToolCallbacks.from(new HermesSearchTool(store))[0];
            assertEquals(2, JSON.readTree(search.call("{\"query\": \"migration\", \"limit\": 2}")).size());
            assertEquals(6, JSON.readTree(search.call("{\"query\": \"migration\"}")).size());
        }
    }
}
