package dev.hermes.state.memory;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.WindowEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * The store's own windows ({@link ConversationWindows#of}), with every save the adapter asked for
 * recorded: what the adapters' tests read to see which entries an adapter handed over as kept and which
 * as new. {@link #into} sets it on an adapter's builder (the windows are not API, so only this package can).
 */
public final class RecordingWindows implements ConversationWindows {
    private final ConversationWindows store;
    private final List<List<WindowEntry>> saves = new ArrayList<>();

    public RecordingWindows(StateRepository store) {
        this.store = ConversationWindows.of(store);
    }

    /** {@code builder}, its windows this recorder. */
    public <B extends ChatMemoryBuilder<B, ?, ?>> B into(B builder) {
        return builder.windows(this);
    }

    /** Every save so far, its entries as given. */
    public synchronized List<List<WindowEntry>> saves() {
        return List.copyOf(saves);
    }

    @Override
    public List<Message> load(String conversationId) {
        return store.load(conversationId);
    }

    @Override
    public SavedWindow save(String conversationId, String source, List<WindowEntry> window) {
        synchronized (this) {
            saves.add(List.copyOf(window));
        }
        return store.save(conversationId, source, window);
    }
}
