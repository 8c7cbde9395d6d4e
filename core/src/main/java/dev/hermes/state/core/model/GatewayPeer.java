package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * Who a gateway session talks to ({@code record_gateway_session_peer},
 * {@code find_latest_gateway_session_for_peer}): the platform, the deterministic session key, and the
 * user, chat and thread it stands for.
 *
 * @param source     the platform ({@code telegram}, {@code discord}...)
 * @param userId     the user, if known
 * @param sessionKey the gateway's routing key (nothing is recorded or found without one)
 * @param chatId     the chat or room
 * @param chatType   {@code dm}, {@code group}...
 * @param threadId   the thread within the chat
 */
public record GatewayPeer(String source, @Nullable String userId, @Nullable String sessionKey,
                          @Nullable String chatId, @Nullable String chatType, @Nullable String threadId) {
    public GatewayPeer {
        Objects.requireNonNull(source, "source");
    }
}
