package dev.hermes.state.core.messages;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import org.jspecify.annotations.Nullable;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.Query;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The hottest write of the store, append_message: bump the session's counters, insert the row and
 * read its id back ({@code RETURNING}), in one transaction, on statements kept prepared on the writer
 * connection. A batch inserts its rows one by one on the same statement, each returning its id, so
 * the ids are the rows' own whatever else writes to the table; where the engine takes arrays as
 * parameters ({@link Backend#arrayRows}, PostgreSQL), a batch is one statement instead: the counters'
 * update in its {@code WITH} clause and every row inserted from one array per column, in the batch's
 * order, returning the ids in that order (one round trip to the server for the whole batch).
 *
 * <p>The statements' SQL is rendered before the write transaction starts ({@link #sql}): a cold
 * process spent up to seconds in jOOQ's first rendering while holding SQLite's write lock, and every
 * other writer process waited out its busy timeout.
 *
 * <p>The counter update runs first: it finds an unknown session (no row updated) before anything
 * is inserted, so the caller gets a clear error instead of a bare foreign-key failure; and it locks
 * the session's row before the new row's id is drawn, so appends to one session that run at the same
 * time ({@link Backend#beginAppend}) get their ids in the order they commit. Where the engine allows
 * it ({@link Backend#updatesInWith}), the update and the (first) insert are one statement, the update
 * in its {@code WITH} clause and the row inserted from the session id it returns: a server sees one
 * round trip instead of two.
 */
public final class MessageAppends {
    /** The bumped session's id, as the update in the one-statement append returns it. */
    private static final Name BUMPED = DSL.name("bumped");

    private static final PreparedQuery BUMP_COUNTERS = PreparedQuery.of(MessageAppends::bumpCounters,
            "messageCount", "toolCallCount", "sessionId");
    /** The values of a row of schema 6 after its session id, in the order of {@link #columns}. */
    private static final List<String> ROW_V6 = List.of("role", "content", "toolCallId", "toolCalls", "toolName",
            "timestamp", "tokenCount", "finishReason", "reasoning", "reasoningDetails", "codexReasoningItems");
    /** The same for schema 17: the agent's own column order. */
    private static final List<String> ROW_V17 = List.of("role", "content", "toolCallId", "toolCalls", "toolName",
            "timestamp", "tokenCount", "finishReason", "reasoning", "reasoningContent", "reasoningDetails",
            "codexReasoningItems", "codexMessageItems", "platformMessageId", "observed");
    private static final PreparedQuery INSERT_RETURNING_ID_V6 = insertReturningId(false);
    private static final PreparedQuery INSERT_RETURNING_ID_V17 = insertReturningId(true);
    private static final PreparedQuery BUMP_AND_INSERT_V6 = bumpAndInsert(false);
    private static final PreparedQuery BUMP_AND_INSERT_V17 = bumpAndInsert(true);

    private static PreparedQuery insertReturningId(boolean v17) {
        List<String> parameters = new ArrayList<>();
        parameters.add("sessionId");
        parameters.addAll(v17 ? ROW_V17 : ROW_V6);
        return PreparedQuery.of(() -> returningId(DSL.insertInto(MESSAGES)
                .columns(columns(v17))
                .values(values(DSL.param("sessionId", SQLDataType.CLOB), false, v17))), parameters.toArray(String[]::new));
    }

    private static PreparedQuery bumpAndInsert(boolean v17) {
        List<String> parameters = new ArrayList<>(List.of("messageCount", "toolCallCount", "sessionId"));
        parameters.addAll(v17 ? ROW_V17 : ROW_V6);
        return PreparedQuery.of(() -> DSL.resultQuery("with {0} as ({1} returning {2}) {3}",
                        BUMPED, bumpCounters(), SESSIONS.ID,
                        returningId(DSL.insertInto(MESSAGES).columns(columns(v17)).select(DSL
                                .select(values(DSL.field(DSL.name(BUMPED.last(), SESSIONS.ID.getName()), SQLDataType.CLOB),
                                        true, v17))
                                .from(DSL.table(BUMPED))))),
                parameters.toArray(String[]::new));
    }

    private static Query bumpCounters() {
        return DSL.update(SESSIONS)
                .set(SESSIONS.MESSAGE_COUNT, DSL.coalesce(SESSIONS.MESSAGE_COUNT, DSL.inline(0L))
                        .plus(DSL.param("messageCount", Long.class)))
                .set(SESSIONS.TOOL_CALL_COUNT, DSL.coalesce(SESSIONS.TOOL_CALL_COUNT, DSL.inline(0L))
                        .plus(DSL.param("toolCallCount", Long.class)))
                .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class)));
    }

    /** The columns an append writes: the agent's of schema 6, or of 17 ({@code active}/{@code compacted} by default). */
    private static List<Field<?>> columns(boolean v17) {
        if (!v17) {
            return List.of(MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_CALLS,
                    MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT, MESSAGES.FINISH_REASON, MESSAGES.REASONING,
                    MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS);
        }
        return List.of(MESSAGES.SESSION_ID, MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_CALLS,
                MESSAGES.TOOL_NAME, MESSAGES.TIMESTAMP, MESSAGES.TOKEN_COUNT, MESSAGES.FINISH_REASON, MESSAGES.REASONING,
                MESSAGES.REASONING_CONTENT, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS,
                MESSAGES.CODEX_MESSAGE_ITEMS, MESSAGES.PLATFORM_MESSAGE_ID, MESSAGES.OBSERVED);
    }

    /**
     * A new row's values in {@link #columns}' order. {@code typed}: each parameter cast to its
     * column's type, for a SELECT list, where (unlike in VALUES) no column types a parameter bound as null.
     * JSON is bound as plain text (see {@link PreparedQuery#json}).
     */
    private static List<Field<?>> values(Field<String> sessionId, boolean typed, boolean v17) {
        List<Field<?>> values = new ArrayList<>(List.of(sessionId, text("role", typed), text("content", typed),
                text("toolCallId", typed), text("toolCalls", typed).coerce(SQLDataType.JSON), text("toolName", typed),
                typed(DSL.param("timestamp", SQLDataType.DOUBLE), typed).coerce(MESSAGES.TIMESTAMP),
                typed(DSL.param("tokenCount", Long.class), typed), text("finishReason", typed),
                text("reasoning", typed)));
        if (v17) {
            values.add(text("reasoningContent", typed));
        }
        values.add(text("reasoningDetails", typed).coerce(SQLDataType.JSON));
        values.add(text("codexReasoningItems", typed).coerce(SQLDataType.JSON));
        if (v17) {
            values.add(text("codexMessageItems", typed).coerce(SQLDataType.JSON));
            values.add(text("platformMessageId", typed));
            values.add(typed(DSL.param("observed", Long.class), typed));
        }
        return values;
    }

    private static Field<String> text(String name, boolean typed) {
        return typed(DSL.param(name, SQLDataType.CLOB), typed);
    }

    private static <T> Field<T> typed(Field<T> parameter, boolean typed) {
        return typed ? DSL.cast(parameter, parameter.getDataType()) : parameter;
    }

    private static Query returningId(Query insert) {
        return DSL.resultQuery("{0} returning {1}", insert, DSL.name(MESSAGES.ID.getName()));
    }

    private final Backend backend;
    private final boolean oneStatement;
    /** The batch in one statement, where the engine has array parameters; else null. */
    private final @Nullable PreparedQuery bumpAndInsertAllV6;
    private final @Nullable PreparedQuery bumpAndInsertAllV17;
    private final AtomicBoolean renderingAhead = new AtomicBoolean();

    public MessageAppends(Backend backend) {
        this.backend = backend;
        this.oneStatement = backend.updatesInWith();
        boolean arrays = oneStatement && backend.arrayRows(BATCH, List.of("probe"), List.of(String.class), ORDER) != null;
        this.bumpAndInsertAllV6 = arrays ? bumpAndInsertAll(backend, false) : null;
        this.bumpAndInsertAllV17 = arrays ? bumpAndInsertAll(backend, true) : null;
    }

    /** The rows of a batch, as the engine's array table names them, and their place in the batch. */
    private static final Name BATCH = DSL.name("batch");
    private static final Name ORDER = DSL.name("batch_order");

    /** The Java type of each row value after the session id, in {@link #ROW_V6} / {@link #ROW_V17} order. */
    private static Class<?> elementType(String value) {
        return switch (value) {
            case "timestamp" -> Double.class;
            case "tokenCount", "observed" -> Long.class;
            default -> String.class;
        };
    }

    /**
     * The whole batch in one statement: the counters' update (by the batch's totals) in the WITH clause,
     * then every row inserted from the arrays, ordered by their index so that they are inserted, and
     * draw their ids, in the batch's order; returns the ids in that order. No row when the session is unknown.
     */
    private static PreparedQuery bumpAndInsertAll(Backend backend, boolean v17) {
        List<String> values = v17 ? ROW_V17 : ROW_V6;
        List<String> parameters = new ArrayList<>(List.of("messageCount", "toolCallCount", "sessionId"));
        parameters.addAll(values);
        return PreparedQuery.of(() -> {
            List<Class<?>> types = new ArrayList<>();
            List<Field<?>> select = new ArrayList<>();
            select.add(DSL.field(DSL.name(BUMPED.last(), SESSIONS.ID.getName()), SQLDataType.CLOB));
            for (String value : values) {
                types.add(elementType(value));
                select.add(DSL.field(DSL.name(BATCH.last(), value)));
            }
            Table<?> rows = Objects.requireNonNull(backend.arrayRows(BATCH, values, types, ORDER));
            return DSL.resultQuery("with {0} as ({1} returning {2}) {3}", BUMPED, bumpCounters(), SESSIONS.ID,
                    returningId(DSL.insertInto(MESSAGES).columns(columns(v17)).select(DSL.select(select)
                            .from(DSL.table(BUMPED)).crossJoin(rows)
                            .orderBy(DSL.field(DSL.name(BATCH.last(), ORDER.last()))))));
        }, parameters.toArray(String[]::new));
    }

    /**
     * Starts rendering the statements on a daemon thread, once: called when a session is created,
     * since appends follow. The first append of a cold process otherwise renders them itself: jOOQ
     * loads about a hundred classes for it, 140-300 ms alone and over a second with four cold
     * processes starting on two cores (measured: each W9 worker's slowest append was its first). The
     * rendered SQL is kept per dialect; an append that comes before the thread is done waits for the
     * same rendering instead of doing it twice.
     */
    public void renderAhead(DSLContext dsl, StoreSchema schema) {
        if (renderingAhead.compareAndSet(false, true)) {
            Thread thread = new Thread(() -> sql(dsl, schema), "hermes-state-render-appends");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * The SQL of an append, rendered for one dialect: get it before the write transaction starts.
     * {@code bumpAndInsert} is null where the engine needs the update and the insert apart.
     */
    public record Sql(String bumpCounters, String insertReturningId, @Nullable String bumpAndInsert,
                      @Nullable String bumpAndInsertAll, boolean v17Columns) {
    }

    /** The statements for {@code dsl}'s dialect and the store's schema, rendered on first use (needs no connection). */
    public Sql sql(DSLContext dsl, StoreSchema schema) {
        boolean v17 = NewMessageRow.hasV17Columns(schema);
        PreparedQuery all = v17 ? bumpAndInsertAllV17 : bumpAndInsertAllV6;
        return new Sql(BUMP_COUNTERS.sql(dsl, schema), (v17 ? INSERT_RETURNING_ID_V17 : INSERT_RETURNING_ID_V6).sql(dsl, schema),
                oneStatement ? (v17 ? BUMP_AND_INSERT_V17 : BUMP_AND_INSERT_V6).sql(dsl, schema) : null,
                all == null ? null : all.sql(dsl, schema), v17);
    }

    /** Appends one message; returns its id. */
    public long append(Transaction transaction, Sql sql, String sessionId, NewMessageRow message, double timestamp)
            throws SQLException {
        return bumpAndInsert(transaction, sql, sessionId, 1, message.toolCallCount(), message, timestamp);
    }

    /** Appends the messages in order; returns their ids in input order. */
    public List<Long> appendAll(Transaction transaction, Sql sql, String sessionId, List<NewMessageRow> messages,
                                double timestamp) throws SQLException {
        if (messages.isEmpty()) {
            bumpCounters(transaction, sql, sessionId, 0, 0);
            return List.of();
        }
        long toolCalls = 0;
        for (NewMessageRow message : messages) {
            toolCalls += message.toolCallCount();
        }
        if (sql.bumpAndInsertAll() != null && messages.size() > 1) {
            return bumpAndInsertAll(transaction, sql, sessionId, messages, toolCalls, timestamp);
        }
        List<Long> ids = new ArrayList<>(messages.size());
        ids.add(bumpAndInsert(transaction, sql, sessionId, messages.size(), toolCalls, messages.get(0), timestamp));
        for (NewMessageRow message : messages.subList(1, messages.size())) {
            ids.add(insert(transaction, sql, sessionId, message, timestamp));
        }
        return ids;
    }

    /**
     * Inserts the rows in order without touching the session's counters (a rewrite of the transcript
     * sets them itself); returns their ids. A row without a timestamp of its own gets {@code now}, and
     * each later one a microsecond after the latest so far, as the agent stamps a rewritten transcript,
     * so the rows' times keep their order.
     */
    List<Long> insertRows(Transaction transaction, Sql sql, String sessionId, List<NewMessageRow> rows, double now)
            throws SQLException {
        List<Long> ids = new ArrayList<>(rows.size());
        double next = now;
        for (NewMessageRow row : rows) {
            double timestamp = row.timestampOr(next);
            ids.add(insert(transaction, sql, sessionId, row, timestamp));
            next = Math.max(next + 1e-6, timestamp + 1e-6);
        }
        return ids;
    }

    /** Adds to the session's counters and inserts {@code first}; returns its id. */
    private static long bumpAndInsert(Transaction transaction, Sql sql, String sessionId, long messages, long toolCalls,
                                      NewMessageRow first, double timestamp) throws SQLException {
        if (sql.bumpAndInsert() == null) {
            bumpCounters(transaction, sql, sessionId, messages, toolCalls);
            return insert(transaction, sql, sessionId, first, timestamp);
        }
        return transaction.withStatement(sql.bumpAndInsert(), statement -> {
            bind(statement, 0, messages, toolCalls, sessionId);
            bindRow(statement, 3, first, timestamp, sql.v17Columns());
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw noSuchSession(sessionId);
                }
                return rows.getLong(1);
            }
        });
    }

    /** The batch in one statement ({@link #bumpAndInsertAll(Backend, boolean)}); the ids in the batch's order. */
    private List<Long> bumpAndInsertAll(Transaction transaction, Sql sql, String sessionId, List<NewMessageRow> messages,
                                        long toolCalls, double now) throws SQLException {
        String statementSql = Objects.requireNonNull(sql.bumpAndInsertAll());
        List<String> values = sql.v17Columns() ? ROW_V17 : ROW_V6;
        int n = messages.size();
        @Nullable Object[][] columns = new Object[values.size()][];
        for (int v = 0; v < values.size(); v++) {
            Class<?> type = elementType(values.get(v));
            columns[v] = type == Double.class ? new Double[n] : type == Long.class ? new Long[n] : new String[n];
        }
        for (int i = 0; i < n; i++) {
            NewMessageRow message = messages.get(i);
            @Nullable Object[] row = rowValues(message, message.timestampOr(now), sql.v17Columns());
            for (int v = 0; v < row.length; v++) {
                columns[v][i] = row[v];
            }
        }
        return transaction.withStatement(statementSql, statement -> {
            bind(statement, 0, (long) n, toolCalls, sessionId);
            for (int v = 0; v < columns.length; v++) {
                statement.setObject(4 + v, backend.array(statement.getConnection(), elementType(values.get(v)), columns[v]));
            }
            List<Long> ids = new ArrayList<>(n);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
            if (ids.isEmpty()) {
                throw noSuchSession(sessionId);
            }
            for (int i = 1; i < ids.size(); i++) {
                if (ids.get(i) <= ids.get(i - 1)) {
                    throw new SQLException("Ids of a batch not in its order: " + ids);
                }
            }
            if (ids.size() != n) {
                throw new SQLException(ids.size() + " ids returned for a batch of " + n);
            }
            return ids;
        });
    }

    private static void bumpCounters(Transaction transaction, Sql sql, String sessionId, long messages, long toolCalls)
            throws SQLException {
        int updated = transaction.withStatement(sql.bumpCounters(), statement -> {
            bind(statement, 0, messages, toolCalls, sessionId);
            return statement.executeUpdate();
        });
        if (updated == 0) {
            throw noSuchSession(sessionId);
        }
    }

    private static ConstraintViolationException noSuchSession(String sessionId) {
        return new ConstraintViolationException("Cannot append to session '" + sessionId + "': no such session");
    }

    private static long insert(Transaction transaction, Sql sql, String sessionId, NewMessageRow message,
                               double timestamp) throws SQLException {
        String insertReturningId = sql.insertReturningId();
        return transaction.withStatement(insertReturningId, statement -> {
            bind(statement, 0, sessionId);
            bindRow(statement, 1, message, timestamp, sql.v17Columns());
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("No id returned by " + insertReturningId);
                }
                return rows.getLong(1);
            }
        });
    }

    /**
     * Binds a row's values after its session id ({@link #values}' order), from parameter {@code after} + 1 on;
     * {@code now} is the timestamp of a row that brings none.
     */
    private static void bindRow(PreparedStatement statement, int after, NewMessageRow message, double now, boolean v17)
            throws SQLException {
        bind(statement, after, rowValues(message, message.timestampOr(now), v17));
    }

    /** A row's values after its session id, in {@link #ROW_V6} / {@link #ROW_V17} order. */
    private static @Nullable Object[] rowValues(NewMessageRow message, double timestamp, boolean v17) {
        if (!v17) {
            return new Object[]{message.role(), message.content(), message.toolCallId(), message.toolCalls(),
                    message.toolName(), timestamp, message.tokenCount(), message.finishReason(), message.reasoning(),
                    message.reasoningDetails(), message.codexReasoningItems()};
        }
        return new Object[]{message.role(), message.content(), message.toolCallId(), message.toolCalls(),
                message.toolName(), timestamp, message.tokenCount(), message.finishReason(), message.reasoning(),
                message.reasoningContent(), message.reasoningDetails(), message.codexReasoningItems(),
                message.codexMessageItems(), message.platformMessageId(), message.observed()};
    }

    /** Binds the values by position from parameter {@code after} + 1 on, as given (text, numbers, nulls). */
    private static void bind(PreparedStatement statement, int after, @Nullable Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            statement.setObject(after + i + 1, values[i]);
        }
    }
}
