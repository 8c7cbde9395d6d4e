package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Backend.PackedKind;
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
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * A session's messages: read them (whole, paged, as a conversation), count and clear them, and the small
 * questions the agent asks of them. Whose rules a read follows is the store's ({@link StoreSchema#v17()}):
 * today's agent reads live rows only unless asked for every row, orders by id, and decodes structured
 * content; the agent of schema 6 read every row by (timestamp, id) and handed the stored text back.
 */
public final class Messages {
    /** The chat shape's columns of schema 6, in the order {@link #chatMessage} reads them. */
    private static final List<Field<?>> CONVERSATION_V6_COLUMNS = List.of(MESSAGES.ROLE, MESSAGES.CONTENT,
            MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_NAME, MESSAGES.TOOL_CALLS, MESSAGES.REASONING, MESSAGES.REASONING_DETAILS,
            MESSAGES.CODEX_REASONING_ITEMS);
    /** How {@link #conversationColumns} are read: twelve texts, the observed flag, the timestamp. */
    private static final List<PackedKind> CONVERSATION_KINDS = kinds(12, PackedKind.INTEGER, PackedKind.REAL);
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

    /**
     * The hot reads of one session's rows, each read one by one ({@link #rows}), or packed into one value
     * where the engine packs rows ({@link Backend#packsRows}): the same rows either way.
     */
    enum Read {
        /** get_messages: every column, live rows only under the rules of schema 17. */
        OF_SESSION(MessageRows::columns, MessageRows.KINDS, schema -> liveOnly(schema, false), Messages::orderFields),
        /** get_messages(include_inactive=True). */
        OF_SESSION_ALL(MessageRows::columns, MessageRows.KINDS, schema -> liveOnly(schema, true), Messages::orderFields),
        /** The chat shape under the rules of schema 6: every row by (timestamp, id). */
        CONVERSATION_V6(schema -> CONVERSATION_V6_COLUMNS, kinds(CONVERSATION_V6_COLUMNS.size()),
                schema -> DSL.noCondition(), schema -> List.of(MESSAGES.TIMESTAMP, MESSAGES.ID)),
        /** The chat shape of schema 17: live rows by id. */
        CONVERSATION(Messages::conversationColumns, CONVERSATION_KINDS, schema -> liveOnly(schema, false),
                schema -> List.of(MESSAGES.ID)),
        /** The chat shape of schema 17, every row by id. */
        CONVERSATION_ALL(Messages::conversationColumns, CONVERSATION_KINDS, schema -> liveOnly(schema, true),
                schema -> List.of(MESSAGES.ID));

        /** How each column is read, in order. */
        final List<PackedKind> kinds;
        /** The rows one by one. */
        final PreparedQuery rows;
        private final Function<StoreSchema, List<Field<?>>> columns;
        private final Function<StoreSchema, Condition> where;
        private final Function<StoreSchema, List<Field<?>>> order;

        Read(Function<StoreSchema, List<Field<?>>> columns, List<PackedKind> kinds, Function<StoreSchema, Condition> where,
             Function<StoreSchema, List<Field<?>>> order) {
            this.kinds = kinds;
            this.columns = columns;
            this.where = where;
            this.order = order;
            this.rows = PreparedQuery.of(schema -> DSL.select(columns.apply(schema))
                    .from(MESSAGES)
                    .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                    .and(where.apply(schema))
                    .orderBy(order.apply(schema)), "sessionId");
        }

        /** The rows packed by {@code backend} into one value: one row and one column for the driver to read. */
        PreparedQuery packed(Backend backend) {
            return PreparedQuery.of(schema -> DSL
                    .select(backend.packedRows(MessageRows.unaliased(columns.apply(schema)), kinds, order.apply(schema)))
                    .from(MESSAGES)
                    .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
                    .and(where.apply(schema)), "sessionId");
        }
    }

    /** The packed form of each {@link Read}; null where the rows are read one by one. */
    private final @Nullable Map<Read, PreparedQuery> packed;

    /** The reads of a store on {@code backend}: packed where it packs rows. */
    public Messages(Backend backend) {
        this(backend, backend.packsRows());
    }

    /** {@code packRows} false: the rows one by one even where the engine packs them (what packed reads are tested against). */
    Messages(Backend backend, boolean packRows) {
        if (packRows) {
            Map<Read, PreparedQuery> queries = new EnumMap<>(Read.class);
            for (Read read : Read.values()) {
                queries.put(read, read.packed(backend));
            }
            this.packed = queries;
        } else {
            this.packed = null;
        }
    }

