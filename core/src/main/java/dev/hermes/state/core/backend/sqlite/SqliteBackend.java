package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteErrors;
import org.jooq.QueryPart;
import org.jooq.impl.SQLDataType;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static dev.hermes.state.db.Tables.SESSIONS;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The SQLite engine (sqlite-jdbc): WAL, {@code BEGIN IMMEDIATE}, BUSY/LOCKED retries by result
 * code, {@code PRAGMA query_only} readers, PASSIVE/TRUNCATE checkpoints, LIKE with an escape
 * character. With the FTS5 search ({@link SqliteMessageSearch}) and the files' connections
 * ({@link SqliteFileConnections}), the only place of the store that spells SQLite-specific SQL.
 */
public final class SqliteBackend implements Backend {
    /** Whether this store's rows are read packed ({@link #packsRows}); null until probed. */
    private volatile @Nullable Boolean packs;
    /** A reset write-ahead log is cut back to this size, so one huge transaction does not leave a huge file. */
    private static final long JOURNAL_SIZE_LIMIT_BYTES = 16L * 1024 * 1024;
    private static final char LIKE_ESCAPE = '\\';
    /** The agent's full-text tables: words, and trigrams for CJK and substrings (schema 10 on). */
    private static final java.util.List<String> FULL_TEXT_TABLES = java.util.List.of("messages_fts", "messages_fts_trigram");

    private static final PreparedQuery HAS_TABLE = PreparedQuery.of(() -> DSL
            .selectCount().from(DSL.table(DSL.name("sqlite_master")))
            .where(DSL.field(DSL.name("type"), String.class).eq(DSL.inline("table")))
            .and(DSL.field(DSL.name("name"), String.class).eq(DSL.param("table", String.class))), "table");

    private final RetryPolicy retryPolicy;

    public SqliteBackend(RetryPolicy retryPolicy) {
        this.retryPolicy = retryPolicy;
    }

    @Override
    public SQLDialect dialect() {
        return SQLDialect.SQLITE;
    }

    /**
     * Connections the store opened itself get the polling busy handler (see {@link PollingBusyHandler})
     * and synchronous=NORMAL (safe with WAL: a power cut may lose the last commits, never corrupt);
     * a connection the application lent us keeps its durability setting and gets the plain busy
     * timeout.
     */
    @Override
    public void configure(Connection connection, Role role, boolean ownConnection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
        execute(connection, "PRAGMA foreign_keys = ON");
        if (ownConnection && connection.isWrapperFor(SQLiteConnection.class)) {
            BusyHandler.setHandler(connection.unwrap(SQLiteConnection.class),
                    new PollingBusyHandler(retryPolicy.busyTimeout()));
        } else {
            execute(connection, "PRAGMA busy_timeout = " + retryPolicy.busyTimeout().toMillis());
        }
        switch (role) {
            case WRITER -> {
                query(connection, "PRAGMA journal_mode = WAL");
                if (ownConnection) {
                    execute(connection, "PRAGMA synchronous = NORMAL");
                    query(connection, "PRAGMA journal_size_limit = " + JOURNAL_SIZE_LIMIT_BYTES);
                }
            }
            case READER, READ_ONLY -> execute(connection, "PRAGMA query_only = 1");
        }
    }

    @Override
    public void release(Connection connection, Role role) throws SQLException {
        if (role != Role.WRITER) {
            execute(connection, "PRAGMA query_only = 0");
        }
    }

    @Override
    public String beginWrite() {
        return "BEGIN IMMEDIATE";
    }

    /** SQLite has one writer at a time: an append takes the write lock as every write does. */
    @Override
    public String beginAppend() {
        return beginWrite();
    }

    @Override
    public String beginRead() {
        return "BEGIN";
    }

    @Override
    public boolean isRetryable(Throwable failure) {
        return SqliteErrors.FAILURES.isRetryable(failure);
    }

