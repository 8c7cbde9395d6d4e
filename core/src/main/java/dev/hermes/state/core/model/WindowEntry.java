package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * One message of a conversation window being saved
 * ({@link dev.hermes.state.core.StateRepository#saveConversationWindow}): its content, and, when it is
 * a message the caller loaded from the conversation's window, the id of that stored row.
 *
 * @param message  the message's columns
 * @param storedId the id of the stored row this entry is (it is kept, not written again); null for a
 *                 new message, which is appended. An id that is not a message of the conversation
 *                 makes the entry a new message.
 */
public record WindowEntry(NewMessage message, @Nullable Long storedId) {

    /** A message to append. */
    public static WindowEntry fresh(NewMessage message) {
        return new WindowEntry(message, null);
    }

    /** The stored row {@code id}, kept (its content as loaded). */
    public static WindowEntry stored(long id, NewMessage message) {
        return new WindowEntry(message, id);
    }
}
