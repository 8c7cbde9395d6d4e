package dev.hermes.state.springai;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.PastConversations;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A ready tool that lets the model search past conversations in the Hermes store: give an instance to
 * {@code ChatClient.tools(...)} or turn it into callbacks with {@code ToolCallbacks.from(tool)}.
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

    @Tool(name = PastConversations.TOOL_NAME, description = PastConversations.TOOL_DESCRIPTION)
    public List<Hit> searchPastConversations(
            @ToolParam(description = PastConversations.QUERY_DESCRIPTION) String query,
            @ToolParam(description = PastConversations.LIMIT_DESCRIPTION, required = false) Integer limit) {
        return search(query, limit);
    }
}
