package dev.hermes.state.core.model;

import java.util.List;

/**
 * What {@code get_anchored_view} returns: the window around an anchor, role-filtered, with the session's
 * opening and closing turns outside it.
 *
 * @param window         the messages around the anchor of the kept roles; the anchor always
 * @param messagesBefore as {@link MessagesAround#messagesBefore()}, before the role filter
 * @param messagesAfter  as {@link MessagesAround#messagesAfter()}, before the role filter
 * @param bookendStart   the session's first messages of the kept roles with non-empty content, before the
 *                       window (by id)
 * @param bookendEnd     its last such messages after the window (by id)
 */
public record AnchoredView(List<Message> window, int messagesBefore, int messagesAfter, List<Message> bookendStart,
                           List<Message> bookendEnd) {
    public AnchoredView {
        window = List.copyOf(window);
        bookendStart = List.copyOf(bookendStart);
        bookendEnd = List.copyOf(bookendEnd);
    }

    /** The answer for an anchor that is not in the session. */
    public static AnchoredView empty() {
        return new AnchoredView(List.of(), 0, 0, List.of(), List.of());
    }
}