    /** By SQLite's extended result code SQLITE_CONSTRAINT_FOREIGNKEY (787), not by message text. */
    @Override
    public boolean isForeignKeyViolation(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLiteException sqlite) {
                return sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY;
            }
        }
        return false;
    }

    @Override
    public HermesStateException translate(Throwable failure, String what) {
        return SqliteErrors.FAILURES.translate(failure, what);
    }

    @Override
    public void checkpoint(Connection connection, boolean truncate) throws SQLException {
        query(connection, truncate ? "PRAGMA wal_checkpoint(TRUNCATE)" : "PRAGMA wal_checkpoint(PASSIVE)");
    }

    @Override
    public void vacuum(Connection connection) throws SQLException {
        execute(connection, "VACUUM");
    }

    /**
     * FTS5 records deletions as extra index entries and every insert as a segment of its own, so a
     * long-lived or pruned index is mostly freed (and searched faster) only after an 'optimize'. An
     * index the file lacks, or one that cannot be read (FTS5's trigram tokenizer missing), is skipped,
     * as the agent skips it; a busy database is not (the write is retried).
     */
    @Override
    public int optimizeFullText(Connection connection) throws SQLException {
        int optimized = 0;
        for (String table : FULL_TEXT_TABLES) {
            if (queryLong(connection, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'") == 0) {
                continue;
            }
            try {
                execute(connection, "INSERT INTO " + table + "(" + table + ") VALUES('optimize')");
                optimized++;
            } catch (SQLException failure) {
                if (isRetryable(failure)) {
                    throw failure;
                }
            }
        }
        return optimized;
    }

    /** SQLite's own function; its {@code COALESCE(document, '{}')} as the agent writes it. */
    @Override
    public Field<String> jsonMember(Field<JSON> document, String member) {
        return DSL.field("json_extract(coalesce({0}, {1}), {2})", String.class, document, DSL.inline("{}"),
                DSL.inline("$." + member));
    }

    /** Text compares by BINARY collation unless a column says otherwise; sessions.id does not. */
    @Override
    public Field<String> bytewise(Field<String> field) {
        return field;
    }

    @Override
    public void createTelegramTopicTables(Transaction transaction, boolean upgradeFirstVersion) throws SQLException {
        for (String statement : TelegramTopicDdl.CREATE) {
            transaction.dsl().execute(statement);
        }
        if (upgradeFirstVersion && bindingsLackCascade(transaction)) {
            for (String statement : TelegramTopicDdl.REBUILD_BINDINGS) {
                transaction.dsl().execute(statement);
            }
        }
    }

    /** True when the bindings' reference to sessions is the topic schema's first one, without ON DELETE CASCADE. */
    private static boolean bindingsLackCascade(Transaction transaction) throws SQLException {
        return transaction.withStatement("SELECT count(*) FROM pragma_foreign_key_list('telegram_dm_topic_bindings')"
                + " WHERE \"table\" = 'sessions' AND coalesce(on_delete, '') <> 'CASCADE'", statement -> {
                    try (ResultSet rows = statement.executeQuery()) {
                        return rows.next() && rows.getLong(1) > 0;
                    }
                });
    }

    @Override
    public long databaseBytes(Connection connection) throws SQLException {
        return queryLong(connection, "PRAGMA page_count") * queryLong(connection, "PRAGMA page_size");
    }

    @Override
    public Condition startsWith(Field<String> field, String prefix) {
        String escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return field.like(escaped + "%", LIKE_ESCAPE);
    }

    @Override
    public Condition like(Field<String> value, Field<String> pattern, @Nullable Character escape) {
        return escape == null ? value.like(pattern) : value.like(pattern, escape);
    }

    /**
     * On the bytes: SQLite's text functions (substr, LIKE, replace) stop at a NUL, so the NUL marker's
     * text reads as empty to them; a BLOB's substr does not.
     */
    @Override
    public Condition isStructuredContent(Field<String> content) {
        return structuredContent(content);
    }

    static Condition structuredContent(Field<String> content) {
        return DSL.condition("substr(CAST({0} AS BLOB), 1, 6) IN (X'006A736F6E3A', X'016A736F6E3A')", content);
    }

    /** SQLite's own lower(): without ICU (sqlite-jdbc has none) it changes ASCII letters only. */
    @Override
    public Field<String> asciiLower(Field<String> text) {
        return DSL.lower(text);
    }

    @Override
    public Condition jsonMemberIsNull(Field<?> document, String member, StoreSchema schema) {
        return DSL.condition("json_extract(coalesce({0}, '{}'), {1}) IS NULL", document, DSL.inline("$." + member));
    }

    @Override
    public boolean hasTable(Transaction transaction, Table<?> table) throws SQLException {
        return HAS_TABLE.fetchLong(transaction, table.getName()) > 0;
    }

    @Override
    public Set<String> tables(Transaction transaction) throws SQLException {
        return transaction.names("SELECT name FROM sqlite_master WHERE type = 'table'");
    }

    @Override
    public Set<String> columns(Transaction transaction, String table) throws SQLException {
        return transaction.names("SELECT name FROM pragma_table_info(?)", table);
    }

    /** FTS5 MATCH with bm25 ranking and snippets, Hermes' LIKE fallback for CJK text. */
    @Override
    public MessageSearch messageSearch() {
        return Search.INSTANCE;
    }

    /** Built on first search: its query parts load much of jOOQ, which a command that never searches need not pay. */
    private static final class Search {
        static final MessageSearch INSTANCE = new SqliteMessageSearch();
    }

    /** SQLite's documented way: a unary {@code +} makes the term ineligible for index use. */
    @Override
    public <T> Field<T> unindexed(Field<T> field) {
        return DSL.field("+{0}", field.getDataType(), field);
    }

    /** The implicit rowid (sessions.id is TEXT, so it is not the rowid): the key every index ends with. */
    @Override
    public Field<Long> insertionOrder(Table<?> table) {
        return DSL.field(DSL.name(table.getName(), "rowid"), Long.class);
    }

    @Override
    public Field<Long> chainLengthBound() {
        // The implicit rowid of sessions (id is TEXT, so it is not the rowid) only grows: max(rowid)
        // is at least the number of sessions, found with one index seek instead of count(*)'s scan.
        return DSL.select(DSL.coalesce(DSL.max(DSL.field(DSL.name("rowid"), Long.class)), DSL.inline(0L)))
                .from(SESSIONS).asField();
    }

    /** AUTOINCREMENT's counter, which outlives the messages deleted from the end, or the largest id. */
    @Override
    public long messageIdHighWater(Transaction transaction) throws SQLException {
        return transaction.withStatement("SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0),"
                + " coalesce((SELECT max(id) FROM messages), 0))", statement -> {
                    try (ResultSet row = statement.executeQuery()) {
                        row.next();
                        return row.getLong(1);
                    }
                });
    }

    /**
     * SQLite moves the counter past an id inserted by hand itself; this carries a larger mark over
     * (sqlite_sequence is an ordinary table; its row for messages appears with the first insert).
     */
    @Override
    public void raiseMessageIdHighWater(Transaction transaction, long id) throws SQLException {
        int updated = transaction.withStatement("UPDATE sqlite_sequence SET seq = ?1 WHERE name = 'messages' AND seq < ?1",
                statement -> {
                    statement.setLong(1, id);
                    return statement.executeUpdate();
                });
        if (updated == 0) {
            transaction.withStatement("INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', ?1"
                    + " WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages')", statement -> {
                        statement.setLong(1, id);
                        return statement.executeUpdate();
                    });
        }
    }

    /**
     * {@code PRAGMA data_version}: SQLite changes it, for each connection, when another connection (of
     * this process or another) commits, and never for the connection's own commits.
     */
    @Override
    public OptionalLong otherConnectionsVersion(Transaction transaction) throws SQLException {
        return transaction.withStatement("PRAGMA data_version", statement -> {
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("PRAGMA data_version returned no row");
                }
                return OptionalLong.of(row.getLong(1));
            }
        });
    }

    /**
     * Packed where SQLite has {@code concat} and {@code octet_length} (3.44) and the file's text is UTF-8
     * (the row-by-row read decodes the stored bytes as UTF-8; the packing carries them as they are).
     * Probed on the first read that asks.
     */
    @Override
    public boolean packsRows(Transaction transaction) {
        Boolean known = packs;
        if (known == null) {
            known = probePacking(transaction);
            packs = known;
        }
        return known;
    }

    private static boolean probePacking(Transaction transaction) {
        try {
            String answer = transaction.withStatement(
                    "SELECT concat(octet_length('\u00e9'), ':') || (SELECT encoding FROM pragma_encoding)", statement -> {
                        try (ResultSet row = statement.executeQuery()) {
                            String text = row.next() ? row.getString(1) : null;
                            return text == null ? "" : text;
                        }
                    });
            return "2:UTF-8".equals(answer);
        } catch (SQLException unsupported) {
            return false;
        }
    }

    /**
     * A {@code group_concat} of one {@code concat} per row: {@code concat} and {@code group_concat} copy
     * the stored bytes as they are (NUL, invalid UTF-8 and BLOBs included) and write numbers as the
     * row-by-row read gets them, so the reader only slices bytes.
     */
    @Override
    public Field<String> packedRows(List<Field<?>> texts, Field<?> observed, Field<?> timestamp, Field<?> id,
                                    double timestampScale, double timestampLimit) {
        List<Field<?>> values = new ArrayList<>(texts);
        values.add(observed);
        values.add(timestamp);
        values.add(id);
        int count = texts.size();
        StringBuilder row = new StringBuilder("concat({").append(count + 2).append("}, ','");
        for (int column = 0; column < count; column++) {
            // NULL: concat leaves out both the length and the value; "" has the length 0
            row.append(", octet_length({").append(column).append("}), ':', {").append(column).append('}');
        }
        String o = "{" + count + "}";
        String t = "{" + (count + 1) + "}";
        String scale = Double.toString(timestampScale); // SQLite reads Java's double literals, 1.5E11 included
        String scaled = "CAST(" + t + " * " + scale + " AS INTEGER)";
        row.append(", CASE WHEN ").append(o).append(" IS NULL THEN 0 WHEN typeof(").append(o).append(") = 'integer' THEN ")
                .append(o).append(" ELSE 'x' END, ';'")
                .append(", CASE WHEN typeof(").append(t).append(") = 'real' AND abs(").append(t).append(") < ")
                .append(Double.toString(timestampLimit)).append(" AND ").append(t).append(" * ").append(scale)
                .append(" = ").append(scaled).append(" THEN 'r' || ").append(scaled)
                .append(" WHEN typeof(").append(t).append(") = 'integer' THEN 'i' || ").append(t)
                .append(" WHEN ").append(t).append(" IS NULL THEN 'i0' ELSE 'x' END, ';')");
        return DSL.field("group_concat(" + row + ", '')", SQLDataType.CLOB, values.toArray(QueryPart[]::new));
    }

    /** An error in the packing's SQL, or a value longer than SQLite's limit. */
    @Override
    public boolean isUnpackable(SQLException failure) {
        int code = failure.getErrorCode() & 0xff;
        return code == SQLiteErrorCode.SQLITE_ERROR.code || code == SQLiteErrorCode.SQLITE_TOOBIG.code;
    }

    @Override
    public boolean storesNulInText() {
        return true;
    }

    /** SQLite allows no UPDATE in a WITH clause (and its statements cost no round trip anyway). */
    @Override
    public boolean updatesInWith() {
        return false;
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs a pragma that answers with a row (sqlite-jdbc refuses executeUpdate for those). */
    private static void query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                // drain: the pragma's answer is not needed
            }
        }
    }

    private static long queryLong(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }
}
