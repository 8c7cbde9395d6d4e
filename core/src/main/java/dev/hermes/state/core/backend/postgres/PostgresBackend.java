package dev.hermes.state.core.backend.postgres;

import dev.hermes.state.JdbcFailures;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.postgresql.PostgresPool;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Name;
import org.jooq.QueryPart;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

import static dev.hermes.state.db.Tables.SESSIONS;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL engine: the store lives in one schema (its connections' search path). Reads are
 * read-only REPEATABLE READ transactions (one snapshot per operation, as a SQLite read transaction);
 * a write is a READ COMMITTED transaction that first takes the store's write lock, a transaction-level
 * advisory lock keyed by the schema, so that writes to one store run one at a time whichever process
 * makes them, as Hermes' {@code BEGIN IMMEDIATE}: read-then-write operations (a title's uniqueness,
 * counters) see what the previous write committed. Appends ({@link #beginAppend}) take the same lock
 * shared: they run together, each serialised with the other appends to its session by the session
 * row's lock (taken by the counters' update, before the row's id is drawn, so a session's ids still
 * follow its commit order), and never alongside another write. The lock is queued for, first come
 * first served, up to the busy timeout times the attempts; other locks (rows an application's own
 * transaction holds) wait the busy timeout. Either wait ending
 * fails with SQLSTATE 55P03, which, like serialization failures and deadlocks, is retried as a whole
 * ({@link PostgresErrors#isRetryable}).
 */
public final class PostgresBackend implements Backend {
    /** The identity sequence behind messages.id, in the store's schema (the connection's search path). */
    private static final String MESSAGE_ID_SEQUENCE = "pg_catalog.pg_get_serial_sequence('messages', 'id')::regclass";

    /** The first key of the store's write lock ("HSWL"); the second is the schema's. Not the migrations' key. */
    private static final int WRITE_LOCK_CLASS = 0x4853574C;
    private static final char LIKE_ESCAPE = '\\';
    private static final String FOREIGN_KEY_VIOLATION = "23503";

    private final String schema;
    private final RetryPolicy retryPolicy;
    private final String beginWrite;
    private final String beginAppend;

    public PostgresBackend(String schema, RetryPolicy retryPolicy) {
        this.schema = schema;
        this.retryPolicy = retryPolicy;
        // The write lock is waited for in the server's queue (first come, first served) for as long as
        // all attempts of the retry policy together: a waiter that timed out after the busy timeout
        // would go to the back of the queue and, under steady load, never get through. String.hashCode
        // is specified, so every process computes the same key for the schema.
        long queueMillis = Math.max(1, retryPolicy.busyTimeout().toMillis()) * Math.max(1, retryPolicy.maxAttempts());
        this.beginWrite = begin(queueMillis, "pg_advisory_xact_lock", schema);
        this.beginAppend = begin(queueMillis, "pg_advisory_xact_lock_shared", schema);
    }

    /**
     * BEGIN, then the store's write lock in {@code lockFunction}'s mode (exclusive or shared), queued
     * for up to {@code queueMillis}: one round trip.
     */
    private static String begin(long queueMillis, String lockFunction, String schema) {
        return "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout TO '" + queueMillis + "ms'; "
                + "SELECT pg_catalog." + lockFunction + "(" + WRITE_LOCK_CLASS + ", " + schema.hashCode() + ")";
    }

    @Override
    public SQLDialect dialect() {
        return SQLDialect.POSTGRES;
    }

    /**
     * The store's own connections were set up by their pool once ({@link PostgresPool#sessionSettings});
     * a lent connection gets the same settings for the time the store uses it.
     */
    @Override
    public void configure(Connection connection, Role role, boolean ownConnection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
        if (!ownConnection) {
            execute(connection, PostgresPool.sessionSettings(schema,
                    role == Role.WRITER ? PostgresPool.Use.WRITE : PostgresPool.Use.READ, retryPolicy.busyTimeout()));
        }
    }

    @Override
    public void release(Connection connection, Role role) throws SQLException {
        execute(connection, PostgresPool.resetSessionSettings());
    }

    @Override
    public String beginWrite() {
        return beginWrite;
    }

    @Override
    public String beginAppend() {
        return beginAppend;
    }

    @Override
    public String beginRead() {
        return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return PostgresErrors.isRetryable(failure);
    }

    @Override
    public boolean isForeignKeyViolation(Throwable failure) {
        return JdbcFailures.sqlState(failure).equals(FOREIGN_KEY_VIOLATION);
    }

    @Override
    public HermesStateException translate(Throwable failure, String what) {
        return PostgresErrors.translate(failure, what);
    }

    /** Nothing to do: the server manages its own write-ahead log. */
    @Override
    public void checkpoint(Connection connection, boolean truncate) {
    }

    /** Frees dead rows' space for reuse and refreshes the planner's statistics, without locking writers out. */
    @Override
    public void vacuum(Connection connection) throws SQLException {
        execute(connection, "VACUUM (ANALYZE) sessions, messages");
    }

    /**
     * A GIN index gathers new entries in a pending list that searches must scan, until a vacuum or
     * this cleans it: the counterpart of FTS5's segment merge. Counts the GIN indexes of messages (the
     * full-text and substring indexes) it cleaned.
     */
    @Override
    public int optimizeFullText(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(pg_catalog.gin_clean_pending_list(i.indexrelid))"
                     + " FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
                     + " JOIN pg_catalog.pg_am a ON a.oid = c.relam"
                     + " WHERE i.indrelid = pg_catalog.to_regclass('messages') AND a.amname = 'gin'")) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    /**
     * The schema's {@code sqlite_json_member} (version 16 on), which reads the text as SQLite does (a
     * duplicate key at its first occurrence, Python's NaN and Infinity, a text that is not JSON failing
     * the statement), its JSON value made SQL text as {@code json_extract} gives it (a string without
     * its quotes). A text without the member's name and without any escape cannot hold the member and
     * is not read (most documents: the function tokenizes the whole text).
     */
    @Override
    public Field<String> jsonMember(Field<JSON> document, String member) {
        return DSL.field("CASE WHEN pg_catalog.strpos({0}, {1}) = 0 AND pg_catalog.strpos({0}, {2}) = 0 THEN NULL"
                        + " ELSE (NULLIF(sqlite_json_member({0}, {1}), 'null')::json #>> '{}'::text[]) END",
                String.class, document, DSL.inline(member), DSL.inline("\\"));
    }

    /** The "C" collation compares the UTF-8 bytes, which is code point order. */
    @Override
    public Field<String> bytewise(Field<String> field) {
        return DSL.field("({0} COLLATE \"C\")", String.class, field);
    }

    /** The agent's tables in PostgreSQL's types (REAL is double precision here); never of the first version. */
    @Override
    public void createTelegramTopicTables(Transaction transaction, boolean upgradeFirstVersion) {
        DSLContext dsl = transaction.dsl();
        dsl.execute("CREATE TABLE IF NOT EXISTS telegram_dm_topic_mode (chat_id text PRIMARY KEY, user_id text NOT NULL,"
                + " enabled bigint NOT NULL DEFAULT 1, activated_at double precision NOT NULL,"
                + " updated_at double precision NOT NULL, has_topics_enabled bigint, allows_users_to_create_topics bigint,"
                + " capability_checked_at double precision, intro_message_id text, pinned_message_id text)");
        dsl.execute("CREATE TABLE IF NOT EXISTS telegram_dm_topic_bindings (chat_id text NOT NULL, thread_id text NOT NULL,"
                + " user_id text NOT NULL, session_key text NOT NULL,"
                + " session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
                + " managed_mode text NOT NULL DEFAULT 'auto', linked_at double precision NOT NULL,"
                + " updated_at double precision NOT NULL, PRIMARY KEY (chat_id, thread_id))");
        dsl.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_telegram_dm_topic_bindings_session"
                + " ON telegram_dm_topic_bindings(session_id)");
        dsl.execute("CREATE INDEX IF NOT EXISTS idx_telegram_dm_topic_bindings_user"
                + " ON telegram_dm_topic_bindings(user_id, chat_id)");
    }

    /** The store's tables with their indexes and TOAST data. */
    @Override
    public long databaseBytes(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)"
                     + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                     + " WHERE n.nspname = pg_catalog.current_schema() AND c.relkind = 'r'")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    /** As SQLite's LIKE: ASCII letters case-insensitive, other characters exact. */
    @Override
    public Condition startsWith(Field<String> field, String prefix) {
        String escaped = asciiLower(prefix).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return lowerAscii(field).like(escaped + "%", LIKE_ESCAPE);
    }

    /** PostgreSQL's text cannot hold NUL: only the SOH marker can be stored. */
    @Override
    public Condition isStructuredContent(Field<String> content) {
        return structuredContent(content);
    }

    static Condition structuredContent(Field<String> content) {
        return DSL.condition("pg_catalog.left({0}, 6) = pg_catalog.chr(1) || 'json:'", content);
    }

    /** SQLite's LIKE: both sides' ASCII letters lower-cased; no ESCAPE clause means no escape character at all. */
    @Override
    public Condition like(Field<String> value, Field<String> pattern, @Nullable Character escape) {
        return escape == null
                ? DSL.condition("{0} LIKE {1} ESCAPE ''", lowerAscii(value), lowerAscii(pattern))
                : lowerAscii(value).like(lowerAscii(pattern), escape);
    }

    @Override
    public Field<String> asciiLower(Field<String> text) {
        return lowerAscii(text);
    }

    /**
     * The schema's {@code sqlite_json_member} (version 16 on), which reads the text as SQLite does, for
     * the documents that may hold the member; a text without the member's name and without any escape
     * cannot, and is not read (most documents: the function tokenizes the whole text). Before version 16
     * PostgreSQL's own parser reads the few candidates (a duplicate key is then taken at its last
     * occurrence, not its first, and a NaN fails).
     */
    @Override
    public Condition jsonMemberIsNull(Field<?> document, String member, StoreSchema schema) {
        Condition cannotHold = DSL.condition("pg_catalog.strpos({0}, {1}) = 0 AND pg_catalog.strpos({0}, {2}) = 0",
                document, DSL.inline(member), DSL.inline("\\"));
        Condition absent = schema.version() >= 16
                ? DSL.condition("coalesce(sqlite_json_member(coalesce({0}, '{}'), {1}), 'null') = 'null'",
                        document, DSL.inline(member))
                : DSL.condition("(CAST(coalesce({0}, '{}') AS jsonb) OPERATOR(pg_catalog.->>) {1}) IS NULL",
                        document, DSL.inline(member));
        return document.isNull().or(cannotHold).or(absent);
    }

    static Field<String> lowerAscii(Field<String> field) {
        return DSL.field("pg_catalog.translate({0}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')",
                String.class, field);
    }

    static String asciiLower(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return out.toString();
    }

    /** tsvector words (GIN), ts_headline snippets, the CJK substring index. */
    @Override
    public MessageSearch messageSearch() {
        return Search.INSTANCE;
    }

    private static final class Search {
        static final MessageSearch INSTANCE = new PostgresMessageSearch();
    }

    /** The planner has statistics: it needs no hint. */
    @Override
    public <T> Field<T> unindexed(Field<T> field) {
        return field;
    }

    /** Sessions' identity column {@code rowid} (version 6 on PostgreSQL): SQLite's implicit rowid. */
    @Override
    public Field<Long> insertionOrder(Table<?> table) {
        return DSL.field(DSL.name(table.getName(), "rowid"), Long.class);
    }

    @Override
    public Field<Long> chainLengthBound() {
        return DSL.select(DSL.coalesce(DSL.max(DSL.field(DSL.name("rowid"), Long.class)), DSL.inline(0L)))
                .from(SESSIONS).asField();
    }

    /** Resolved as the store's queries are, through the connection's search path (the store's schema). */
    @Override
    public boolean hasTable(Transaction transaction, Table<?> table) throws SQLException {
        return transaction.withStatement("SELECT pg_catalog.to_regclass(?) IS NOT NULL", statement -> {
            statement.setString(1, table.getName());
            try (ResultSet row = statement.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        });
    }

    @Override
    public Set<String> ownColumns(String table) {
        return switch (table) {
            case "messages" -> Set.of("content_tsv", "content_grams");
            case "sessions" -> Set.of("rowid");
            default -> Set.of();
        };
    }

    @Override
    public Set<String> tables(Transaction transaction) throws SQLException {
        return transaction.names("SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
                + " ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind IN ('r', 'p')", schema);
    }

    @Override
    public Set<String> columns(Transaction transaction, String table) throws SQLException {
        return transaction.names("SELECT a.attname FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c"
                + " ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped", schema, table);
    }

    /**
     * The larger of the largest id present and the last value the identity sequence handed out
     * (null until it hands one out); 0 for none.
     */
    @Override
    public long messageIdHighWater(Transaction transaction) throws SQLException {
        return transaction.withStatement("SELECT greatest(coalesce((SELECT max(id) FROM messages), 0),"
                + " coalesce(pg_catalog.pg_sequence_last_value(" + MESSAGE_ID_SEQUENCE + "), 0))", statement -> {
                    try (ResultSet row = statement.executeQuery()) {
                        row.next();
                        return row.getLong(1);
                    }
                });
    }

    /**
     * Moves the identity sequence of messages.id to the largest of {@code id}, the ids present and
     * its own position: ids inserted explicitly (a copy) do not move an identity sequence.
     */
    @Override
    public void raiseMessageIdHighWater(Transaction transaction, long id) throws SQLException {
        transaction.withStatement("SELECT pg_catalog.setval(" + MESSAGE_ID_SEQUENCE + ", mark, true) FROM (SELECT greatest(?,"
                + " coalesce((SELECT max(id) FROM messages), 0),"
                + " coalesce(pg_catalog.pg_sequence_last_value(" + MESSAGE_ID_SEQUENCE + "), 0)) AS mark) high_water"
                + " WHERE mark > 0", statement -> {
                    statement.setLong(1, id);
                    return statement.execute();
                });
    }

    /**
     * None: PostgreSQL has no per-connection count of other sessions' commits (a transaction id or a
     * snapshot tells what is visible, not whether anything changed since), so callers always read again.
     */
    @Override
    public OptionalLong otherConnectionsVersion(Transaction transaction) {
        return OptionalLong.empty();
    }

    @Override
    public boolean packsRows(Transaction transaction) {
        return false;
    }

    @Override
    public Field<String> packedRows(List<Field<?>> texts, Field<?> observed, Field<?> timestamp, Field<?> id,
                                    double timestampScale, double timestampLimit) {
        throw new UnsupportedOperationException("PostgreSQL reads rows one by one");
    }

    @Override
    public boolean isUnpackable(SQLException failure) {
        return false;
    }

    /** PostgreSQL's text types cannot hold U+0000. */
    @Override
    public boolean storesNulInText() {
        return false;
    }

    @Override
    public boolean updatesInWith() {
        return true;
    }

    /**
     * {@code unnest(CAST(? AS text[]), CAST(? AS float8[]), ...) WITH ORDINALITY AS alias(parameters..., order)}:
     * the arrays side by side, one row per index, numbered from 1. The parameters are untyped text
     * parameters for jOOQ (a typed one would be rendered with a cast to its element type).
     */
    @Override
    public Table<?> arrayRows(Name alias, List<String> parameters, List<Class<?>> elementTypes, Name order) {
        if (parameters.size() != elementTypes.size() || parameters.isEmpty()) {
            throw new IllegalArgumentException("One element type per array: " + elementTypes + " for " + parameters);
        }
        StringBuilder sql = new StringBuilder("unnest(");
        List<QueryPart> parts = new ArrayList<>();
        for (int i = 0; i < parameters.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("CAST({").append(parts.size()).append("} AS ")
                    .append(arrayType(elementTypes.get(i))).append("[])");
            parts.add(DSL.param(parameters.get(i), String.class));
        }
        sql.append(") WITH ORDINALITY AS {").append(parts.size()).append("}(");
        parts.add(alias);
        for (String parameter : parameters) {
            sql.append('{').append(parts.size()).append("}, ");
            parts.add(DSL.name(parameter));
        }
        sql.append('{').append(parts.size()).append("})");
        parts.add(order);
        return DSL.table(sql.toString(), parts.toArray(QueryPart[]::new));
    }

    @Override
    public Object array(Connection connection, Class<?> elementType, @Nullable Object[] elements) throws SQLException {
        return connection.createArrayOf(arrayType(elementType), elements);
    }

    private static String arrayType(Class<?> elementType) {
        if (elementType == String.class) {
            return "text";
        }
        if (elementType == Double.class) {
            return "float8";
        }
        if (elementType == Long.class) {
            return "int8";
        }
        throw new IllegalArgumentException("No array type for " + elementType);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL (schema " + schema.toLowerCase(Locale.ROOT) + ")";
    }
}
