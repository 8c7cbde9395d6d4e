package dev.hermes.state.springai;

import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.memory.ConversationWindows;
import dev.hermes.state.memory.Conversations;
import dev.hermes.state.memory.HandedOutMessages;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

import java.util.ArrayList;
import java.util.List;

/**
 * Spring AI's chat memory in the Hermes store: a conversation is a Hermes session (the conversation id
 * is the session id; the first save creates it with the source, default {@value #DEFAULT_SOURCE}),
 * every message is stored once and stays searchable, and a save appends only what is new: the window
 * that {@code MessageWindowChatMemory} drops stays in the session, no longer returned. Works without
 * Spring: {@code new HermesChatMemoryRepository(store)}. Thread-safe.
 */
public final class HermesChatMemoryRepository implements ChatMemoryRepository {
    public static final String DEFAULT_SOURCE = "spring-ai";

    private final StateRepository store;
    private final Conversations conversations;
    private final ConversationWindows windows;
    private final HandedOutMessages<Message> handedOut = new HandedOutMessages<>();

    /** With the defaults: source {@value #DEFAULT_SOURCE}, the store's own conversation windows. */
    public HermesChatMemoryRepository(StateRepository store) {
        this(builder(store));
    }

    private HermesChatMemoryRepository(Builder builder) {
        this.store = builder.store;
        this.conversations = new Conversations(builder.store, builder.source);
        this.windows = builder.windows != null ? builder.windows : ConversationWindows.of(builder.store);
    }

    public static Builder builder(StateRepository store) {
        return new Builder(store);
    }

    /** Every conversation of this repository's source once, oldest first. */
    @Override
    public List<String> findConversationIds() {
        return conversations.ids();
    }

    /** Exactly the messages the last save gave, in order (empty for an unknown conversation). */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        String id = Conversations.conversationId(conversationId);
        List<Message> messages = new ArrayList<>();
        for (List<dev.hermes.state.core.model.Message> rows : SpringAiMessages.groups(windows.load(id))) {
            Message message = SpringAiMessages.fromGroup(rows);
            handedOut.remember(id, message, rows.stream().map(dev.hermes.state.core.model.Message::id).toList());
            messages.add(message);
        }
        return messages;
    }

    /**
     * Makes {@code messages} the conversation's window: messages this repository handed out are kept
     * as stored, every other one is appended; nothing is deleted. A message that cannot be stored
     * (media other than a user's images, any media on a store kept at schema 6, an unknown type) is
     * refused before anything is written.
     */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        String id = Conversations.conversationId(conversationId);
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        // a store that follows the rules of schema 17 keeps structured content: user messages may carry images
        boolean multimodal = store.schemaRules() == SchemaRules.V17;
        List<WindowEntry> window = new ArrayList<>();
        for (Message message : messages) {
            List<NewMessage> rows = SpringAiMessages.toRows(message, multimodal);
            List<Long> stored = handedOut.rowsOf(id, message);
            for (int i = 0; i < rows.size(); i++) {
                window.add(stored != null && stored.size() == rows.size()
                        ? WindowEntry.stored(stored.get(i), rows.get(i))
                        : WindowEntry.fresh(rows.get(i)));
            }
        }
        windows.save(id, conversations.source(), window);
    }

    /** Deletes the conversation, all its messages and any compression chain, in one transaction. */
    @Override
    public void deleteByConversationId(String conversationId) {
        conversations.delete(conversationId);
    }

    /** Options: the source new conversations get, and where windows are kept. */
    public static final class Builder {
        private final StateRepository store;
        private String source = DEFAULT_SOURCE;
        private ConversationWindows windows;

        private Builder(StateRepository store) {
            if (store == null) {
                throw new InvalidArgumentException("A StateRepository is required");
            }
            this.store = store;
        }

        /** The Hermes source of the sessions this repository creates and lists (not blank). */
        public Builder source(String source) {
            this.source = source;
            return this;
        }

        /** Where windows are kept; by default the store's own ({@link ConversationWindows#of}). */
        public Builder windows(ConversationWindows windows) {
            if (windows == null) {
                throw new InvalidArgumentException("The conversation windows must not be null");
            }
            this.windows = windows;
            return this;
        }

        public HermesChatMemoryRepository build() {
            return new HermesChatMemoryRepository(this);
        }
    }
}
