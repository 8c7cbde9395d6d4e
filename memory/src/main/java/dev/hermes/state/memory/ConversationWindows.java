package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.WindowEntry;

import java.util.List;

/**
 * Where the chat memories keep a conversation's window: the list of messages a memory returns, which
 * is the latest list it saved, while every message ever saved stays in the conversation's session (and
 * so in search, export and the Python agent's view). Conversation = session: the conversation id is the
 * id of the session the first save created; after a rewrite (see {@link #save}) the conversation
 * continues in a compression child, and the id still names it. See DESIGN-memory.md.
 */
interface ConversationWindows {

    /**
     * The windows the store keeps ({@link StateRepository#loadConversationWindow} and
     * {@link StateRepository#saveConversationWindow}: hermes-state's own tables beside Hermes' ones).
     */
    static ConversationWindows of(StateRepository store) {
        if (store == null) {
            throw new InvalidArgumentException("A StateRepository is required");
        }
        return new ConversationWindows() {
            @Override
            public List<Message> load(String conversationId) {
                return store.loadConversationWindow(conversationId);
            }

            @Override
            public SavedWindow save(String conversationId, String source, List<WindowEntry> window) {
                return store.saveConversationWindow(conversationId, source, window);
            }
        };
    }

    /**
     * The rows of the conversation's window, in window order: exactly the rows the last
     * {@link #save} gave, after a restart too. A conversation never saved through a window (a session
     * the Python agent wrote) has all the messages of its compression tip as its window; an unknown
     * conversation has none.
     */
    List<Message> load(String conversationId);

    /**
     * Makes {@code window} the conversation's window, in one write transaction. The first save creates
     * the session with {@code source}. An entry with a {@link WindowEntry#storedId()} of this
     * conversation is that stored row, kept; every other entry is a new message, appended through the
     * same path as {@code appendMessage} (search index, counters). Nothing is ever deleted: rows left
     * out of the window stay in the session. When the window is not the stored history trimmed and
     * extended (a kept row changed or moved, a new non-system message placed before a kept one), the
     * session ends with end_reason {@code compression} and the whole window is written to a child session.
     */
    SavedWindow save(String conversationId, String source, List<WindowEntry> window);
}
