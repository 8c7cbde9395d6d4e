package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;

import java.time.Instant;

/**
 * One entry of {@code list_recent_user_messages} (the rewind picker).
 *
 * @param preview the message's text on one line (whitespace runs collapsed, text parts of multimodal
 *                content joined, {@code [multimodal content]} when it has none), at most 80 characters:
 *                a longer one is cut to 77 and ends with {@code ...}
 */
public record RecentUserMessage(long id, Instant timestamp, String preview) {
    public RecentUserMessage {
        if (timestamp == null || preview == null) {
            throw new InvalidArgumentException("timestamp and preview must not be null");
        }
    }
}
