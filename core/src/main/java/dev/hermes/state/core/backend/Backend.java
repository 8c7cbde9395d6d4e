package dev.hermes.state.core.backend;

import dev.hermes.state.RetryPolicy;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Name;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Everything that depends on the database engine, in one small seam: how a connection is set up,
 * how a write transaction takes its lock, which failures are worth retrying and how they reach the
 * caller (the engine is the {@link RetryPolicy.Failures} the store's retries classify failures by), log maintenance, the few SQL expressions whose spelling differs between engines, and the
 * full-text search (its own seam, {@link MessageSearch}). The store composes its queries from the
 * generated jOOQ tables plus these pieces, so another engine (PostgreSQL is next) is another
 * implementation of this interface (with its {@link ConnectionSource}), not another repository.
 */
public interface Backend extends RetryPolicy.Failures {

    /** What a connection is used for; decides the settings {@link #configure} applies. */
    enum Role {
        /** The store's single write connection. */
        WRITER,
        /** A pooled read connection of a read-write store: it must not be able to write. */
        READER,
        /** A read connection of a store opened read-only: nothing may be written, not even the journal mode. */
        READ_ONLY
    }

    SQLDialect dialect();

    /**
     * Applies the per-connection settings for {@code role}; the connection is left in auto-commit mode.
     * {@code ownConnection} is false for a connection the application lent us (its DataSource): then
     * only what the store needs is changed, and {@link #release} undoes what must not leak back.
     */
    void configure(Connection connection, Role role, boolean ownConnection) throws SQLException;

    /** Restores what {@link #configure} changed on a connection the application lent us, before we hand it back. */
    void release(Connection connection, Role role) throws SQLException;

    /**
     * The statement that starts a write transaction holding the store's write lock from its first
     * statement on: one write at a time per store, whichever process makes it, as Hermes' {@code BEGIN
     * IMMEDIATE} on SQLite. Waiting longer than the busy timeout for it is a {@link #isRetryable} failure.
     */
    String beginWrite();

    /**
     * The statement that starts a write transaction that only appends messages to one existing
     * session (its counters' update, then its rows): such appends may run at the same time as each
     * other, as the update locks the one session row they change and ids come from the database, but
     * never alongside any other write, so every {@link #beginWrite} transaction still runs alone. An
     * engine with one writer at a time returns {@link #beginWrite}.
     */
    String beginAppend();

    /** The statement that starts a read transaction (one consistent snapshot for several statements). */
    String beginRead();

    /** True for a write refused because a referenced row (a parent session, a session) does not exist. */
    boolean isForeignKeyViolation(Throwable failure);

    /** Moves committed pages from the write-ahead log into the database file; {@code truncate} also shrinks the log. */
    void checkpoint(Connection connection, boolean truncate) throws SQLException;

    /** Rebuilds the database file without free pages. Runs outside any transaction. */
    void vacuum(Connection connection) throws SQLException;

    /**
     * Merges the segments of the store's full-text indexes (Hermes' {@code optimize_fts}: FTS5's
     * {@code 'optimize'} on each of {@code messages_fts} and {@code messages_fts_trigram} that exists);
     * returns how many indexes were merged. Runs outside any transaction; search answers do not change.
     */
    int optimizeFullText(Connection connection) throws SQLException;

    /**
     * The text value of the top-level member {@code member} of the JSON object in {@code document},
     * NULL when the document is NULL or has no such member (or it is JSON null): SQLite's
     * {@code json_extract(COALESCE(document, '{}'), '$.member')}, which the agent uses for the
     * {@code model_config} markers ({@code _delegate_from}, {@code _branched_from}). Text that is not
     * JSON makes the statement fail, as it does for the agent. {@code member} is a plain identifier.
     */
    Field<String> jsonMember(Field<JSON> document, String member);

    /**
     * {@code field} compared character by character as SQLite's BINARY collation compares text (code
     * point order), whatever the database's collation: for range scans over ids.
     */
    Field<String> bytewise(Field<String> field);

    /**
     * Creates the Telegram DM topic tables ({@code telegram_dm_topic_mode}, {@code
     * telegram_dm_topic_bindings} and their two indexes) when missing, exactly as the agent's {@code
     * apply_telegram_topic_migration} does, in the write {@code transaction}; a bindings table of the
     * topic schema's first version (its session reference without ON DELETE CASCADE) is rebuilt with
     * the cascade when {@code upgradeFirstVersion}.
     */
    void createTelegramTopicTables(Transaction transaction, boolean upgradeFirstVersion) throws SQLException;

    /** The logical size of the database in bytes (pages in use plus free pages). */
    long databaseBytes(Connection connection) throws SQLException;

    /**
     * {@code field} starts with {@code prefix}, every character of the prefix taken literally
     * (no wildcards), with Hermes' case rules (SQLite's LIKE: ASCII letters case-insensitive).
     */
    Condition startsWith(Field<String> field, String prefix);

    /**
     * {@code value LIKE pattern} by SQLite's rules, which Hermes' queries rely on: ASCII letters match
     * either case, other characters only themselves; {@code escape} makes the next character literal
     * (null: no escape character, as a LIKE without ESCAPE on SQLite, where a backslash is a plain
     * character).
     */
    Condition like(Field<String> value, Field<String> pattern, @Nullable Character escape);

    /**
     * The stored content starts with the agent's marker of structured content (SQLite's NUL one, or
     * PostgreSQL's SOH one: {@code core.rows.StoredContent}), tested without reading the whole text.
     */
    Condition isStructuredContent(Field<String> content);

    /** SQLite's {@code lower()}: ASCII letters to lower case, every other character kept. */
    Field<String> asciiLower(Field<String> text);

    /**
     * SQLite's {@code json_extract(COALESCE(document, '{}'), '$.member') IS NULL}: the JSON object has no
     * such member or it is null (Hermes' markers in {@code model_config}: {@code _delegate_from},
     * {@code _branched_from}). A document that is not an object has no member; one that is not JSON fails
     * the statement (as on SQLite) unless it cannot hold the member at all. {@code schema} is the store's
     * (an engine may read the member with functions its schema has only from some version on).
     */
    Condition jsonMemberIsNull(Field<?> document, String member, StoreSchema schema);

    /**
     * Whether the database has {@code table}, read in {@code transaction} without failing it. For
     * hermes-state's own tables, which a file opened read-only (or without migrating) may lack.
     */
    boolean hasTable(Transaction transaction, Table<?> table) throws SQLException;

    /** The names of the store's tables, read in {@code transaction}. */
    Set<String> tables(Transaction transaction) throws SQLException;

    /**
     * The columns this engine adds to Hermes' tables for itself (PostgreSQL's search columns and the
     * sessions' insertion order): not data, never copied or compared.
     */
    default Set<String> ownColumns(String table) {
        return Set.of();
    }

    /** The names of {@code table}'s columns (empty for a missing table), read in {@code transaction}. */
    Set<String> columns(Transaction transaction, String table) throws SQLException;

    /** The version the store claims ({@code schema_version}; 0 when empty), read in {@code transaction}. */
    default long schemaVersion(Transaction transaction) throws SQLException {
        return transaction.withStatement("SELECT COALESCE(MAX(version), 0) FROM schema_version", statement -> {
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        });
    }

    /** Full-text search over the messages, in this engine's dialect. */
    MessageSearch messageSearch();

    /**
     * The same value, marked so the query planner does not use an index for a condition on it.
     * Needed where the planner, lacking statistics, would pick an index that matches most rows and
     * then sort them all (see the rich listing's {@code parent_session_id IS NULL}).
     */
    <T> Field<T> unindexed(Field<T> field);

    /**
     * A number that grows with every row inserted into {@code table} (aliased or not): the order in
     * which an index lists rows with equal keys, which decides ties the way Hermes' queries do.
     */
    Field<Long> insertionOrder(Table<?> table);

    /**
     * The largest message id this database has ever handed out or holds (SQLite: AUTOINCREMENT's
     * {@code sqlite_sequence}, which stays past the ids of deleted messages); 0 for none. Read in
     * {@code transaction}.
     */
    long messageIdHighWater(Transaction transaction) throws SQLException;

    /**
     * Makes every message id the database generates from now on larger than {@code id} (never
     * lowers it), in the write {@code transaction}: after rows were inserted with ids of their own (a
     * copy keeps the source's ids), and to carry another database's high-water mark over.
     */
    void raiseMessageIdHighWater(Transaction transaction, long id) throws SQLException;

    /**
     * A number, read in {@code transaction} on its connection, that differs from the one read earlier on
     * the same connection whenever another connection committed a change to the database in between
     * (SQLite's {@code PRAGMA data_version}); this connection's own commits do not change it. Empty where
     * the engine has no such number: then the caller must assume another connection wrote.
     */
    OptionalLong otherConnectionsVersion(Transaction transaction) throws SQLException;

    /**
     * Whether this store reads a session's rows packed into one value ({@link #packedRows}): one native
     * call of the driver instead of one per row and column, which is what remained of a conversation
     * read's cost on SQLite (measured). Decided once per store. False on PostgreSQL, whose driver
     * receives a whole result in one round trip anyway.
     */
    boolean packsRows(Transaction transaction);

    /**
     * Only where {@link #packsRows}: the aggregate that packs the rows a query selects into one text
     * value, in no particular order, each row {@code id "," texts observed ";" timestamp ";"}. A text is
     * {@code ":"} for NULL, else its length in bytes, {@code ":"} and its bytes exactly as stored; the
     * observed flag is its integer or {@code "x"}; the timestamp is {@code "r"} and the stored double
     * times {@code timestampScale} when that product is an integer and the double below
     * {@code timestampLimit}, {@code "i"} and a stored integer, or {@code "x"} (then the caller reads
     * the rows one by one).
     */
    Field<String> packedRows(List<Field<?>> texts, Field<?> observed, Field<?> timestamp, Field<?> id,
                             double timestampScale, double timestampLimit);

    /** True for a failure of a {@link #packedRows} read that reading the rows one by one avoids (the value too big). */
    boolean isUnpackable(SQLException failure);

    /** False when text columns cannot hold the NUL character U+0000 (PostgreSQL). */
    boolean storesNulInText();

    /**
     * True when a {@code WITH} clause may hold an {@code UPDATE ... RETURNING} whose rows the main
     * statement inserts from: an append then updates its session's counters and inserts its row in one
     * statement, one round trip less to a server.
     */
    boolean updatesInWith();

    /**
     * Rows given column by column, each column one bound array parameter (its elements in row order),
     * as a table {@code alias(parameters..., order)}: a column per parameter, named as it, and
     * {@code order} numbering the rows from 1. A batch of rows is then inserted by one statement whose
     * SELECT orders by it, so the rows are inserted, and draw their ids, in the batch's order
     * (PostgreSQL's {@code unnest(...) WITH ORDINALITY}). {@code elementTypes} gives each parameter's
     * element type ({@code String}, {@code Double} or {@code Long}); bind each with {@link #array}. Null
     * where the engine has no array parameters (SQLite, which inserts a batch row by row on one
     * prepared statement, with no round trip to save).
     */
    default @Nullable Table<?> arrayRows(Name alias, List<String> parameters, List<Class<?>> elementTypes, Name order) {
        return null;
    }

    /**
     * The value to bind to one of {@link #arrayRows}' parameters: {@code elements} (nulls allowed) as an
     * array of {@code elementType}'s values ({@code String}, {@code Double} or {@code Long}).
     */
    default Object array(Connection connection, Class<?> elementType, @Nullable Object[] elements) throws SQLException {
        throw new UnsupportedOperationException("No array parameters on " + dialect());
    }

    /**
     * An upper bound on the length of any parent chain, cheap to compute: recursive lineage queries
     * stop there, so a cycle (only possible in a hand-edited file) ends instead of looping forever.
     */
    Field<Long> chainLengthBound();
}
