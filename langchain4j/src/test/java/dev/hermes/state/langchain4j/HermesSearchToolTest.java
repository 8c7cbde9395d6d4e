package dev.hermes.state.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.PastConversations;
import dev.hermes.state.memory.TestStore;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The tool as LangChain4j calls it: its specification from the annotations, executed by DefaultToolExecutor. */
class HermesSearchToolTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static void fill(StateRepository store) {
        store.createSession("s1", "langchain4j");
        store.appendMessage("s1", NewMessage.of("user", "How do I roll back the postgres migration?"));
        store.createSession("s2", "cli");
        for (int i = 0; i < 5; i++) {
            store.appendMessage("s2", NewMessage.of("assistant", "migration step " + i + " done"));
        }
    }

    private static String execute(HermesSearchTool tool, String arguments) throws Exception {
        DefaultToolExecutor executor = new DefaultToolExecutor(tool,
                HermesSearchTool.class.getMethod("searchPastConversations", String.class, Integer.class));
        return executor.execute(ToolExecutionRequest.builder().id("call_1").name(PastConversations.TOOL_NAME)
                .arguments(arguments).build(), "memory-1");
    }

    @Test
    void theModelSeesTheToolAndItsParameters() {
        List<ToolSpecification> specifications = ToolSpecifications.toolSpecificationsFrom(HermesSearchTool.class);
        assertEquals(1, specifications.size());
        ToolSpecification search = specifications.get(0);
        assertEquals(PastConversations.TOOL_NAME, search.name());
        assertEquals(PastConversations.TOOL_DESCRIPTION, search.description());
        assertEquals(List.of("query", "limit"), List.copyOf(search.parameters().properties().keySet()));
        assertEquals(List.of("query"), search.parameters().required());
        assertEquals(PastConversations.LIMIT_DESCRIPTION,
                ((JsonIntegerSchema) search.parameters().properties().get("limit")).description());
    }

    @Test
    void aCallReturnsHitsWithSnippetsAndSessionIds() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            fill(store);
            JsonNode hits = JSON.readTree(execute(new HermesSearchTool(store, List.of("langchain4j")),
                    "{\"query\": \"postgres migration\"}"));
            assertEquals(JSON.readTree("[{\"sessionId\": \"s1\", \"source\": \"langchain4j\", \"role\": \"user\","
                    + " \"snippet\": \"How do I roll back the >>>postgres<<< >>>migration<<<?\","
                    + " \"timestamp\": \"2026-03-10T09:00:02Z\", \"toolName\": null}]"), hits);
        }
    }

    @Test
    void theLimitTheModelGivesIsHonoured() throws Exception {
        try (StateRepository store = TestStore.open(dir)) {
            fill(store);
            HermesSearchTool tool = new HermesSearchTool(store);
            assertEquals(2, JSON.readTree(execute(tool, "{\"query\": \"migration\", \"limit\": 2}")).size());
            assertEquals(6, JSON.readTree(execute(tool, "{\"query\": \"migration\"}")).size());
        }
    }
}
