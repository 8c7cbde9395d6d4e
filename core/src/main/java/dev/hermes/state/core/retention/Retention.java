package dev.hermes.state.core.retention;

import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.messages.Messages;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.sessions.Sessions;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** What leaves the store: export (one session, or all of them streaming), delete and prune. */
public final class Retention {
    private static final double SECONDS_PER_DAY = 86_400.0;

    private final Sessions sessions;
    private final Messages messages;

    public Retention(Sessions sessions, Messages messages) {
        this.sessions = sessions;
        this.messages = messages;
    }

    /** export_session: every column plus the messages (as get_messages), or empty. */
    public Optional<SessionExport> export(Transaction transaction, String sessionId) throws SQLException {
        Optional<Session> session = sessions.get(transaction, sessionId);
        return session.isEmpty() ? Optional.empty()
                : Optional.of(new SessionExport(session.get(), messages.of(transaction, sessionId)));
    }

    /** Hands every session of {@code source} (null = all; newest first) with its messages to {@code sink}; returns how many. */
    public long exportAll(Transaction transaction, @Nullable String source, Consumer<SessionExport> sink)
            throws SQLException {
        long exported = 0;
        try (Cursor<Record> rows = transaction.dsl().select(SESSIONS.fields()).from(SESSIONS)
                .where(Sessions.sourceIs(source))
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetchLazy()) {
            for (Record row : rows) {
                Session session = Rows.session(row);
                sink.accept(new SessionExport(session, messages.of(transaction, session.id())));
                exported++;
            }
        }
        return exported;
    }

    /**
     * delete_session: its children become roots (grandchildren keep their parent), its messages (and
     * their search index rows) and the session are deleted; false if unknown.
     */
    public boolean delete(Transaction transaction, String sessionId) {
        DSLContext dsl = transaction.dsl();
        if (!Sessions.exists(dsl, sessionId)) {
            return false;
        }
        dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.eq(sessionId)).execute();
        dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(sessionId)).execute();
        dsl.deleteFrom(SESSIONS).where(SESSIONS.ID.eq(sessionId)).execute();
        return true;
    }

    /**
     * The sessions a prune removes: ended, started more than {@code olderThanDays} days before the
     * clock's now (fractions allowed), of {@code source} when given. Checks its arguments.
     */
    public static Condition prunable(double olderThanDays, @Nullable String source, Clock clock) {
        Arguments.days(olderThanDays, "older-than days");
        String sessionSource = Arguments.optionalLabel(source, "source");
        double cutoff = EpochSeconds.now(clock) - olderThanDays * SECONDS_PER_DAY;
        return SESSIONS.ENDED_AT.isNotNull()
                .and(EpochSeconds.column(SESSIONS.STARTED_AT).lt(cutoff))
                .and(Sessions.sourceIs(sessionSource));
    }

    /** The {@link #prunable} sessions, newest first. */
    public List<Session> pruneCandidates(Transaction transaction, Condition prunable) {
        return transaction.dsl().selectFrom(SESSIONS)
                .where(prunable)
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch(Rows::session);
    }

    /**
     * Deletes the {@link #prunable} sessions as {@link #delete} does, with set-based statements (no
     * bound parameter per session, so any number of sessions can go); returns how many.
     */
    public int prune(Transaction transaction, Condition prunable) {
        DSLContext dsl = transaction.dsl();
        var doomed = DSL.select(SESSIONS.ID).from(SESSIONS).where(prunable);
        dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.in(doomed)).execute();
        dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.in(doomed)).execute();
        return dsl.deleteFrom(SESSIONS).where(prunable).execute();
    }
}
