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

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** A session's messages: read them (whole, paged, as a conversation), count and clear them. */
public final class Messages {
    private static final PreparedQuery OF_SESSION = PreparedQuery.of(() -> DSL
            .selectFrom(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID), "sessionId");
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
        return OF_SESSION.fetch(transaction, sessionId).map(Rows::message);
    }

    /** The page after {@code after} (null = the first page) of at most {@code limit} messages, by (timestamp, id). */
    public Page<Message> page(Transaction transaction, String sessionId, Cursors.@Nullable MessagePosition after, int limit) {
        Condition condition = MESSAGES.SESSION_ID.eq(sessionId);
        if (after != null) {
            condition = condition.and(TIMESTAMP_RAW.ge(after.timestamp()))
                    .and(TIMESTAMP_RAW.gt(after.timestamp()).or(MESSAGES.ID.gt(after.id())));
        }
        List<Record> page = transaction.dsl().select(MESSAGES.fields()).select(TIMESTAMP_RAW)
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
        return CONVERSATION.fetch(transaction, sessionId).map(Rows::chatMessage);
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
