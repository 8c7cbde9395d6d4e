package dev.hermes.state.langchain4j;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.ChatMemoryBuilder;
import dev.hermes.state.memory.ConversationMemory;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;

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

    private final ConversationMemory<ChatMessage> memory;

    /** With the defaults: source {@value #DEFAULT_SOURCE}, the store's own conversation windows. */
    public HermesChatMemoryStore(StateRepository store) {
        this(builder(store).build().memory);
    }

    private HermesChatMemoryStore(ConversationMemory<ChatMessage> memory) {
        this.memory = memory;
    }

    public static Builder builder(StateRepository store) {
        return new Builder(store);
    }

    /** Every memory id (session id) of this store's source once, oldest first. */
    public List<String> memoryIds() {
        return memory.ids();
    }

    /** Exactly the messages the last update gave, in order (empty for an unknown memory id). */
    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        // one row a message: each row is its own group
        return memory.load(id(memoryId), rows -> rows.stream().map(List::of).toList(),
                rows -> LangChain4jMessages.fromRow(rows.get(0)));
    }

    /**
     * Makes {@code messages} the memory's window: messages this store handed out are kept as stored,
     * every other one is appended; nothing is deleted. A message that cannot be stored is refused
     * before anything is written.
     */
    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        memory.save(id(memoryId), messages,
                (message, multimodal) -> List.of(LangChain4jMessages.toRow(message, multimodal)));
    }

    /** Deletes the memory's session, all its messages and any compression chain, in one transaction. */
    @Override
    public void deleteMessages(Object memoryId) {
        memory.delete(id(memoryId));
    }

    private static String id(Object memoryId) {
        if (memoryId == null) {
            throw new InvalidArgumentException("A memory id must not be null");
        }
        return memoryId.toString();
    }

    /** Options: the source new sessions get. */
    public static final class Builder extends ChatMemoryBuilder<Builder, ChatMessage, HermesChatMemoryStore> {
        private Builder(StateRepository store) {
            super(store, DEFAULT_SOURCE);
        }

        @Override
        protected HermesChatMemoryStore create(ConversationMemory<ChatMessage> memory) {
            return new HermesChatMemoryStore(memory);
        }
    }
}
