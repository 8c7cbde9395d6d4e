package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;

import java.util.List;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The conversations of one adapter: Hermes sessions of its source. A conversation is a root session
 * and, after rewrites, the compression chain that continues it; its id is the root's id.
 */
final class Conversations {
    private final StateRepository store;
    private final String source;

    public Conversations(StateRepository store, String source) {
        if (store == null) {
            throw new InvalidArgumentException("A StateRepository is required");
        }
        this.store = store;
        this.source = source(source);
    }

    /** The source new conversations are created with. */
    public String source() {
        return source;
    }

    /**
     * Every conversation of this source once: the root sessions of the source (compression children,
     * which continue a conversation, are not listed), oldest first.
     */
    public List<String> ids() {
        return store.dsl().select(SESSIONS.ID).from(SESSIONS)
                .where(SESSIONS.SOURCE.eq(source))
                .and(SESSIONS.PARENT_SESSION_ID.isNull())
                .orderBy(SESSIONS.STARTED_AT, SESSIONS.ID)
                .fetch(SESSIONS.ID);
    }

    /**
     * Deletes the conversation: its session and every compression child that continues it, with all
     * their messages (and search index rows) and windows, in one transaction; other children of those
     * sessions (delegates, branches) become roots, as delete_session does. False when there is no such
     * session.
     */
    public boolean delete(String conversationId) {
        return store.deleteConversation(conversationId(conversationId));
    }

    /** A conversation id as both frameworks' memories require it: present, not blank. */
    public static String conversationId(String conversationId) {
        if (conversationId == null || conversationId.isBlank()) {
            throw new InvalidArgumentException("A conversation id must not be null or blank");
        }
        return conversationId;
    }

    private static String source(String source) {
        if (source == null || source.isBlank()) {
            throw new InvalidArgumentException("A source must not be null or blank");
        }
        return source;
    }
}
