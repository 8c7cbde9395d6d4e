package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RecentUserMessage;
import dev.hermes.state.core.paging.Cursors;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.text.PythonText;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.SortField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * A session's messages: read them (whole, paged, as a conversation), count and clear them, and the small
 * questions the agent asks of them. Whose rules a read follows is the store's ({@link StoreSchema#v17()}):
 * today's agent reads live rows only unless asked for every row, orders by id, and decodes structured
 * content; the agent of schema 6 read every row by (timestamp, id) and handed the stored text back.
 */
public final class Messages {
    /** get_messages: live rows only under the rules of schema 17. */
    private static final PreparedQuery OF_SESSION = PreparedQuery.of(schema -> ofSession(schema, false), "sessionId");
    /** get_messages(include_inactive=True). */
    private static final PreparedQuery OF_SESSION_ALL = PreparedQuery.of(schema -> ofSession(schema, true), "sessionId");
    /** The chat shape's columns of schema 6, in the order {@link #chatMessage} reads them. */
    private static final PreparedQuery CONVERSATION_V6 = PreparedQuery.of(() -> DSL
            .select(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_NAME, MESSAGES.TOOL_CALLS,
                    MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS)
            .from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID), "sessionId");
    private static final PreparedQuery CONVERSATION = PreparedQuery.of(schema -> conversationOf(schema,
            MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)), false), "sessionId");
    private static final PreparedQuery CONVERSATION_ALL = PreparedQuery.of(schema -> conversationOf(schema,
            MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)), true), "sessionId");
    /** False: every conversation is read row by row (for tests that compare the two reads). */
    static volatile boolean packing = true;
    /** How many conversations were read packed (for tests that check the packed read is the one taken). */
    static final LongAdder PACKED_READS = new LongAdder();
    private static final PreparedQuery HAS_INACTIVE = PreparedQuery.of(schema -> DSL
            .selectOne().from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(0L)))
            .limit(DSL.inline(1)), "sessionId");
    private static final PreparedQuery HAS_PLATFORM_ID = PreparedQuery.of(() -> DSL
            .selectOne().from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MESSAGES.PLATFORM_MESSAGE_ID.eq(DSL.param("platformMessageId", String.class)))
            .limit(DSL.inline(1)), "sessionId", "platformMessageId");
    private static final PreparedQuery RECENT_USER = PreparedQuery.of(schema -> recentUser(schema, false),
            "sessionId", "limit");
    private static final PreparedQuery RECENT_USER_ALL = PreparedQuery.of(schema -> recentUser(schema, true),
            "sessionId", "limit");
    /** The stored timestamp, exact, for the keyset cursor (the Instant is rounded to microseconds). */
    private static final Field<Double> TIMESTAMP_RAW = EpochSeconds.column(MESSAGES.TIMESTAMP);
    /** The longest preview of the rewind picker; a longer text keeps {@link #PREVIEW_KEPT} and ends with "...". */
    private static final int PREVIEW_LENGTH = 80;
    private static final int PREVIEW_KEPT = 77;

    private static Query ofSession(StoreSchema schema, boolean includeInactive) {
        return DSL.select(MessageRows.columns(schema))
                .from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .and(liveOnly(schema, includeInactive))
                .orderBy(order(schema));
    }

    /** {@code active = 1} where the rules hide inactive rows and the file has the flag; no condition otherwise. */
    static Condition liveOnly(StoreSchema schema, boolean includeInactive) {
        return schema.v17() && !includeInactive && schema.has(MESSAGES.ACTIVE)
                ? MessageRows.raw(MESSAGES.ACTIVE).eq(DSL.inline(1L)) : DSL.noCondition();
    }

    /** The order of a session's messages: by id (schema 17), by (timestamp, id) (schema 6). */
    static List<SortField<?>> order(StoreSchema schema) {
        return schema.v17() ? List.of(MESSAGES.ID.asc()) : List.of(MESSAGES.TIMESTAMP.asc(), MESSAGES.ID.asc());
    }

    private static Query conversationOf(StoreSchema schema, Condition sessions, boolean includeInactive) {
        return DSL.select(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME,
                        MESSAGES.FINISH_REASON, MESSAGES.REASONING, MessageRows.orNull(schema, MESSAGES.REASONING_CONTENT),
                        MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS,
                        MessageRows.orNull(schema, MESSAGES.CODEX_MESSAGE_ITEMS),
                        MessageRows.orNull(schema, MESSAGES.PLATFORM_MESSAGE_ID),
                        MessageRows.flag(schema, MESSAGES.OBSERVED, 0), EpochSeconds.column(MESSAGES.TIMESTAMP))
                .from(MESSAGES)
                .where(sessions)
                .and(liveOnly(schema, includeInactive))
                .orderBy(MESSAGES.ID);
    }

    private final Backend backend;
    /** {@link #CONVERSATION}'s rows packed into one value where the engine packs them ({@link PackedRows}). */
    private final PreparedQuery conversationPacked = PreparedQuery.of(schema -> packed(schema, false), "sessionId");
    private final PreparedQuery conversationAllPacked = PreparedQuery.of(schema -> packed(schema, true), "sessionId");

    public Messages(Backend backend) {
        this.backend = backend;
    }

    /**
     * One session's conversation rows as one value ({@link Backend#packedRows}) of {@link #conversationOf}'s
     * values. No ORDER BY (measured: it doubles the read's time in SQLite, which then sorts or
     * materializes the rows); each row carries its id and {@link PackedRows} puts them in id order.
     */
    private Query packed(StoreSchema schema, boolean includeInactive) {
        Field<?> absent = DSL.inline((String) null, SQLDataType.CLOB);
        List<Field<?>> texts = List.of(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID,
                MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME, MESSAGES.FINISH_REASON, MESSAGES.REASONING,
                schema.has(MESSAGES.REASONING_CONTENT) ? MESSAGES.REASONING_CONTENT : absent,
                MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS,
                schema.has(MESSAGES.CODEX_MESSAGE_ITEMS) ? MESSAGES.CODEX_MESSAGE_ITEMS : absent,
                schema.has(MESSAGES.PLATFORM_MESSAGE_ID) ? MESSAGES.PLATFORM_MESSAGE_ID : absent);
        Field<?> observed = schema.has(MESSAGES.OBSERVED) ? MessageRows.raw(MESSAGES.OBSERVED) : DSL.inline(0L);
        return DSL.select(backend.packedRows(texts, observed, EpochSeconds.column(MESSAGES.TIMESTAMP), MESSAGES.ID,
                        PackedRows.TIMESTAMP_SCALE, PackedRows.TIMESTAMP_LIMIT))
                .from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .and(liveOnly(schema, includeInactive));
    }

    private static Query recentUser(StoreSchema schema, boolean includeInactive) {
        return DSL.select(MESSAGES.ID, EpochSeconds.column(MESSAGES.TIMESTAMP), MESSAGES.CONTENT)
                .from(MESSAGES)
                .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                .and(MESSAGES.ROLE.eq(DSL.inline("user")))
                .and(liveOnly(schema, includeInactive))
                .orderBy(MESSAGES.ID.desc())
                .limit(DSL.param("limit", Long.class));
    }

    /** get_messages: every column; see {@link #of(Transaction, String, boolean)}. */
    public List<Message> of(Transaction transaction, String sessionId) throws SQLException {
        return of(transaction, sessionId, false);
    }

    /**
     * get_messages: every column; empty for an unknown session. Schema 17: live rows only unless
     * {@code includeInactive}, by id, content decoded; schema 6: every row by (timestamp, id), as stored.
     */
    public List<Message> of(Transaction transaction, String sessionId, boolean includeInactive) throws SQLException {
        boolean decode = transaction.schema().v17();
        PreparedQuery query = includeInactive ? OF_SESSION_ALL : OF_SESSION;
        return readAll(transaction, query, sessionId, row -> MessageRows.read(row, decode));
    }

    /**
     * Where a page of messages starts: after a message id (the rules of schema 17), or after a
     * (timestamp, id) position (schema 6); neither for the first page.
     */
    public record PageStart(@Nullable Long afterId, Cursors.@Nullable MessagePosition afterPosition) {
        /** The start a cursor of this store's pages names; an invalid cursor fails here, before any read. */
        public static PageStart of(StoreSchema schema, @Nullable String cursor) {
            if (cursor == null) {
                return new PageStart(null, null);
            }
            return schema.v17() ? new PageStart(Cursors.messageIdPosition(cursor), null)
                    : new PageStart(null, Cursors.messagesPosition(cursor));
        }
    }

    /**
     * The page after {@code start} of at most {@code limit} messages, in get_messages' order and with its
     * rows: schema 17 pages by id (live rows unless {@code includeInactive}), schema 6 by (timestamp, id).
     */
    public Page<Message> page(Transaction transaction, String sessionId, PageStart start, int limit,
                              boolean includeInactive) {
        StoreSchema schema = transaction.schema();
        boolean v17 = schema.v17();
        Condition condition = MESSAGES.SESSION_ID.eq(sessionId).and(liveOnly(schema, includeInactive));
        if (start.afterId() != null) {
            condition = condition.and(MESSAGES.ID.gt(start.afterId()));
        } else if (start.afterPosition() != null) {
            Cursors.MessagePosition position = start.afterPosition();
            condition = condition.and(TIMESTAMP_RAW.ge(position.timestamp()))
                    .and(TIMESTAMP_RAW.gt(position.timestamp()).or(MESSAGES.ID.gt(position.id())));
        }
        List<Record> page = transaction.dsl().select(schema.fields(MESSAGES)).select(TIMESTAMP_RAW)
                .from(MESSAGES)
                .where(condition)
                .orderBy(order(schema))
                .limit((long) limit + 1) // limit may be Integer.MAX_VALUE: "all of them"
                .fetch();
        if (page.size() <= limit) {
            return new Page<>(page.stream().map(row -> Rows.message(row, v17)).toList(), Optional.empty());
        }
        List<Record> items = page.subList(0, limit);
        Record last = items.get(limit - 1);
        String next = v17 ? Cursors.messagesById(last.get(MESSAGES.ID))
                : Cursors.messages(last.get(TIMESTAMP_RAW), last.get(MESSAGES.ID));
        return new Page<>(items.stream().map(row -> Rows.message(row, v17)).toList(), Optional.of(next));
    }

    /**
     * get_messages_as_conversation: the OpenAI chat shape. Schema 6: the session's rows by (timestamp, id),
     * content as stored. Schema 17: see {@link ConversationReplay}.
     */
    public List<ChatMessage> conversation(Transaction transaction, String sessionId, ConversationOptions options)
            throws SQLException {
        if (!transaction.schema().v17()) {
            return readAll(transaction, CONVERSATION_V6, sessionId, Messages::chatMessage);
        }
        List<String> sessions = options.includeAncestors() ? ConversationReplay.rootToTip(transaction, sessionId)
                : List.of(sessionId);
        List<ConversationReplay.Row> rows;
        List<ConversationReplay.Row> packed = sessions.size() == 1 && packing && backend.packsRows(transaction)
                ? packedRows(transaction, options.includeInactive(), sessions.get(0)) : null;
        if (packed != null) {
            rows = packed;
        } else if (sessions.size() == 1) {
            rows = readAll(transaction, options.includeInactive() ? CONVERSATION_ALL : CONVERSATION, sessions.get(0),
                    ConversationReplay::row);
        } else {
            // a chain's sessions, as many as it has: rendered for their number, not kept prepared per shape
            DSLContext dsl = transaction.dsl();
            Query query = conversationOf(transaction.schema(), MESSAGES.SESSION_ID.in(sessions), options.includeInactive());
            List<Object> values = dsl.extractBindValues(query);
            rows = transaction.withStatement(dsl.render(query), statement -> {
                for (int i = 0; i < values.size(); i++) {
                    statement.setObject(i + 1, values.get(i));
                }
                List<ConversationReplay.Row> read = new ArrayList<>();
                try (ResultSet set = statement.executeQuery()) {
                    while (set.next()) {
                        read.add(ConversationReplay.row(set));
                    }
                }
                return read;
            });
        }
        return ConversationReplay.replay(rows, options.includeAncestors());
    }

    /**
     * The session's conversation rows read packed; null when they cannot be (a value the packing does not
     * carry exactly, a value too big): then the caller reads them row by row, with the same answer.
     */
    private @Nullable List<ConversationReplay.Row> packedRows(Transaction transaction, boolean includeInactive,
                                                           String sessionId) throws SQLException {
        PreparedQuery query = includeInactive ? conversationAllPacked : conversationPacked;
        byte[] packed;
        try {
            packed = transaction.withStatement(query.sql(transaction.dsl(), transaction.schema()), statement -> {
                statement.setString(1, sessionId);
                try (ResultSet row = statement.executeQuery()) {
                    byte[] bytes = row.next() ? row.getBytes(1) : null;
                    return bytes == null ? new byte[0] : bytes; // NULL: no rows
                }
            });
        } catch (SQLException failed) {
            if (backend.isUnpackable(failed)) {
                return null;
            }
            throw failed;
        }
        try {
            List<ConversationReplay.Row> rows = PackedRows.rows(packed);
            PACKED_READS.increment();
            return rows;
        } catch (PackedRows.NotPacked notPacked) {
            return null;
        }
    }

    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** The rows of a session's messages, read by column position (the hot read: no jOOQ record per row). */
    static <T> List<T> readAll(Transaction transaction, PreparedQuery query, String sessionId, RowReader<T> reader)
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

    /** A row of {@link #CONVERSATION_V6}. */
    @SuppressWarnings("NullAway") // role is NOT NULL in the schema
    private static ChatMessage chatMessage(ResultSet row) throws SQLException {
        return Rows.chatMessage(MessageRows.text(row, 1), MessageRows.text(row, 2), MessageRows.text(row, 3),
                MessageRows.text(row, 4), MessageRows.text(row, 5), MessageRows.text(row, 6), MessageRows.text(row, 7),
                MessageRows.text(row, 8));
    }

    /** message_count: of one session, or of all when {@code sessionId} is null or empty; every row, live or not. */
    public long count(Transaction transaction, @Nullable String sessionId) {
        Condition condition = sessionId == null || sessionId.isEmpty() ? DSL.noCondition() : MESSAGES.SESSION_ID.eq(sessionId);
        return transaction.dsl().fetchCount(MESSAGES, condition);
    }

    /**
     * clear_messages: deletes every message of the session (live or not), zeroes message_count and
     * tool_call_count (rewind_count stays); returns the messages deleted.
     */
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

    /** has_archived_messages: the session has a row hidden from its transcript (false where the file has no flag). */
    public boolean hasInactive(Transaction transaction, String sessionId) throws SQLException {
        return transaction.schema().has(MESSAGES.ACTIVE) && !HAS_INACTIVE.fetch(transaction, sessionId).isEmpty();
    }

    /** has_platform_message_id: a row of the session carries that platform id (false where the file has no column). */
    public boolean hasPlatformMessageId(Transaction transaction, String sessionId, String platformMessageId)
            throws SQLException {
        return transaction.schema().has(MESSAGES.PLATFORM_MESSAGE_ID)
                && !HAS_PLATFORM_ID.fetch(transaction, sessionId, platformMessageId).isEmpty();
    }

    /**
     * list_recent_user_messages: the newest user messages first, at most {@code limit} (a negative limit:
     * all, as SQLite's {@code LIMIT -1}), live ones unless {@code includeInactive}.
     */
    public List<RecentUserMessage> recentUserMessages(Transaction transaction, String sessionId, long limit,
                                                      boolean includeInactive) throws SQLException {
        PreparedQuery query = includeInactive ? RECENT_USER_ALL : RECENT_USER;
        boolean decode = transaction.schema().v17();
        return transaction.withStatement(query.sql(transaction.dsl(), transaction.schema()), statement -> {
            statement.setString(1, sessionId);
            statement.setLong(2, limit < 0 ? Long.MAX_VALUE : limit);
            List<RecentUserMessage> result = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    result.add(new RecentUserMessage(rows.getLong(1), EpochSeconds.instant(rows.getDouble(2)),
                            preview(MessageRows.content(MessageRows.text(rows, 3), decode))));
                }
            }
            return result;
        });
    }

    /** The picker's one line: the agent's text preview, whitespace runs collapsed, at most 80 characters. */
    static String preview(@Nullable MessageContent content) {
        String text = content == null ? "" : content.preview();
        String line = String.join(" ", PythonText.split(text));
        if (line.codePointCount(0, line.length()) > PREVIEW_LENGTH) {
            return line.substring(0, line.offsetByCodePoints(0, PREVIEW_KEPT)) + "...";
        }
        return line;
    }
}
