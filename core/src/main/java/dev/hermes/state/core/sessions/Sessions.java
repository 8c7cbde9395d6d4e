package dev.hermes.state.core.sessions;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.rows.Rows;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.SESSIONS;

/** The sessions table: create, end, reopen, read, resolve, count and list sessions (docs/behaviour.md#sessions). */
public final class Sessions {
    private static final PreparedQuery BY_ID = PreparedQuery.of(schema -> DSL
            .select(schema.fields(SESSIONS)).from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");
    /** create_session and ensure_session: Hermes' INSERT OR IGNORE (an existing id wins, even with an unknown parent). */
    private static final PreparedQuery CREATE = PreparedQuery.of(() -> DSL
                    .insertInto(SESSIONS)
                    .set(SESSIONS.ID, DSL.param("id", String.class))
                    .set(SESSIONS.SOURCE, DSL.param("source", String.class))
                    .set(SESSIONS.USER_ID, DSL.param("userId", String.class))
                    .set(SESSIONS.MODEL, DSL.param("model", String.class))
                    .set(SESSIONS.MODEL_CONFIG, PreparedQuery.json("modelConfig"))
                    .set(SESSIONS.SYSTEM_PROMPT, DSL.param("systemPrompt", String.class))
                    .set(SESSIONS.PARENT_SESSION_ID, DSL.param("parentId", String.class))
                    .set(SESSIONS.STARTED_AT, PreparedQuery.epochSeconds("startedAt", SESSIONS.STARTED_AT))
                    .onConflictDoNothing(),
            "id", "source", "userId", "model", "modelConfig", "systemPrompt", "parentId", "startedAt");
    /**
     * create_session and ensure_session of schema 17: an upsert that fills the metadata still NULL in an
     * existing row (a gateway's bare row, enriched by the agent's later call) and never overwrites a
     * value; source, user_id and started_at of an existing row are kept.
     */
    private static final PreparedQuery UPSERT = PreparedQuery.of(() -> DSL
                    .insertInto(SESSIONS)
                    .set(SESSIONS.ID, DSL.param("id", String.class))
                    .set(SESSIONS.SOURCE, DSL.param("source", String.class))
                    .set(SESSIONS.USER_ID, DSL.param("userId", String.class))
                    .set(SESSIONS.SESSION_KEY, DSL.param("sessionKey", String.class))
                    .set(SESSIONS.CHAT_ID, DSL.param("chatId", String.class))
                    .set(SESSIONS.CHAT_TYPE, DSL.param("chatType", String.class))
                    .set(SESSIONS.THREAD_ID, DSL.param("threadId", String.class))
                    .set(SESSIONS.MODEL, DSL.param("model", String.class))
                    .set(SESSIONS.MODEL_CONFIG, PreparedQuery.json("modelConfig"))
                    .set(SESSIONS.SYSTEM_PROMPT, DSL.param("systemPrompt", String.class))
                    .set(SESSIONS.PARENT_SESSION_ID, DSL.param("parentId", String.class))
                    .set(SESSIONS.CWD, DSL.param("cwd", String.class))
                    .set(SESSIONS.STARTED_AT, PreparedQuery.epochSeconds("startedAt", SESSIONS.STARTED_AT))
                    .onConflict(SESSIONS.ID)
                    .doUpdate()
                    .set(SESSIONS.MODEL, fillNull(SESSIONS.MODEL))
                    .set(SESSIONS.MODEL_CONFIG, fillNull(SESSIONS.MODEL_CONFIG))
                    .set(SESSIONS.SYSTEM_PROMPT, fillNull(SESSIONS.SYSTEM_PROMPT))
                    .set(SESSIONS.SESSION_KEY, fillNull(SESSIONS.SESSION_KEY))
                    .set(SESSIONS.CHAT_ID, fillNull(SESSIONS.CHAT_ID))
                    .set(SESSIONS.CHAT_TYPE, fillNull(SESSIONS.CHAT_TYPE))
                    .set(SESSIONS.THREAD_ID, fillNull(SESSIONS.THREAD_ID))
                    .set(SESSIONS.PARENT_SESSION_ID, fillNull(SESSIONS.PARENT_SESSION_ID))
                    .set(SESSIONS.CWD, fillNull(SESSIONS.CWD)),
            "id", "source", "userId", "sessionKey", "chatId", "chatType", "threadId", "model", "modelConfig",
            "systemPrompt", "parentId", "cwd", "startedAt");
    /** end_session: the first end wins. */
    private static final PreparedQuery END = PreparedQuery.of(() -> DSL
                    .update(SESSIONS)
                    .set(SESSIONS.ENDED_AT, PreparedQuery.epochSeconds("endedAt", SESSIONS.ENDED_AT))
                    .set(SESSIONS.END_REASON, DSL.param("endReason", String.class))
                    .where(SESSIONS.ID.eq(DSL.param("id", String.class)))
                    .and(SESSIONS.ENDED_AT.isNull()),
            "endedAt", "endReason", "id");
    /** An end that replaces any earlier one: a conversation that goes on after its end is continued in a child. */
    private static final PreparedQuery END_AGAIN = PreparedQuery.of(() -> DSL
                    .update(SESSIONS)
                    .set(SESSIONS.ENDED_AT, PreparedQuery.epochSeconds("endedAt", SESSIONS.ENDED_AT))
                    .set(SESSIONS.END_REASON, DSL.param("endReason", String.class))
                    .where(SESSIONS.ID.eq(DSL.param("id", String.class))),
            "endedAt", "endReason", "id");

    private final Backend backend;

    public Sessions(Backend backend) {
        this.backend = backend;
    }

    /**
     * Inserts the session. An existing id: at version 6's rules it is left as it is; at schema 17's the
     * metadata it lacks (NULL) is filled from {@code session} (see {@link #UPSERT}). A new session, or
     * a parent filled in, naming an unknown parent is a ConstraintViolationException; the schema-17
     * columns on a store kept at 6 an InvalidArgumentException.
     */
    public String create(Transaction transaction, NewSessionRow session, double startedAt) throws SQLException {
        boolean v17 = transaction.schema().v17();
        if (!v17 && session.usesV17Columns()) {
            throw new InvalidArgumentException("session_key, chat_id, chat_type, thread_id and cwd need a store at"
                    + " schema version 17; this one is kept at " + transaction.schema().version());
        }
        try {
            // without metadata to fill, the upsert's update would assign every column it fills, each
            // NULL again, and so rewrite the pages of the sessions' indexes on those columns: an
            // insert that ignores an existing row changes the same nothing and writes nothing
            if (v17 && session.fillsMetadata()) {
                UPSERT.execute(transaction, session.id(), session.source(), session.userId(), session.sessionKey(),
                        session.chatId(), session.chatType(), session.threadId(), session.model(),
                        session.modelConfigPython(), session.systemPrompt(), session.parentId(), session.cwd(), startedAt);
            } else {
                CREATE.execute(transaction, session.id(), session.source(), session.userId(), session.model(),
                        session.modelConfig(), session.systemPrompt(), session.parentId(), startedAt);
            }
        } catch (SQLException failure) {
            if (session.parentId() != null && backend.isForeignKeyViolation(failure)) {
                throw new ConstraintViolationException("Cannot create session '" + session.id() + "': parent session '"
                        + session.parentId() + "' does not exist", failure);
            }
            throw failure;
        }
        return session.id();
    }

    /**
     * ensure_session with only a source and a model: a bare session unless its id exists (whose NULL
     * model is filled at schema 17's rules, as {@link #create} does).
     */
    public void ensure(Transaction transaction, String id, String source, @Nullable String model, double startedAt)
            throws SQLException {
        create(transaction, new NewSessionRow(id, source, null, model, null, null, null), startedAt);
    }

    /** {@code COALESCE(sessions.column, excluded.column)}: keeps a value, fills a NULL. */
    private static <T> Field<T> fillNull(Field<T> column) {
        return DSL.coalesce(column, DSL.excluded(column));
    }

    /** True when this call ended the session (it existed and had not ended). */
    public boolean end(Transaction transaction, String id, String endReason, double endedAt) throws SQLException {
        return END.execute(transaction, endedAt, endReason, id) > 0;
    }

    /** Sets ended_at and end_reason whether or not the session had ended (unlike end_session, the last end wins). */
    public void endAgain(Transaction transaction, String id, String endReason, double endedAt) throws SQLException {
        END_AGAIN.execute(transaction, endedAt, endReason, id);
    }

    /** Clears ended_at and end_reason; returns the rows changed. */
    public int reopen(Transaction transaction, String id) {
        return transaction.dsl().update(SESSIONS)
                .setNull(SESSIONS.ENDED_AT)
                .setNull(SESSIONS.END_REASON)
                .where(SESSIONS.ID.eq(id))
                .execute();
    }

    /** Returns the rows changed. */
    public int updateSystemPrompt(Transaction transaction, String id, @Nullable String systemPrompt) {
        return transaction.dsl().update(SESSIONS)
                .set(SESSIONS.SYSTEM_PROMPT, systemPrompt)
                .where(SESSIONS.ID.eq(id))
                .execute();
    }

    /** Every column of the session, or empty. */
    public Optional<Session> get(Transaction transaction, String id) throws SQLException {
        return BY_ID.fetch(transaction, id).stream().findFirst().map(Rows::session);
    }

    /**
     * The exact id if it exists; else the id of the only session whose id starts with the prefix
     * (every character taken literally); empty when none or several match.
     */
    public Optional<String> resolveId(Transaction transaction, String prefix) {
        DSLContext dsl = transaction.dsl();
        if (exists(dsl, prefix)) {
            return Optional.of(prefix);
        }
        List<String> matches = dsl.select(SESSIONS.ID).from(SESSIONS)
                .where(backend.startsWith(SESSIONS.ID, prefix))
                .orderBy(SESSIONS.STARTED_AT.desc())
                .limit(DSL.inline(2))
                .fetch(SESSIONS.ID);
        return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
    }

    public long count(Transaction transaction, @Nullable String source) {
        return transaction.dsl().fetchCount(SESSIONS, sourceIs(source));
    }

    /** search_sessions: all columns, children included, newest started_at first. */
    public List<Session> list(Transaction transaction, @Nullable String source, int limit, int offset) {
        return transaction.dsl().select(transaction.schema().fields(SESSIONS)).from(SESSIONS)
                .where(sourceIs(source))
                .orderBy(SESSIONS.STARTED_AT.desc())
                .limit(limit)
                .offset(offset)
                .fetch(Rows::session);
    }

    public static boolean exists(DSLContext dsl, String sessionId) {
        return dsl.fetchExists(SESSIONS, SESSIONS.ID.eq(sessionId));
    }

    /** Sessions of {@code source}; null or empty (as in Hermes) = all. */
    public static Condition sourceIs(@Nullable String source) {
        return source == null || source.isEmpty() ? DSL.noCondition() : SESSIONS.SOURCE.eq(source);
    }
}