    /** The rows of {@code read} for the session, packed or one by one. */
    <T> List<T> read(Transaction transaction, Read read, String sessionId, RowReader<T> reader) throws SQLException {
        PreparedQuery query = packed == null ? null : packed.get(read);
        return query == null ? readAll(transaction, read.rows, sessionId, reader)
                : readPacked(transaction, query, read.kinds, sessionId, reader);
    }

    /** The columns of get_messages' rows, ascending: by id (schema 17), by (timestamp, id) (schema 6). */
    private static List<Field<?>> orderFields(StoreSchema schema) {
        return schema.v17() ? List.of(MESSAGES.ID) : List.of(MESSAGES.TIMESTAMP, MESSAGES.ID);
    }

    private static List<PackedKind> kinds(int texts, PackedKind... rest) {
        List<PackedKind> kinds = new ArrayList<>(Collections.nCopies(texts, PackedKind.TEXT));
        kinds.addAll(List.of(rest));
        return List.copyOf(kinds);
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

    /** The chat shape's columns of schema 17, in the order {@link ConversationReplay#row} reads them. */
    private static List<Field<?>> conversationColumns(StoreSchema schema) {
        return List.of(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_CALLS, MESSAGES.TOOL_NAME,
                MESSAGES.FINISH_REASON, MESSAGES.REASONING, MessageRows.orNull(schema, MESSAGES.REASONING_CONTENT),
                MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS,
                MessageRows.orNull(schema, MESSAGES.CODEX_MESSAGE_ITEMS),
                MessageRows.orNull(schema, MESSAGES.PLATFORM_MESSAGE_ID),
                MessageRows.flag(schema, MESSAGES.OBSERVED, 0), EpochSeconds.column(MESSAGES.TIMESTAMP));
    }

    private static Query conversationOf(StoreSchema schema, Condition sessions, boolean includeInactive) {
        return DSL.select(conversationColumns(schema))
                .from(MESSAGES)
                .where(sessions)
                .and(liveOnly(schema, includeInactive))
                .orderBy(MESSAGES.ID);
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
        return read(transaction, includeInactive ? Read.OF_SESSION_ALL : Read.OF_SESSION, sessionId,
                row -> MessageRows.read(row, decode));
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
            return read(transaction, Read.CONVERSATION_V6, sessionId, Messages::chatMessage);
        }
        List<String> sessions = options.includeAncestors() ? ConversationReplay.rootToTip(transaction, sessionId)
                : List.of(sessionId);
        List<ConversationReplay.Row> rows;
        if (sessions.size() == 1) {
            rows = read(transaction, options.includeInactive() ? Read.CONVERSATION_ALL : Read.CONVERSATION,
                    sessions.get(0), ConversationReplay::row);
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
                    StoredRow row = StoredRow.of(set);
                    while (set.next()) {
                        read.add(ConversationReplay.row(row));
                    }
                }
                return read;
            });
        }
        return ConversationReplay.replay(rows, options.includeAncestors());
    }

    @FunctionalInterface
    interface RowReader<T> {
        T read(StoredRow row) throws SQLException;
    }

    /** The rows of a session's messages, read by column position (the hot read: no jOOQ record per row). */
    static <T> List<T> readAll(Transaction transaction, PreparedQuery query, String sessionId, RowReader<T> reader)
            throws SQLException {
        return transaction.withStatement(query.sql(transaction.dsl(), transaction.schema()), statement -> {
            statement.setString(1, sessionId);
            List<T> result = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                StoredRow row = StoredRow.of(rows);
                while (rows.next()) {
                    result.add(reader.read(row));
                }
            }
            return result;
        });
    }

    /** The rows of a session's messages from the one value a packed query returns, decoded as {@code kinds}. */
    static <T> List<T> readPacked(Transaction transaction, PreparedQuery query, List<PackedKind> kinds, String sessionId,
                                  RowReader<T> reader) throws SQLException {
        return transaction.withStatement(query.sql(transaction.dsl(), transaction.schema()), statement -> {
            statement.setString(1, sessionId);
            byte[] value;
            try (ResultSet rows = statement.executeQuery()) {
                value = rows.next() ? rows.getBytes(1) : null;
            }
            PackedRows rows = new PackedRows(value, kinds);
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(reader.read(rows));
            }
            return result;
        });
    }

    /** A row of {@link Read#CONVERSATION_V6}. */
    @SuppressWarnings("NullAway") // role is NOT NULL in the schema
    private static ChatMessage chatMessage(StoredRow row) throws SQLException {
        return Rows.chatMessage(row.text(1), row.text(2), row.text(3), row.text(4), row.text(5), row.text(6),
                row.text(7), row.text(8));
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
