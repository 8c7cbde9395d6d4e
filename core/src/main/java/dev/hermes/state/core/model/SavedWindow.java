package dev.hermes.state.core.model;

import java.util.List;

/**
 * What a save of a conversation window did.
 *
 * @param sessionId        the session that holds the window now: the conversation's compression tip
 * @param messageIds       the window's message ids, in window order
 * @param appended         how many messages the save appended
 * @param continuedInChild the window was not the stored history trimmed and extended: the tip was ended
 *                         with {@code compression} and the whole window written to a new child session
 *                         ({@link #sessionId()})
 */
public record SavedWindow(String sessionId, List<Long> messageIds, int appended, boolean continuedInChild) {

    public SavedWindow {
        messageIds = List.copyOf(messageIds);
    }
}
