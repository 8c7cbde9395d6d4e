package dev.hermes.state.bench.engine;

import dev.hermes.state.bench.raw.RawStore;
import dev.hermes.state.core.StateRepository;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The databases of one benchmark run on one engine, each named by a place ({@link #MAIN}, "raw",
 * "batch", ...): on SQLite a file {@code <place>.db} in the run's folder, on PostgreSQL a schema
 * {@code <base>_<place>} of the server (the main store in {@code <base>} itself). The workloads are
 * the same on both engines; what differs (where a store lives, how a plain connection reaches it, how
 * big it is, the raw baseline's SQL) is here. Closing drops what the run created, unless kept.
 */
public interface RunDatabases extends AutoCloseable {
    /** The main store's place (W1-W9 run on it). */
    String MAIN = "state";

    /** "sqlite" or "postgresql", for the result file. */
    String engine();

    /** What a child process is given to open a place's store ({@code StoreTarget.open}): a file, or a URL naming the schema. */
    String target(String place);

    /** The hermes-state command line's options that name a place's store: {@code --db ...} (and {@code --schema ...}). */
    List<String> commandOptions(String place);

    /** The main store, as it may be printed (never a password). */
    String describe();

    /** A place's store, created through the product's builder and migrator as an application would. */
    StateRepository openStore(String place);

    /** A new place with the version-6 schema, opened by the raw baseline; {@code checkpointEvery} is SQLite's (0: none). */
    RawStore openRaw(String place, int checkpointEvery) throws SQLException;

    /** A plain JDBC connection (auto-commit) to a place's tables, outside the store. */
    Connection plainConnection(String place, boolean readOnly) throws SQLException;

    /** A place's size in bytes: the file, or the schema's tables with their indexes and TOAST. */
    long dbBytes(String place);

    /** The write-ahead log's size: SQLite's {@code -wal} file; 0 on PostgreSQL (the server's WAL is shared). */
    long walBytes(String place);

    /** The appendix's match counts ({@code SearchCases}) in a place, as the engine's index finds them. */
    Map<String, Long> matchCounts(String place) throws SQLException;

    /** Whether the full-text index agrees with the messages (FTS5's integrity-check; content_tsv as recomputed). */
    boolean searchIndexIntact(Connection plain);

    /** Free space the store holds after deletes (SQLite's free pages); 0 when the engine does not say. */
    long freeBytes(Connection plain) throws SQLException;

    /** The engine's lines of the result file's {@code env} (version and durability settings). */
    Map<String, Object> environment() throws SQLException;

    /** The engine and its version for the table's heading, e.g. {@code SQLite 3.46.1}. */
    String engineVersion() throws SQLException;

    @Override
    void close();
}
