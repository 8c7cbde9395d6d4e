package dev.hermes.state.core.retention;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.sessions.Chunks;
import dev.hermes.state.core.messages.Windows;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Deleting sessions as the agent does: one, several, the empty ones, the TUI's ghosts. Schema 17's
 * rule for children: a subagent run (a row whose {@code model_config} carries {@code _delegate_from},
 * tagged when it was created or by the version-16 migration) goes with the session it was delegated
 * from, its own delegates with it; every other child (branches, continuations, untagged rows) becomes
 * a root. Each returns the ids it removed, so the caller can remove the sessions' files, and the
 * conversation windows of every removed session go in the same transaction. A session's Telegram
 * topic binding goes with it (the bindings' foreign key cascades).
 */
public final class SessionDeletes {
    private static final String DELEGATE_MARKER = "_delegate_from";
    private static final double SECONDS_PER_DAY = 86_400.0;

    private final Backend backend;
    private final Windows windows;

    public SessionDeletes(Backend backend, Windows windows) {
        this.backend = backend;
        this.windows = windows;
    }

    /**
     * delete_session: empty when the session does not exist; else its delegate descendants (schema 17's
     * rules only), then the session itself, each with its messages, the other children orphaned. The
     * session's id comes first in the answer.
     */
    public List<String> delete(Transaction transaction, String sessionId) throws SQLException {
        DSLContext dsl = transaction.dsl();
        if (!dsl.fetchExists(SESSIONS, SESSIONS.ID.eq(sessionId))) {
            return List.of();
        }
        return deleteExisting(transaction, List.of(sessionId));
    }

    /**
     * delete_sessions: the sessions among {@code sessionIds} that exist (empty and null ids skipped,
     * duplicates once), as {@link #delete} does each, in one transaction; the ids of those sessions
     * first, then their delegates'.
     */
    public List<String> deleteAll(Transaction transaction, Collection<String> sessionIds) throws SQLException {
        Set<String> wanted = new LinkedHashSet<>();
        for (String id : sessionIds) {
            if (id != null && !id.isEmpty()) {
                wanted.add(id);
            }
        }
        DSLContext dsl = transaction.dsl();
        List<String> existing = new ArrayList<>();
        for (List<String> chunk : Chunks.of(wanted)) {
            existing.addAll(dsl.select(SESSIONS.ID).from(SESSIONS).where(SESSIONS.ID.in(chunk)).fetch(SESSIONS.ID));
        }
        return existing.isEmpty() ? List.of() : deleteExisting(transaction, existing);
    }

    /**
     * delete_session_if_empty: deletes the session only when it has no title, no message and no
     * child, checked by the delete itself; empty when it was kept (or unknown).
     */
    public List<String> deleteIfEmpty(Transaction transaction, String sessionId) throws SQLException {
        var child = SESSIONS.as("child");
        int deleted = transaction.dsl().deleteFrom(SESSIONS)
                .where(SESSIONS.ID.eq(sessionId))
                .and(SESSIONS.TITLE.isNull())
                .andNotExists(DSL.selectOne().from(MESSAGES).where(MESSAGES.SESSION_ID.eq(SESSIONS.ID)))
                .andNotExists(DSL.selectOne().from(child).where(child.PARENT_SESSION_ID.eq(SESSIONS.ID)))
                .execute();
        if (deleted == 0) {
            return List.of();
        }
        windows.forget(transaction, List.of(sessionId));
        return List.of(sessionId);
    }

    /** The sessions count_empty_sessions counts and delete_empty_sessions deletes: ended, unarchived, no message counted. */
    public static Condition empty() {
        return SESSIONS.MESSAGE_COUNT.eq(DSL.inline(0L))
                .and(SESSIONS.ENDED_AT.isNotNull())
                .and(SESSIONS.ARCHIVED.eq(DSL.inline(false, SESSIONS.ARCHIVED)));
    }

    public long countEmpty(Transaction transaction) {
        return transaction.dsl().fetchCount(SESSIONS, empty());
    }

    /** delete_empty_sessions: the {@link #empty} sessions with their messages, children orphaned (never cascaded). */
    public List<String> deleteEmpty(Transaction transaction) throws SQLException {
        List<String> doomed = transaction.dsl().select(SESSIONS.ID).from(SESSIONS).where(empty()).fetch(SESSIONS.ID);
        removeOrphaning(transaction, doomed);
        return doomed;
    }

    /**
     * prune_empty_ghost_sessions: TUI sessions with no title and no message, ended and started more than
     * a day before {@code now}. Their children are not orphaned first (a ghost has none; one that has
     * makes the delete fail on the foreign key, as it does for the agent).
     */
    public List<String> pruneGhosts(Transaction transaction, double now) throws SQLException {
        DSLContext dsl = transaction.dsl();
        List<String> ghosts = dsl.select(SESSIONS.ID).from(SESSIONS)
                .where(SESSIONS.SOURCE.eq(DSL.inline("tui")))
                .and(SESSIONS.TITLE.isNull())
                .and(SESSIONS.ENDED_AT.isNotNull())
                .and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(now - SECONDS_PER_DAY))
                .andNotExists(DSL.selectOne().from(MESSAGES).where(MESSAGES.SESSION_ID.eq(SESSIONS.ID)))
                .fetch(SESSIONS.ID);
        for (List<String> chunk : Chunks.of(ghosts)) {
            dsl.deleteFrom(SESSIONS).where(SESSIONS.ID.in(chunk)).execute();
            windows.forget(transaction, chunk);
        }
        return ghosts;
    }

    /** Deletes sessions known to exist, with their delegate descendants at schema 17's rules. */
    private List<String> deleteExisting(Transaction transaction, List<String> sessionIds) throws SQLException {
        List<String> removed = new ArrayList<>(sessionIds);
        if (transaction.schema().v17()) {
            List<String> delegates = delegateDescendants(transaction.dsl(), sessionIds);
            removeOrphaning(transaction, delegates);
            removed.addAll(delegates);
        }
        removeOrphaning(transaction, sessionIds);
        return removed;
    }

    /**
     * Every session delegated from one of {@code parents}, at any depth: a row whose marker names a
     * found session, or whose parent is a found session and that carries a marker at all. The
     * parents themselves are never among them, even when a marker chain leads back to one.
     */
    private List<String> delegateDescendants(DSLContext dsl, List<String> parents) {
        Field<String> marker = backend.jsonMember(SESSIONS.MODEL_CONFIG, DELEGATE_MARKER);
        Set<String> found = new LinkedHashSet<>(parents);
        List<String> frontier = parents;
        List<String> delegates = new ArrayList<>();
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (List<String> chunk : Chunks.of(frontier)) {
                for (String id : dsl.select(SESSIONS.ID).from(SESSIONS)
                        .where(marker.in(chunk).or(SESSIONS.PARENT_SESSION_ID.in(chunk).and(marker.isNotNull())))
                        .fetch(SESSIONS.ID)) {
                    if (found.add(id)) {
                        next.add(id);
                    }
                }
            }
            delegates.addAll(next);
            frontier = next;
        }
        return delegates;
    }

    /**
     * Deletes {@code doomed} with their messages (the search index follows through its triggers) and
     * windows; every session whose parent is one of them becomes a root first, so the parent
     * references hold at every step (the agent's prune and delete leave other children this way).
     */
    public void removeOrphaning(Transaction transaction, Collection<String> doomed) throws SQLException {
        DSLContext dsl = transaction.dsl();
        List<List<String>> chunks = Chunks.of(doomed);
        for (List<String> chunk : chunks) {
            dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.in(chunk)).execute();
        }
        for (List<String> chunk : chunks) {
            dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.in(chunk)).execute();
            dsl.deleteFrom(SESSIONS).where(SESSIONS.ID.in(chunk)).execute();
            windows.forget(transaction, chunk);
        }
    }
}
