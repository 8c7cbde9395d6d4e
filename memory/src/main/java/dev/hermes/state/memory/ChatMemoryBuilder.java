package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import org.jspecify.annotations.Nullable;

/**
 * The options both adapters' builders take: the store, the source new conversations get (the adapter's
 * default unless set) and, for tests only, where windows are kept. Each adapter's {@code Builder}
 * extends it and makes its memory from the {@link ConversationMemory} that {@link #build} opens.
 *
 * @param <B> the adapter's builder, returned by the setters
 * @param <M> the framework's message type
 * @param <T> the adapter's memory class
 */
public abstract class ChatMemoryBuilder<B extends ChatMemoryBuilder<B, M, T>, M, T> {
    private final StateRepository store;
    private String source;
    private @Nullable ConversationWindows windows;

    protected ChatMemoryBuilder(StateRepository store, String defaultSource) {
        if (store == null) {
            throw new InvalidArgumentException("A StateRepository is required");
        }
        this.store = store;
        this.source = defaultSource;
    }

    /** The Hermes source of the sessions this memory creates and lists (not blank). */
    public final B source(String source) {
        this.source = source;
        return self();
    }

    /**
     * Where windows are kept; by default the store's own ({@link ConversationWindows#of}). Not API: the
     * adapters' tests set a recording spy through it (RecordingWindows, same package in memory's test jar).
     */
    final B windows(ConversationWindows windows) {
        if (windows == null) {
            throw new InvalidArgumentException("The conversation windows must not be null");
        }
        this.windows = windows;
        return self();
    }

    public final T build() {
        return create(new ConversationMemory<>(store, source,
                windows != null ? windows : ConversationWindows.of(store)));
    }

    /** The adapter's memory over {@code memory}. */
    protected abstract T create(ConversationMemory<M> memory);

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
