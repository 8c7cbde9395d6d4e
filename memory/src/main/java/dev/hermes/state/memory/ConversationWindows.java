package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;

import java.util.List;

/**
 * A conversation's window, kept in the store: the list of messages a chat memory returns, which is
 * the latest list it saved, while every message ever saved stays in the conversation's session (and
 * so in search, export and the Python agent's view). Conversation = session: the conversation id is
 * the id of the session the first save created; after a rewrite (see {@link #save}) the conversation
 * continues in a compression child, and the id still names it. See DESIGN-memory.md.
 */
public interface ConversationWindows {

    /**
     * The windows the store keeps. They arrive with the core feature that keeps them (a table of this
     * project's own, see DESIGN-memory.md); until then loading or saving a window says so, while
     * listing and deleting conversations ({@link Conversations}) already work.
     */
    static ConversationWindows of(StateRepository store) {
        if (store == null) {
            throw new InvalidArgumentException("A StateRepository is required");
        }
        return new ConversationWindows() {
            @Override
            public List<Message> load(String conversationId) {
                throw notYet();
            }

            @Override
            public void save(String conversationId, String source, List<Entry> window) {
                throw notYet();
            }

            private UnsupportedOperationException notYet() {
                return new UnsupportedOperationException("This hermes-state-core does not keep conversation windows yet");
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
     * the session with {@code source}. An entry with a {@link Entry#storedId()} of this conversation is
     * that stored row, kept; every other entry is a new message, appended through the same path as
     * {@code appendMessage} (search index, counters). Nothing is ever deleted: rows left out of the
     * window stay in the session. When the window is not the stored history trimmed and extended (a
     * kept row changed or moved, a new non-system message placed before a kept one), the session ends
     * with end_reason {@code compression} and the whole window is written to a child session.
     */
    void save(String conversationId, String source, List<Entry> window);

    /**
     * One row of a window being saved: its content, and the id of the stored row it is when the
     * adapter handed that row out (null for a new message).
     */
    record Entry(NewMessage message, Long storedId) {
        public Entry {
            if (message == null) {
                throw new InvalidArgumentException("A window entry needs its message");
            }
        }

        public static Entry fresh(NewMessage message) {
            return new Entry(message, null);
        }

        public static Entry stored(long id, NewMessage message) {
            return new Entry(message, id);
        }
    }
}
