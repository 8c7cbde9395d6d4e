package dev.hermes.state.core.coordination;

import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.Rows;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The gateway's routing peer kept on a session's row, so that the routing index the gateway keeps in a
 * file can be rebuilt from the store after a restart: the session key exactly, or else the whole peer
 * (platform, user, chat, chat type, thread), never a partial match that could cross chats.
 */
public final class GatewayPeers {

    /** record_gateway_session_peer: the peer's six columns set as given (nulls included); rows changed. */
    public int record(Transaction transaction, String sessionId, GatewayPeer peer) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.SESSION_KEY, peer.sessionKey())
                .set(SESSIONS.SOURCE, peer.source())
                .set(SESSIONS.USER_ID, peer.userId())
                .set(SESSIONS.CHAT_ID, peer.chatId())
                .set(SESSIONS.CHAT_TYPE, peer.chatType())
                .set(SESSIONS.THREAD_ID, peer.threadId())
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
    }

    /**
     * find_latest_gateway_session_for_peer: the most recently started recoverable session (not ended, or
     * ended only by the old gateway's {@code agent_close}, and with messages) of the platform with the
     * peer's session key; failing that, when the peer names its chat and chat type, the one whose whole
     * peer matches (a missing value matching only a missing or empty one). Empty without a session key.
     */
    public Optional<Session> latest(Transaction transaction, GatewayPeer peer) {
        if (peer.sessionKey() == null || peer.sessionKey().isEmpty()) {
            return Optional.empty();
        }
        Optional<Session> byKey = first(transaction, SESSIONS.SESSION_KEY.eq(peer.sessionKey())
                .and(SESSIONS.SOURCE.eq(peer.source())));
        if (byKey.isPresent() || peer.chatId() == null || peer.chatType() == null) {
            return byKey;
        }
        return first(transaction, SESSIONS.SOURCE.eq(peer.source())
                .and(sameOrBothEmpty(SESSIONS.USER_ID, peer.userId()))
                .and(sameOrBothEmpty(SESSIONS.CHAT_ID, peer.chatId()))
                .and(sameOrBothEmpty(SESSIONS.CHAT_TYPE, peer.chatType()))
                .and(sameOrBothEmpty(SESSIONS.THREAD_ID, peer.threadId())));
    }

    private static Optional<Session> first(Transaction transaction, Condition peer) {
        DSLContext dsl = transaction.dsl();
        return dsl.select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(peer)
                .and(SESSIONS.ENDED_AT.isNull().or(SESSIONS.END_REASON.eq(DSL.inline("agent_close"))))
                .and(DSL.coalesce(SESSIONS.MESSAGE_COUNT, DSL.inline(0L)).gt(DSL.inline(0L))
                        .orExists(DSL.selectOne().from(MESSAGES).where(MESSAGES.SESSION_ID.eq(SESSIONS.ID))))
                .orderBy(SESSIONS.STARTED_AT.desc())
                .limit(DSL.inline(1))
                .fetchOptional(Rows::session);
    }

    /** {@code COALESCE(column, '') = COALESCE(value, '')}. */
    private static Condition sameOrBothEmpty(Field<String> column, @Nullable String value) {
        return DSL.coalesce(column, DSL.inline("")).eq(value == null ? "" : value);
    }
}
