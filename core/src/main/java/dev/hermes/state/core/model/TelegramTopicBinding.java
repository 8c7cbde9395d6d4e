package dev.hermes.state.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One Telegram DM topic (a thread of a private chat) bound to one session
 * ({@code telegram_dm_topic_bindings}, created on demand by the topic-mode opt-in).
 *
 * @param managedMode {@code auto} unless the binder said otherwise
 * @param linkedAt    when the topic was first bound
 * @param updatedAt   when the binding last changed
 */
public record TelegramTopicBinding(String chatId, String threadId, String userId, String sessionKey, String sessionId,
                                   String managedMode, Instant linkedAt, Instant updatedAt) {
    public TelegramTopicBinding {
        Objects.requireNonNull(chatId, "chatId");
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
