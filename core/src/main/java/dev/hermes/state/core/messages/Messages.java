package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.paging.Cursors;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** A session's messages: read them (whole, paged, as a conversation), count and clear them. */
public final class Messages {
    /** Every column, in the order {@link #message} reads them. */
    private static final PreparedQuery OF_SESSION = PreparedQuery.of(() -> DSL
            .select(MESSAGES.ID, MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID,
                    MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT,
                    MESSAGES.FINISH_REASON, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS)
            .from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID), "sessionId");
    /** The chat shape's columns, in the order {@link #chatMessage} reads them. */
    private static final PreparedQuery CONVERSATION = PreparedQuery.of(() -> DSL
            .select(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_NAME, MESSAGES.TOOL_CALLS,
                    MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS)
            .from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID), "sessionId");
    /** The stored timestamp, exact, for the keyset cursor (the Instant is rounded to microseconds). */
    private static final Field<Double> TIMESTAMP_RAW = EpochSeconds.column(MESSAGES.TIMESTAMP);

    /** get_messages: every column, ordered by (timestamp, id); empty for an unknown session. */
    public List<Message> of(Transaction transaction, String sessionId) throws SQLException {
        return readAll(transaction, OF_SESSION, sessionId, Messages::message);
    }

    /** The page after {@code after} (null = the first page) of at most {@code limit} messages, by (timestamp, id). */
    public Page<Message> page(Transaction transaction, String sessionId, Cursors.@Nullable MessagePosition after, int limit) {
        Condition condition = MESSAGES.SESSION_ID.eq(sessionId);
        if (after != null) {
            condition = condition.and(TIMESTAMP_RAW.ge(after.timestamp()))
                    .and(TIMESTAMP_RAW.gt(after.timestamp()).or(MESSAGES.ID.gt(after.id())));
        }
        List<Record> page = transaction.dsl().select(transaction.schema().fields(MESSAGES)).select(TIMESTAMP_RAW)
                .from(MESSAGES)
                .where(condition)
                .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
                .limit((long) limit + 1) // limit may be Integer.MAX_VALUE: "all of them"
                .fetch();
        if (page.size() <= limit) {
            return new Page<>(page.stream().map(Rows::message).toList(), Optional.empty());
        }
        List<Record> items = page.subList(0, limit);
        Record last = items.get(limit - 1);
        return new Page<>(items.stream().map(Rows::message).toList(),
                Optional.of(Cursors.messages(last.get(TIMESTAMP_RAW), last.get(MESSAGES.ID))));
    }

    /** get_messages_as_conversation: the OpenAI chat shape, ordered by (timestamp, id). */
    public List<ChatMessage> conversation(Transaction transaction, String sessionId) throws SQLException {
        return readAll(transaction, CONVERSATION, sessionId, Messages::chatMessage);
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** The rows of a session's messages, read by column position (the hot read: no jOOQ record per row). */
    private static <T> List<T> readAll(Transaction transaction, PreparedQuery query, String sessionId, RowReader<T> reader)
            throws SQLException {
        return transaction.withStatement(query.sql(transaction.dsl(), transaction.schema()), statement -> {
            statement.setString(1, sessionId);
            List<T> result = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    result.add(reader.read(rows));
                }
            }
            return result;
        });
    }

    /** A row of {@link #OF_SESSION}; the other getters are the ones jOOQ's bindings use, TEXT is read by {@link #text}. */
    @SuppressWarnings("NullAway") // id, session_id, role and timestamp are NOT NULL in the schema
    private static Message message(ResultSet row) throws SQLException {
        long stored = row.getLong(9);
        Long tokenCount = row.wasNull() ? null : stored;
        return Rows.message(row.getLong(1), text(row, 2), text(row, 3), text(row, 4), text(row, 5),
                text(row, 6), text(row, 7), EpochSeconds.instant(row.getDouble(8)),
                tokenCount, text(row, 10), text(row, 11), text(row, 12),
                text(row, 13));
    }

    /** A row of {@link #CONVERSATION}. */
    @SuppressWarnings("NullAway") // role is NOT NULL in the schema
    private static ChatMessage chatMessage(ResultSet row) throws SQLException {
        return Rows.chatMessage(text(row, 1), text(row, 2), text(row, 3), text(row, 4),
                text(row, 5), text(row, 6), text(row, 7), text(row, 8));
    }

    /**
     * A TEXT column: its UTF-8 bytes from the driver, decoded here. Measured faster per row than the
     * driver's getString; NULL stays null and '' stays "" (the driver gives no array, or an empty one).
     */
    private static @Nullable String text(ResultSet row, int column) throws SQLException {
        byte[] utf8 = row.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    /** message_count: of one session, or of all when {@code sessionId} is null or empty. */
    public long count(Transaction transaction, @Nullable String sessionId) {
        Condition condition = sessionId == null || sessionId.isEmpty() ? DSL.noCondition() : MESSAGES.SESSION_ID.eq(sessionId);
        return transaction.dsl().fetchCount(MESSAGES, condition);
    }

    /** clear_messages: deletes the messages, zeroes message_count and tool_call_count; returns the messages deleted. */
    public int clear(Transaction transaction, String sessionId) {
        DSLContext dsl = transaction.dsl();
        int deleted = dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(sessionId)).execute();
        dsl.update(SESSIONS)
                .set(SESSIONS.MESSAGE_COUNT, 0L)
                .set(SESSIONS.TOOL_CALL_COUNT, 0L)
                .where(SESSIONS.ID.eq(sessionId))
                .execute();
        return deleted;
    }
}
