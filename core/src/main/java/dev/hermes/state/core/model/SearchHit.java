package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;

/**
 * One search result (docs/behaviour.md#search).
 *
 * @param snippet        FTS5 {@code snippet(messages_fts, 0, '>>>', '<<<', '...', 40)}; for the CJK
 *                       fallback, 120 characters starting 40 before the match
 * @param sessionStarted the session's started_at
 * @param context        previous message of the same session, the hit, the next one (by timestamp, id),
 *                       content cut to 200 characters (code points); 1 to 3 messages
 */
public record SearchHit(
        long id,
        String sessionId,
        String role,
        String snippet,
        Instant timestamp,
        @Nullable String toolName,
        String source,
        @Nullable String model,
        Instant sessionStarted,
        List<ContextMessage> context) {

    public SearchHit {
        context = List.copyOf(context);
    }

    /**
     * A message of a hit's context: its role and its first 200 code points of content; a message without
     * content (an assistant turn that only called tools) has {@code ""}, as in Hermes.
     */
    public record ContextMessage(String role, String content) {
    }
}
