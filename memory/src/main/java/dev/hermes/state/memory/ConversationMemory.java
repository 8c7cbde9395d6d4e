package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.core.model.WindowEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What both adapters do with a framework's messages, apart from converting them: the conversations of
 * their source, the window load that remembers which rows each handed-out message stands for, and the
 * window save that hands those rows back as kept and every other message as new. Thread-safe.
 *
 * @param <M> the framework's message type
 */
public final class ConversationMemory<M> {
    private final StateRepository store;
    private final Conversations conversations;
    private final ConversationWindows windows;
    private final HandedOutMessages<M> handedOut = new HandedOutMessages<>();

    ConversationMemory(StateRepository store, String source, ConversationWindows windows) {
        this.store = store;
        this.conversations = new Conversations(store, source);
        this.windows = windows;
    }

    /** Every conversation of this memory's source once, oldest first. */
    public List<String> ids() {
        return conversations.ids();
    }

    /** Deletes the conversation, all its messages and any compression chain, in one transaction. */
    public void delete(String conversationId) {
        conversations.delete(conversationId);
    }

    /**
     * The conversation's window as framework messages: {@code groups} splits the stored rows into the
     * rows of one message each, {@code fromGroup} makes that message, which is remembered as standing
     * for those rows.
     */
    public List<M> load(String conversationId, Function<List<Message>, List<List<Message>>> groups,
                        Function<List<Message>, M> fromGroup) {
        String id = Conversations.conversationId(conversationId);
        List<M> messages = new ArrayList<>();
        for (List<Message> rows : groups.apply(windows.load(id))) {
            M message = fromGroup.apply(rows);
            handedOut.remember(id, message, rows.stream().map(Message::id).toList());
            messages.add(message);
        }
        return messages;
    }

    /**
     * Makes {@code messages} the conversation's window: {@code toRows} gives a message's rows (its second
     * argument says whether the store keeps structured content); a message this memory handed out, with
     * as many rows as it was loaded from, is kept as stored, every other one is appended. A message that
     * {@code toRows} refuses stops the save before anything is written.
     */
    public void save(String conversationId, List<M> messages, BiFunction<M, Boolean, List<NewMessage>> toRows) {
        String id = Conversations.conversationId(conversationId);
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        // a store that follows the rules of schema 17 keeps structured content: user messages may carry images
        boolean multimodal = store.schemaRules() == SchemaRules.V17;
        List<WindowEntry> window = new ArrayList<>(messages.size());
        for (M message : messages) {
            List<NewMessage> rows = toRows.apply(message, multimodal);
            List<Long> stored = handedOut.rowsOf(id, message);
            for (int i = 0; i < rows.size(); i++) {
                window.add(stored != null && stored.size() == rows.size()
                        ? WindowEntry.stored(stored.get(i), rows.get(i))
                        : WindowEntry.fresh(rows.get(i)));
            }
        }
        windows.save(id, conversations.source(), window);
    }
}
