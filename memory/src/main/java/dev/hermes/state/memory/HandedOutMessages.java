package dev.hermes.state.memory;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which stored rows each message object an adapter handed out stands for, so that a save can tell a
 * message it loaded (kept: its rows are not written again) from a new one that merely has the same
 * text. Both frameworks' window memories load the window and hand those very objects back in the
 * next save, so identity, not equality, is the exact test: a user who says "yes" twice sends two
 * equal messages, and both must be stored.
 *
 * <p>Objects are held weakly: a message the application dropped is forgotten with it. Thread-safe.
 *
 * @param <M> the framework's message type
 */
final class HandedOutMessages<M> {
    private final Map<IdentityKey, Rows> rows = new HashMap<>();
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

    /** The stored rows {@code message} was loaded from, for a save to {@code conversationId}. */
    private record Rows(String conversationId, List<Long> ids) {
    }

    /** Remembers that {@code message} was loaded from these rows of the conversation's window. */
    public synchronized void remember(String conversationId, M message, List<Long> rowIds) {
        expunge();
        rows.put(new IdentityKey(message, collected), new Rows(conversationId, List.copyOf(rowIds)));
    }

    /**
     * The stored row ids of {@code message} when this very object was handed out for this
     * conversation; null for any other object (a new message).
     */
    public synchronized @Nullable List<Long> rowsOf(String conversationId, M message) {
        expunge();
        Rows known = rows.get(new IdentityKey(message, null));
        return known != null && known.conversationId().equals(conversationId) ? known.ids() : null;
    }

    private void expunge() {
        for (Object key; (key = collected.poll()) != null; ) {
            rows.remove(key);
        }
    }

    /** A weak reference that is equal to another exactly when both refer to the same live object. */
    private static final class IdentityKey extends WeakReference<Object> {
        private final int hash;

        IdentityKey(Object referent, @Nullable ReferenceQueue<Object> queue) {
            super(referent, queue);
            this.hash = System.identityHashCode(referent);
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof IdentityKey key)) {
                return false;
            }
            Object referent = get();
            return referent != null && referent == key.get();
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
