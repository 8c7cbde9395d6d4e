package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The search an agent runs over past conversations (its own, the Python agent's, any other source's):
 * Hermes' full-text search, each hit with its {@code >>>match<<<} snippet and the session it belongs
 * to. The frameworks' tools ({@code HermesSearchTool} in each adapter) extend it, only to describe
 * {@link #search} to the model with their framework's annotations.
 */
public class PastConversations {
    /** What the tool description promises the model. */
    public static final int DEFAULT_LIMIT = 10;
    public static final int MAX_LIMIT = 50;

    /** The tool as both frameworks' tools describe it to the model (constants: annotation values). */
    public static final String TOOL_NAME = "search_past_conversations";
    public static final String TOOL_DESCRIPTION = "Full-text search over past conversations (this agent's and"
            + " others'). Returns the best matching messages, most relevant first, each with the id of its"
            + " conversation (sessionId), its role, when it was written, and a snippet in which the matching"
            + " words are marked >>>like this<<<. Quote a phrase to match it exactly; a trailing * matches a prefix.";
    public static final String QUERY_DESCRIPTION = "The words to look for";
    public static final String LIMIT_DESCRIPTION = "How many hits at most: 1 to " + MAX_LIMIT + ", default " + DEFAULT_LIMIT;

    private final StateRepository store;
    private final @Nullable List<String> sources;

    /**
     * @param sources the sources searched; null for every source
     */
    public PastConversations(StateRepository store, @Nullable List<String> sources) {
        if (store == null) {
            throw new InvalidArgumentException("A StateRepository is required");
        }
        this.store = store;
        this.sources = sources == null ? null : List.copyOf(sources);
    }

    /**
     * One matching message: the session (conversation) it belongs to, who wrote it, the matching text
     * with {@code >>>match<<<} markers, and when (ISO-8601, UTC).
     */
    public record Hit(String sessionId, String source, String role, String snippet, String timestamp,
                      @Nullable String toolName) {
        /**
         * From schema 11 on the index holds content, tool name and tool calls joined by spaces, so a
         * snippet of a message without them ends in two spaces (the agent's too): an agent reading the hit
         * gets the text without that padding.
         */
        static Hit of(SearchHit hit) {
            return new Hit(hit.sessionId(), hit.source(), hit.role(), hit.snippet().stripTrailing(), hit.timestamp().toString(),
                    hit.toolName());
        }
    }

    /**
     * The best hits for {@code query} (any text: Hermes' query rules, never an error), most relevant
     * first; {@code limit} null means {@value #DEFAULT_LIMIT}, more than {@value #MAX_LIMIT} means
     * {@value #MAX_LIMIT} (the tool description tells the model so), less than 1 is refused.
     */
    public final List<Hit> search(String query, Integer limit) {
        int count = limit == null ? DEFAULT_LIMIT : limit;
        if (count < 1) {
            throw new InvalidArgumentException("The limit must be at least 1, got " + count);
        }
        SearchQuery search = SearchQuery.builder(query).sourceFilter(sources).limit(Math.min(count, MAX_LIMIT)).build();
        return store.searchMessages(search).stream().map(Hit::of).toList();
    }
}
