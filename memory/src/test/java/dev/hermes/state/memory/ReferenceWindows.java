package dev.hermes.state.memory;

import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The window contract as the adapters' tests need it until the store keeps windows itself: the window
 * (row ids) in memory, new rows appended through {@code appendMessages}, every save recorded. No
 * transaction spans a save and nothing survives the process: the tests of those properties wait for
 * the core feature.
 */
public final class ReferenceWindows implements ConversationWindows {
    private final StateRepository store;
    private final Map<String, List<Long>> windows = new HashMap<>();
    private final List<List<Entry>> saves = new ArrayList<>();

    public ReferenceWindows(StateRepository store) {
        this.store = store;
    }

    /** Every save so far, its entries as given. */
    public synchronized List<List<Entry>> saves() {
        return List.copyOf(saves);
    }

    @Override
    public synchronized List<Message> load(String conversationId) {
        List<Message> rows = store.getMessages(conversationId);
        List<Long> window = windows.get(conversationId);
        if (window == null) {
            return rows;
        }
        Map<Long, Message> byId = rows.stream().collect(Collectors.toMap(Message::id, Function.identity()));
        return window.stream().map(byId::get).toList();
    }

    @Override
    public synchronized void save(String conversationId, String source, List<Entry> window) {
        saves.add(List.copyOf(window));
        store.ensureSession(conversationId, source, null);
        List<NewMessage> fresh = window.stream().filter(entry -> entry.storedId() == null).map(Entry::message).toList();
        List<Long> appended = new ArrayList<>(store.appendMessages(conversationId, fresh));
        List<Long> ids = new ArrayList<>();
        for (Entry entry : window) {
            ids.add(entry.storedId() != null ? entry.storedId() : appended.remove(0));
        }
        windows.put(conversationId, ids);
    }
}
