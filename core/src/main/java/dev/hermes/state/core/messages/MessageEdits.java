package dev.hermes.state.core.messages;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RewindResult;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The writes that change a transcript after the fact, as today's agent makes them: the rewind (a soft
 * delete: rows flagged inactive, kept on disk) and its undo, the rewrite of a transcript
 * ({@code replace_messages}), and the in-place compaction that archives the live rows under the same
 * session and puts the summary in their place. Each runs inside the caller's one write transaction.
 */
public final class MessageEdits {
    private static final PreparedQuery MESSAGE = PreparedQuery.of(schema -> DSL
            .select(MessageRows.columns(schema)).from(MESSAGES)
            .where(MESSAGES.ID.eq(DSL.param("id", Long.class)))
            .and(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class))), "id", "sessionId");
    private static final PreparedQuery HIDE_FROM = PreparedQuery.of(() -> DSL
            .update(MESSAGES).set(MessageRows.column(MESSAGES.ACTIVE), DSL.inline(0L))
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MESSAGES.ID.ge(DSL.param("id", Long.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(1L))), "sessionId", "id");
    private static final PreparedQuery SHOW_FROM = PreparedQuery.of(() -> DSL
            .update(MESSAGES).set(MessageRows.column(MESSAGES.ACTIVE), DSL.inline(1L))
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MESSAGES.ID.ge(DSL.param("id", Long.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(0L))), "sessionId", "id");
    private static final PreparedQuery COUNT_REWIND = PreparedQuery.of(() -> DSL
            .update(SESSIONS)
            .set(SESSIONS.REWIND_COUNT, DSL.coalesce(SESSIONS.REWIND_COUNT, DSL.inline(0L)).plus(DSL.inline(1L)))
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");
    private static final PreparedQuery HEAD = PreparedQuery.of(() -> DSL
            .select(DSL.max(MESSAGES.ID)).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(1L))), "sessionId");
    private static final PreparedQuery DELETE_ALL = PreparedQuery.of(() -> DSL
            .deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class))), "sessionId");
    private static final PreparedQuery DELETE_LIVE = PreparedQuery.of(() -> DSL
            .deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(1L))), "sessionId");
    private static final PreparedQuery ARCHIVE_LIVE = PreparedQuery.of(() -> DSL
            .update(MESSAGES)
            .set(MessageRows.column(MESSAGES.ACTIVE), DSL.inline(0L))
            .set(MessageRows.column(MESSAGES.COMPACTED), DSL.inline(1L))
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(1L))), "sessionId");
    private static final PreparedQuery SET_COUNTERS = PreparedQuery.of(() -> DSL
            .update(SESSIONS)
            .set(SESSIONS.MESSAGE_COUNT, DSL.param("messageCount", Long.class))
            .set(SESSIONS.TOOL_CALL_COUNT, DSL.param("toolCallCount", Long.class))
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "messageCount", "toolCallCount", "sessionId");
    private static final PreparedQuery SESSION_EXISTS = PreparedQuery.of(() -> DSL
            .selectOne().from(SESSIONS).where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");

    /**
     * rewind_to_message: hides the target user message and every later live row of the session, and
     * counts the rewind (also when nothing was left to hide, as the agent does); message_count stays.
     *
     * @throws InvalidArgumentException the target is not a message of the session, or not a user message;
     *                                  nothing is written
     */
    public RewindResult rewind(Transaction transaction, String sessionId, long targetId) throws SQLException {
        StoreSchema schema = transaction.schema();
        require(schema, "rewind_to_message", MESSAGES.ACTIVE, SESSIONS.REWIND_COUNT);
        Message target = message(transaction, targetId, sessionId);
        if (target == null) {
            throw new InvalidArgumentException("message " + targetId + " not found in session " + sessionId);
        }
        if (!"user".equals(target.role())) {
            throw new InvalidArgumentException("rewind target must be a 'user' message (got role='" + target.role()
                    + "', id=" + targetId + ")");
        }
        int hidden = HIDE_FROM.execute(transaction, sessionId, targetId);
        COUNT_REWIND.execute(transaction, sessionId);
        Result<Record> head = HEAD.fetch(transaction, sessionId);
        Object newHead = head.isEmpty() ? null : head.get(0).get(0);
        return new RewindResult(hidden, target, newHead == null ? null : ((Number) newHead).longValue());
    }

    /** restore_rewound: makes every inactive row of the session from {@code sinceId} on live again; returns how many. */
    public int restore(Transaction transaction, String sessionId, long sinceId) throws SQLException {
        require(transaction.schema(), "restore_rewound", MESSAGES.ACTIVE);
        return SHOW_FROM.execute(transaction, sessionId, sinceId);
    }

    /**
     * replace_messages: the session's transcript becomes {@code rows} (new ids, the rewrite's timestamps, see
     * {@link MessageAppends#insertRows}); {@code liveOnly}: only the live rows are replaced, the archived and
     * rewound ones stay. message_count and tool_call_count count the new rows. Returns how many rows it wrote.
     *
     * @throws ConstraintViolationException there are rows and no such session; nothing is written
     */
    public int replace(Transaction transaction, MessageAppends appends, MessageAppends.Sql sql, String sessionId,
                       List<NewMessageRow> rows, boolean liveOnly, double now) throws SQLException {
        if (liveOnly) {
            require(transaction.schema(), "replace_messages(active_only=True)", MESSAGES.ACTIVE);
        }
        requireSession(transaction, sessionId, rows);
        (liveOnly ? DELETE_LIVE : DELETE_ALL).execute(transaction, sessionId);
        appends.insertRows(transaction, sql, sessionId, rows, now);
        SET_COUNTERS.execute(transaction, (long) rows.size(), toolCalls(rows), sessionId);
        return rows.size();
    }

    /**
     * archive_and_compact: every live row of the session becomes archived (inactive, compacted: out of
     * the transcript, still found by search) and {@code rows} are its new live transcript; message_count
     * and tool_call_count count the new rows. Returns how many rows were inserted.
     *
     * @throws ConstraintViolationException there are rows and no such session; nothing is written
     */
    public int archiveAndCompact(Transaction transaction, MessageAppends appends, MessageAppends.Sql sql,
                                 String sessionId, List<NewMessageRow> rows, double now) throws SQLException {
        require(transaction.schema(), "archive_and_compact", MESSAGES.ACTIVE, MESSAGES.COMPACTED);
        requireSession(transaction, sessionId, rows);
        ARCHIVE_LIVE.execute(transaction, sessionId);
        appends.insertRows(transaction, sql, sessionId, rows, now);
        SET_COUNTERS.execute(transaction, (long) rows.size(), toolCalls(rows), sessionId);
        return rows.size();
    }

    /**
     * A message as a rewritten transcript stores it: the agent keeps reasoning, reasoning_content,
     * reasoning_details and the codex items on assistant messages only.
     */
    public static NewMessage forTranscript(NewMessage message) {
        if ("assistant".equals(message.role())) {
            return message;
        }
        return message.toBuilder().reasoning(null).reasoningContent(null).reasoningDetails(null)
                .codexReasoningItems(null).codexMessageItems(null).build();
    }

    /** A row of the session by id, every column, content decoded as the rules say; null when not there. */
    static @Nullable Message message(Transaction transaction, long id, String sessionId) throws SQLException {
        boolean decode = transaction.schema().v17();
        String sql = MESSAGE.sql(transaction.dsl(), transaction.schema());
        return transaction.withStatement(sql, statement -> {
            statement.setLong(1, id);
            statement.setString(2, sessionId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(MessageRows.read(rows, decode)) : Optional.<Message>empty();
            }
        }).orElse(null);
    }

    private static long toolCalls(List<NewMessageRow> rows) {
        long total = 0;
        for (NewMessageRow row : rows) {
            total += row.toolCallCount();
        }
        return total;
    }

    /** Rows for an unknown session fail as an append to one does (the agent's insert fails on the foreign key). */
    private static void requireSession(Transaction transaction, String sessionId, List<NewMessageRow> rows)
            throws SQLException {
        if (!rows.isEmpty() && SESSION_EXISTS.fetch(transaction, sessionId).isEmpty()) {
            throw new ConstraintViolationException("Cannot write messages to session '" + sessionId + "': no such session");
        }
    }

    /** The operation needs columns of schema 17 the store's file does not have: refused before any write. */
    static void require(StoreSchema schema, String operation, TableField<?, ?>... columns) {
        for (TableField<?, ?> column : columns) {
            if (!schema.has(column)) {
                throw new InvalidArgumentException(operation + " needs a store at schema 17: this one (schema version "
                        + schema.version() + ") has no " + column.getTable().getName() + "." + column.getName() + " column");
            }
        }
    }
}
