package dev.hermes.state.springai;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.ChatMemoryBuilder;
import dev.hermes.state.memory.ConversationMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

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

    private final ConversationMemory<Message> memory;

    /** With the defaults: source {@value #DEFAULT_SOURCE}, the store's own conversation windows. */
    public HermesChatMemoryRepository(StateRepository store) {
        this(builder(store).build().memory);
    }

    private HermesChatMemoryRepository(ConversationMemory<Message> memory) {
        this.memory = memory;
    }

    public static Builder builder(StateRepository store) {
        return new Builder(store);
    }

    /** Every conversation of this repository's source once, oldest first. */
    @Override
    public List<String> findConversationIds() {
        return memory.ids();
    }

    /** Exactly the messages the last save gave, in order (empty for an unknown conversation). */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        return memory.load(conversationId, SpringAiMessages::groups, SpringAiMessages::fromGroup);
    }

    /**
     * Makes {@code messages} the conversation's window: messages this repository handed out are kept
     * as stored, every other one is appended; nothing is deleted. A message that cannot be stored
     * (media other than a user's images, any media on a store kept at schema 6, an unknown type) is
     * refused before anything is written.
     */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        memory.save(conversationId, messages, SpringAiMessages::toRows);
    }

    /** Deletes the conversation, all its messages and any compression chain, in one transaction. */
    @Override
    public void deleteByConversationId(String conversationId) {
        memory.delete(conversationId);
    }

    /** Options: the source new conversations get. */
    public static final class Builder extends ChatMemoryBuilder<Builder, Message, HermesChatMemoryRepository> {
        private Builder(StateRepository store) {
            super(store, DEFAULT_SOURCE);
        }

        @Override
        protected HermesChatMemoryRepository create(ConversationMemory<Message> memory) {
            return new HermesChatMemoryRepository(memory);
        }
    }
}
