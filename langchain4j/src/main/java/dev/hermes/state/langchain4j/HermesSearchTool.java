package dev.hermes.state.langchain4j;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.PastConversations;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A ready tool that lets the model search past conversations in the Hermes store: give an instance to
 * {@code AiServices.builder(...).tools(tool)}.
 */
public final class HermesSearchTool extends PastConversations {
    /** Searches every source's conversations. */
    public HermesSearchTool(StateRepository store) {
        super(store, null);
    }

    /** Searches the conversations of these sources only (null: every source). */
    public HermesSearchTool(StateRepository store, @Nullable List<String> sources) {
        super(store, sources);
    }

    @Tool(name = PastConversations.TOOL_NAME, value = PastConversations.TOOL_DESCRIPTION)
    public List<Hit> searchPastConversations(
            @P(name = "query", description = PastConversations.QUERY_DESCRIPTION) String query,
            @P(name = "limit", description = PastConversations.LIMIT_DESCRIPTION, required = false) Integer limit) {
        return search(query, limit);
    }
}
