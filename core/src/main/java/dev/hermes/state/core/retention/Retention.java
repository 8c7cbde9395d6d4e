package dev.hermes.state.core.retention;

import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.sessions.Lineage;
import dev.hermes.state.core.messages.Messages;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.sessions.SessionPreviews;
import dev.hermes.state.core.sessions.Sessions;
import dev.hermes.state.core.messages.Windows;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** What leaves the store: export (one session, or all of them streaming), delete and prune. */
public final class Retention {
    /** The agent's export_all lists sessions with search_sessions(limit=100000). */
    private static final int EXPORT_ALL_LIMIT = 100_000;

    private final Sessions sessions;
    private final Messages messages;
    private final Lineage lineage;
    private final Windows windows;

    public Retention(Sessions sessions, Messages messages, Lineage lineage, Windows windows) {
        this.sessions = sessions;
        this.messages = messages;
        this.lineage = lineage;
        this.windows = windows;
    }

    /** export_session: every column plus the messages (as get_messages), or empty. */
    public Optional<SessionExport> export(Transaction transaction, String sessionId) throws SQLException {
        Optional<Session> session = sessions.get(transaction, sessionId);
        return session.isEmpty() ? Optional.empty()
                : Optional.of(new SessionExport(session.get(), messages.of(transaction, sessionId)));
    }

    /**
     * Hands every session of {@code source} (null = all) with its messages to {@code sink}; returns how
     * many. Newest started first at version 6's rules; at schema 17's the most recently active first
     * (latest message, else start), at most 100,000, as the agent's search_sessions lists them.
     */
    public long exportAll(Transaction transaction, @Nullable String source, Consumer<SessionExport> sink)
            throws SQLException {
        long exported = 0;
        var query = transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(Sessions.sourceIs(source));
        // today's agent exports what its search_sessions lists: the most recently active first, at most 100,000
        var ordered = transaction.schema().v17()
                ? query.orderBy(SessionPreviews.LAST_ACTIVE_VALUE.desc(), SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                        .limit(DSL.inline(EXPORT_ALL_LIMIT))
                : query.orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc());
        try (Cursor<Record> rows = ordered.fetchLazy()) {
            for (Record row : rows) {
                Session session = Rows.session(row);
                sink.accept(new SessionExport(session, messages.of(transaction, session.id())));
                exported++;
            }
        }
        return exported;
    }

    /**
     * Deletes a conversation: the session and every compression child that continues it, with their
     * messages (and search index rows) and windows; other children of those sessions (delegates,
     * branches) become roots, as when one session is deleted. False when there is no such session.
     */
    public boolean deleteConversation(Transaction transaction, String sessionId) throws SQLException {
        List<String> conversation = lineage.conversation(transaction, sessionId);
        if (conversation.isEmpty()) {
            return false;
        }
        DSLContext dsl = transaction.dsl();
        dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID)
                .where(SESSIONS.PARENT_SESSION_ID.in(conversation)).and(SESSIONS.ID.notIn(conversation)).execute();
        dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.in(conversation)).execute();
        windows.forget(transaction, conversation);
        // children before parents: a session's parent must exist while it does
        for (int i = conversation.size() - 1; i >= 0; i--) {
            dsl.deleteFrom(SESSIONS).where(SESSIONS.ID.eq(conversation.get(i))).execute();
        }
        return true;
    }

    /**
     * The sessions a prune removes: ended, started more than {@code olderThan} before the clock's now,
     * of {@code source} when given. Checks its arguments. The cut-off is the agent's
     * ({@code now - days * 86400} in doubles) with the age in seconds as the double nearest to it.
     */
    public static Condition prunable(@Nullable Duration olderThan, @Nullable String source, Clock clock) {
        Duration age = Arguments.age(olderThan, "older-than");
        String sessionSource = Arguments.optionalLabel(source, "source");
        double cutoff = EpochSeconds.now(clock) - EpochSeconds.seconds(age);
        return SESSIONS.ENDED_AT.isNotNull()
                .and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(cutoff))
                .and(Sessions.sourceIs(sessionSource));
    }

    /** The {@link #prunable} sessions, newest first. */
    public List<Session> pruneCandidates(Transaction transaction, Condition prunable) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(prunable)
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch(Rows::session);
    }

    /**
     * Deletes the {@link #prunable} sessions, their children orphaned (never cascaded, at either
     * version's rules), with set-based statements (no bound parameter per session, so any number of
     * sessions can go); returns their ids (for their files). The windows
     * of every session that is gone go too (also those the Python agent's deletes left behind).
     */
    public List<String> prune(Transaction transaction, Condition prunable) throws SQLException {
        List<String> doomed = transaction.dsl().select(SESSIONS.ID).from(SESSIONS).where(prunable).fetch(SESSIONS.ID);
        deletePrunable(transaction, prunable);
        return doomed;
    }

    private int deletePrunable(Transaction transaction, Condition prunable) throws SQLException {
        DSLContext dsl = transaction.dsl();
        var doomed = DSL.select(SESSIONS.ID).from(SESSIONS).where(prunable);
        dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.in(doomed)).execute();
        dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.in(doomed)).execute();
        int deleted = dsl.deleteFrom(SESSIONS).where(prunable).execute();
        windows.forgetOrphans(transaction);
        return deleted;
    }
}
