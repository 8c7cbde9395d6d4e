package dev.hermes.state.langchain4j;

import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.memory.ConversationWindows;
import dev.hermes.state.memory.Conversations;
import dev.hermes.state.memory.HandedOutMessages;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;

import java.util.ArrayList;
import java.util.List;

/**
 * LangChain4j's chat memory in the Hermes store: a memory id is a Hermes session
 * ({@code memoryId.toString()} is the session id; the first update creates it with the source, default
 * {@value #DEFAULT_SOURCE}), every message is stored once and stays searchable, and an update appends
 * only what is new: what {@code MessageWindowChatMemory} evicts stays in the session, no longer
 * returned. Thread-safe.
 */
public final class HermesChatMemoryStore implements ChatMemoryStore {
    public static final String DEFAULT_SOURCE = "langchain4j";

    private final Conversations conversations;
    private final ConversationWindows windows;
    private final StateRepository store;
    private final HandedOutMessages<ChatMessage> handedOut = new HandedOutMessages<>();

    /** With the defaults: source {@value #DEFAULT_SOURCE}, the store's own conversation windows. */
    public HermesChatMemoryStore(StateRepository store) {
        this(builder(store));
    }

    private HermesChatMemoryStore(Builder builder) {
        this.conversations = new Conversations(builder.store, builder.source);
        this.windows = builder.windows != null ? builder.windows : ConversationWindows.of(builder.store);
        this.store = builder.store;
    }

    public static Builder builder(StateRepository store) {
        return new Builder(store);
    }

    /** Every memory id (session id) of this store's source once, oldest first. */
    public List<String> memoryIds() {
        return conversations.ids();
    }

    /** Exactly the messages the last update gave, in order (empty for an unknown memory id). */
    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        String id = id(memoryId);
        List<ChatMessage> messages = new ArrayList<>();
        for (Message row : windows.load(id)) {
            ChatMessage message = LangChain4jMessages.fromRow(row);
            handedOut.remember(id, message, List.of(row.id()));
            messages.add(message);
        }
        return messages;
    }

    /**
     * Makes {@code messages} the memory's window: messages this store handed out are kept as stored,
     * every other one is appended; nothing is deleted. A message that cannot be stored is refused
     * before anything is written.
     */
    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        String id = id(memoryId);
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        // a store that follows the rules of schema 17 keeps structured content: user messages may carry images
        boolean multimodal = store.schemaRules() == SchemaRules.V17;
        List<WindowEntry> window = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            NewMessage row = LangChain4jMessages.toRow(message, multimodal);
            List<Long> stored = handedOut.rowsOf(id, message);
            window.add(stored != null ? WindowEntry.stored(stored.get(0), row)
                    : WindowEntry.fresh(row));
        }
        windows.save(id, conversations.source(), window);
    }

    /** Deletes the memory's session, all its messages and any compression chain, in one transaction. */
    @Override
    public void deleteMessages(Object memoryId) {
        conversations.delete(id(memoryId));
    }

    private static String id(Object memoryId) {
        if (memoryId == null) {
            throw new InvalidArgumentException("A memory id must not be null");
        }
        return Conversations.conversationId(memoryId.toString());
    }

    /** Options: the source new sessions get, and where windows are kept. */
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

        /** The Hermes source of the sessions this store creates and lists (not blank). */
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

        public HermesChatMemoryStore build() {
            return new HermesChatMemoryStore(this);
        }
    }
}
