package dev.hermes.state.core.messages;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import org.jspecify.annotations.Nullable;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The hottest write of the store, append_message: bump the session's counters, insert the row and
 * read its id back ({@code RETURNING}), in one transaction, on statements kept prepared on the writer
 * connection. A batch inserts its rows one by one on the same statement, each returning its id, so
 * the ids are the rows' own whatever else writes to the table.
 *
 * <p>The statements' SQL is rendered before the write transaction starts ({@link #sql}): a cold
 * process spent up to seconds in jOOQ's first rendering while holding SQLite's write lock, and every
 * other writer process waited out its busy timeout.
 *
 * <p>The counter update runs first: it finds an unknown session (no row updated) before anything
 * is inserted, so the caller gets a clear error instead of a bare foreign-key failure.
 */
public final class MessageAppends {
    private static final RenderedSql BUMP_COUNTERS = new RenderedSql(() -> DSL
                    .update(SESSIONS)
                    .set(SESSIONS.MESSAGE_COUNT, DSL.coalesce(SESSIONS.MESSAGE_COUNT, DSL.inline(0L))
                            .plus(DSL.param("messages", Long.class)))
                    .set(SESSIONS.TOOL_CALL_COUNT, DSL.coalesce(SESSIONS.TOOL_CALL_COUNT, DSL.inline(0L))
                            .plus(DSL.param("toolCalls", Long.class)))
                    .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))),
            "messages", "toolCalls", "sessionId");
    private static final RenderedSql INSERT_RETURNING_ID = new RenderedSql(() -> DSL.resultQuery("{0} returning {1}",
                    DSL.insertInto(MESSAGES, MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID,
                                    MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT,
                                    MESSAGES.FINISH_REASON, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS,
                                    MESSAGES.CODEX_REASONING_ITEMS)
                            .values(DSL.param("sessionId", SQLDataType.CLOB), DSL.param("role", SQLDataType.CLOB),
                                    DSL.param("content", SQLDataType.CLOB), DSL.param("toolCallId", SQLDataType.CLOB),
                                    PreparedQuery.json("toolCalls"), DSL.param("toolName", SQLDataType.CLOB),
                                    PreparedQuery.epochSeconds("timestamp", MESSAGES.TIMESTAMP),
                                    DSL.param("tokenCount", Long.class), DSL.param("finishReason", SQLDataType.CLOB),
                                    DSL.param("reasoning", SQLDataType.CLOB), PreparedQuery.json("reasoningDetails"),
                                    PreparedQuery.json("codexReasoningItems")),
                    DSL.name(MESSAGES.ID.getName())),
            "sessionId", "role", "content", "toolCallId", "toolCalls", "toolName", "timestamp", "tokenCount",
            "finishReason", "reasoning", "reasoningDetails", "codexReasoningItems");

    /** The SQL of an append, rendered for one dialect: get it before the write transaction starts. */
    public record Sql(String bumpCounters, String insertReturningId) {
    }

    /** The statements for {@code dsl}'s dialect, rendered on first use (needs no connection). */
    public Sql sql(DSLContext dsl) {
        return new Sql(BUMP_COUNTERS.sql(dsl), INSERT_RETURNING_ID.sql(dsl));
    }

    /** Appends one message; returns its id. */
    public long append(Transaction transaction, Sql sql, String sessionId, NewMessageRow message, double timestamp)
            throws SQLException {
        bumpCounters(transaction, sql, sessionId, 1, message.toolCallCount());
        return insert(transaction, sql, sessionId, message, timestamp);
    }

    /** Appends the messages in order; returns their ids in input order. */
    public List<Long> appendAll(Transaction transaction, Sql sql, String sessionId, List<NewMessageRow> messages,
                                double timestamp) throws SQLException {
        long toolCalls = 0;
        for (NewMessageRow message : messages) {
            toolCalls += message.toolCallCount();
        }
        bumpCounters(transaction, sql, sessionId, messages.size(), toolCalls);
        List<Long> ids = new ArrayList<>(messages.size());
        for (NewMessageRow message : messages) {
            ids.add(insert(transaction, sql, sessionId, message, timestamp));
        }
        return ids;
    }

    private static void bumpCounters(Transaction transaction, Sql sql, String sessionId, long messages, long toolCalls)
            throws SQLException {
        int updated = transaction.withStatement(sql.bumpCounters(), statement -> {
            bind(statement, messages, toolCalls, sessionId);
            return statement.executeUpdate();
        });
        if (updated == 0) {
            throw new ConstraintViolationException("Cannot append to session '" + sessionId + "': no such session");
        }
    }

    private static long insert(Transaction transaction, Sql sql, String sessionId, NewMessageRow message, double timestamp)
            throws SQLException {
        return transaction.withStatement(sql.insertReturningId(), statement -> {
            bind(statement, sessionId, message.role(), message.content(), message.toolCallId(), message.toolCalls(),
                    message.toolName(), timestamp, message.tokenCount(), message.finishReason(), message.reasoning(),
                    message.reasoningDetails(), message.codexReasoningItems());
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("No id returned by " + sql.insertReturningId());
                }
                return rows.getLong(1);
            }
        });
    }

    /** Binds the values by position, as given (text, numbers, nulls: what the columns store). */
    private static void bind(PreparedStatement statement, @Nullable Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
    }
}
