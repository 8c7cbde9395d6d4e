package dev.hermes.state.core.model;

import java.util.List;

/**
 * What {@code get_messages_around} returns: a window of a session's messages around an anchor. Every
 * row counts, live or not (the window is how a search hit is read in its place).
 *
 * @param window         up to {@code window} messages before the anchor, the anchor, up to {@code window}
 *                       after it, by id; empty when the anchor is not a message of the session
 * @param messagesBefore how many of the window come before the anchor (less than asked: the session's start)
 * @param messagesAfter  how many come after it (less than asked: the session's end)
 */
public record MessagesAround(List<Message> window, int messagesBefore, int messagesAfter) {
    public MessagesAround {
        window = List.copyOf(window);
    }

    /** The answer for an anchor that is not in the session. */
    public static MessagesAround empty() {
        return new MessagesAround(List.of(), 0, 0);
    }
}
