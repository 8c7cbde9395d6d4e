package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.connection.WriteTransaction;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The hottest write of the store, append_message: bump the session's counters, insert the row,
 * in one transaction. At thousands of appends a second, rendering the jOOQ queries and preparing
 * the statements on every call costs as much as SQLite's own work, so the SQL is rendered from the
 * typed tables once and the statements stay prepared on the writer connection.
 *
 * <p>The counter update runs first: it finds an unknown session (no row updated) before anything
 * is inserted, so the caller gets a clear error instead of a bare foreign-key failure.
 */
final class MessageAppends {

    /** One message, checked and encoded before the write transaction starts. */
    record Encoded(String role, String content, String toolName, String toolCalls, String toolCallId, Long tokenCount,
                   String finishReason, String reasoning, String reasoningDetails, String codexReasoningItems,
                   int toolCallCount) {

        static Encoded of(NewMessage message) {
            Arguments.required(message, "message");
            String role = Arguments.label(message.role(), "role");
            // Hermes: tool results do not count as tool calls, whatever they carry.
            int toolCallCount = "tool".equals(role) ? 0 : JsonValues.toolCallCount(message.toolCalls());
            return new Encoded(role,
                    Arguments.optionalText(message.content(), "content"),
                    Arguments.optionalLabel(message.toolName(), "tool name"),
                    Arguments.optionalText(JsonValues.encode(message.toolCalls(), "tool_calls"), "tool_calls"),
                    Arguments.optionalLabel(message.toolCallId(), "tool call id"),
                    message.tokenCount(),
                    Arguments.optionalLabel(message.finishReason(), "finish reason"),
                    Arguments.optionalText(message.reasoning(), "reasoning"),
                    Arguments.optionalText(JsonValues.encode(message.reasoningDetails(), "reasoning_details"), "reasoning_details"),
                    Arguments.optionalText(JsonValues.encode(message.codexReasoningItems(), "codex_reasoning_items"), "codex_reasoning_items"),
                    toolCallCount);
        }
    }

    private final SQLDialect dialect;
    private volatile Sql sql;

    MessageAppends(SQLDialect dialect) {
        this.dialect = dialect;
    }

    /** The statements, rendered on the first append (a read-only command never pays for it). */
    private record Sql(String bumpCounters, String insert, String insertReturningId, String lastId, String idsAfter) {
    }

    private Sql sql() {
        Sql rendered = sql;
        if (rendered == null) {
            rendered = render(DSL.using(dialect, new Settings().withRenderSchema(false)));
            sql = rendered;
        }
        return rendered;
    }

    /**
     * Parameter order: bumpCounters (messages, tool calls, session id); insert (session id, role,
     * content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning,
     * reasoning_details, codex_reasoning_items). The JSON columns are bound as plain text: the
     * values were produced by Jackson, there is nothing for SQLite's json() to check.
     */
    private static Sql render(DSLContext dsl) {
        String bump = dsl.render(dsl.update(SESSIONS)
                .set(SESSIONS.MESSAGE_COUNT, DSL.coalesce(SESSIONS.MESSAGE_COUNT, DSL.inline(0L)).plus(DSL.param("messages", Long.class)))
                .set(SESSIONS.TOOL_CALL_COUNT, DSL.coalesce(SESSIONS.TOOL_CALL_COUNT, DSL.inline(0L)).plus(DSL.param("toolCalls", Long.class)))
                .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))));
        Field<String> text = DSL.param("text", SQLDataType.CLOB);
        var insert = dsl.insertInto(MESSAGES, MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID,
                        MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT,
                        MESSAGES.FINISH_REASON, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS)
                .values(text, text, text, text,
                        text.coerce(SQLDataType.JSON), text, DSL.param("timestamp", SQLDataType.DOUBLE).coerce(MESSAGES.TIMESTAMP),
                        DSL.param("tokenCount", Long.class),
                        text, text, text.coerce(SQLDataType.JSON), text.coerce(SQLDataType.JSON));
        return new Sql(bump, dsl.render(insert),
                dsl.render(dsl.resultQuery("{0} returning {1}", insert, DSL.name(MESSAGES.ID.getName()))),
                dsl.render(dsl.select(DSL.coalesce(DSL.max(MESSAGES.ID), DSL.inline(0L))).from(MESSAGES)),
                dsl.render(dsl.select(MESSAGES.ID).from(MESSAGES)
                        .where(MESSAGES.ID.gt(DSL.param("after", Long.class)))
                        .orderBy(MESSAGES.ID)));
    }

    /** Appends one message; returns its id. */
    long append(WriteTransaction transaction, String sessionId, Encoded message, double timestamp) throws SQLException {
        bumpCounters(transaction, sessionId, 1, message.toolCallCount());
        PreparedStatement insert = transaction.prepared(sql().insertReturningId());
        bind(insert, sessionId, message, timestamp);
        try (ResultSet ids = insert.executeQuery()) {
            ids.next();
            return ids.getLong(1);
        }
    }

    /** Appends the messages in order with one batch; returns their ids in input order. */
    List<Long> appendAll(WriteTransaction transaction, String sessionId, List<Encoded> messages, double timestamp)
            throws SQLException {
        int toolCalls = 0;
        for (Encoded message : messages) {
            toolCalls += message.toolCallCount();
        }
        bumpCounters(transaction, sessionId, messages.size(), toolCalls);
        long lastIdBefore;
        try (ResultSet last = transaction.prepared(sql().lastId()).executeQuery()) {
            lastIdBefore = last.next() ? last.getLong(1) : 0;
        }
        PreparedStatement insert = transaction.prepared(sql().insert());
        for (Encoded message : messages) {
            bind(insert, sessionId, message, timestamp);
            insert.addBatch();
        }
        insert.executeBatch();
        // We hold the write lock, so the new rows are exactly those after the previous largest id.
        PreparedStatement idsAfter = transaction.prepared(sql().idsAfter());
        idsAfter.setLong(1, lastIdBefore);
        List<Long> ids = new ArrayList<>(messages.size());
        try (ResultSet rows = idsAfter.executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    private void bumpCounters(WriteTransaction transaction, String sessionId, long messages, long toolCalls)
            throws SQLException {
        PreparedStatement bump = transaction.prepared(sql().bumpCounters());
        bump.setLong(1, messages);
        bump.setLong(2, toolCalls);
        bump.setString(3, sessionId);
        if (bump.executeUpdate() == 0) {
            throw new ConstraintViolationException("Cannot append to session '" + sessionId + "': no such session");
        }
    }

    private static void bind(PreparedStatement insert, String sessionId, Encoded message, double timestamp)
            throws SQLException {
        insert.setString(1, sessionId);
        insert.setString(2, message.role());
        setText(insert, 3, message.content());
        setText(insert, 4, message.toolCallId());
        setText(insert, 5, message.toolCalls());
        setText(insert, 6, message.toolName());
        insert.setDouble(7, timestamp);
        if (message.tokenCount() == null) {
            insert.setNull(8, Types.BIGINT);
        } else {
            insert.setLong(8, message.tokenCount());
        }
        setText(insert, 9, message.finishReason());
        setText(insert, 10, message.reasoning());
        setText(insert, 11, message.reasoningDetails());
        setText(insert, 12, message.codexReasoningItems());
    }

    private static void setText(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }
}
