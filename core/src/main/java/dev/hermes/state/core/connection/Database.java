package dev.hermes.state.core.connection;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.backend.WriteStamp;
import dev.hermes.state.core.model.VacuumReport;
import dev.hermes.state.RetryPolicy;
import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store's connections and transactions.
 *
 * <p><b>Writes</b> go through one writer connection behind a fair lock: threads of this process
 * queue in order on the lock instead of polling SQLite's, and only other processes ever meet
 * SQLITE_BUSY. (Measured with 4 threads: one connection behind a fair lock had no BUSY and
 * worst-case latencies of 40-90 ms; a connection per thread with {@code BEGIN IMMEDIATE} was ~20%
 * faster but starved some thread past the 1 s busy timeout.) Every write is one
 * {@code BEGIN IMMEDIATE} ... {@code COMMIT} on the auto-commit connection, retried as a whole
 * with the {@link RetryPolicy} while the failure is BUSY/LOCKED; any other failure rolls back and
 * is reported at once. Every {@code checkpointEvery} commits a PASSIVE checkpoint follows.
 *
 * <p><b>Reads</b> borrow a connection that cannot write from a small lazily opened pool and run in
 * one read transaction, so the statements of one operation see one snapshot.
 *
 * <p>Connections of a {@linkplain ConnectionSource#pooled() pooled} source (a server) are not kept:
 * each write and each read takes one from the source and gives it back when done, so one broken by a
 * server restart fails the call that meets it (typed) and is replaced for the next.
 */
public final class Database implements AutoCloseable {

    static {
        // jOOQ prints a banner, a tip of the day and a dialect-version notice on first use unless
        // told not to; a library must not write to the application's console. An explicit setting
        // of the application wins.
        setIfAbsent("org.jooq.no-logo", "true");
        setIfAbsent("org.jooq.no-tips", "true");
        setIfAbsent("org.jooq.log.org.jooq.impl.DefaultExecuteContext.logVersionSupport", "ERROR");
    }

    /** jOOQ as a library should be: silent, no schema prefix, no per-statement warning fetch. */
    private static final Settings JOOQ_SETTINGS = new Settings()
            .withRenderSchema(false)
            .withRenderCatalog(false)
            .withExecuteLogging(false)
            .withExecuteLoggingSQLExceptions(false)
            .withDiagnosticsLogging(false)
            .withFetchWarnings(false);

    /** One unit of work inside an open transaction (a write, or a read snapshot). */
    @FunctionalInterface
    public interface Work<T> {
        T run(Transaction transaction) throws SQLException;
    }

    private final Backend backend;
    /** The store's one jOOQ configuration: every connection's context and the public one derive from it. */
    private final Configuration configuration;
    private final ConnectionSource source;
    /** Connections are taken per unit of work and given back at once (see the class comment). */
    private final boolean pooled;
    private final RetryPolicy retryPolicy;
    /** The policy for work that must not run twice (a streaming read). */
    private final RetryPolicy tryOnce;
    /** What the retries go by: the backend's classification, failures surfaced as {@link #surface} says. */
    private final RetryPolicy.Failures failures = new RetryPolicy.Failures() {
        @Override
        public boolean isRetryable(Throwable failure) {
            return backend.isRetryable(failure);
        }

        @Override
        public RuntimeException translate(Throwable failure, String what) {
            return surface(failure, what);
        }
    };
    private final boolean readOnly;
    private final int checkpointEvery;
    private final ReaderPool readers;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    private @Nullable Writer writer;     // guarded by writeLock; opened by the first write
    private int commitsSinceCheckpoint;  // guarded by writeLock
    /**
     * What a write stamp ({@link WriteStamp}) is made of, all guarded by writeLock: the number of the
     * last writer connection opened, of the unit of work on the writer now running (every use of the
     * writer counts, so a unit that writes through any path tells the next one it came between), and
     * of the last unit that committed.
     */
    private long writersOpened;
    private long writerUnits;
    private long committedUnit;
    private volatile @Nullable DSLContext publicDsl;
    /** The version a read-write open brought the store to (or would have): decides the rules, with the file's. */
    private final int targetVersion;
    private volatile @Nullable StoreSchema schema;
    /** The configuration without a connection: renders SQL before a transaction starts. */
    private final DSLContext renderer;
    private volatile boolean closed;
    /** Set once by the store's constructor, before the store is shared (see {@link #observe}). */
    private StoreObserver observer = StoreObserver.NONE;

    public Database(Backend backend, ConnectionSource source, RetryPolicy retryPolicy, boolean readOnly,
                    int readerPoolSize, int checkpointEvery, int targetVersion) {
        this.backend = backend;
        this.targetVersion = targetVersion;
        this.configuration = configuration(backend.dialect());
        this.renderer = DSL.using(configuration);
        this.source = source;
        this.pooled = source.pooled();
        this.retryPolicy = retryPolicy;
        this.tryOnce = retryPolicy.withMaxAttempts(1);
        this.readOnly = readOnly;
        this.checkpointEvery = checkpointEvery;
        this.readers = new ReaderPool(readerPoolSize, !pooled, this::openReader, this::closeReader);
    }

    /** The store's jOOQ configuration for {@code dialect}: jOOQ as a library should be, no connection. */
    static Configuration configuration(SQLDialect dialect) {
        return new DefaultConfiguration().set(dialect).set(JOOQ_SETTINGS);
    }

    /** How long and how often this store waits for another process's lock: also for the connections of its backups. */
    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    public Backend backend() {
        return backend;
    }

    /**
     * Every later unit of work reports to {@code observer}. Called by the store's constructor only, so
     * the field is published with the store's final fields.
     */
    public void observe(StoreObserver observer) {
        this.observer = observer;
    }

    /** The engine's name as OpenTelemetry spells {@code db.system.name}: sqlite or postgresql. */
    public String engine() {
        return backend.dialect().family() == SQLDialect.POSTGRES ? "postgresql" : "sqlite";
    }

    /** The source, for the observer's gauges and the pools' own metrics. */
    public ConnectionSource source() {
        return source;
    }

    /** Bytes of the file's write-ahead log now (0 without a file or a log). */
    public long walBytes() {
        Optional<Path> file = source.file();
        if (file.isEmpty()) {
            return 0;
        }
        try {
            Path wal = file.get().resolveSibling(file.get().getFileName() + "-wal");
            return java.nio.file.Files.exists(wal) ? java.nio.file.Files.size(wal) : 0;
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Read connections in use now. */
    public int readersInUse() {
        return readers.inUse();
    }

    /** Read connections open and idle now (always 0 for a pooled source: its pool keeps them). */
    public int readersIdle() {
        return readers.idleCount();
    }

    /** The most read connections the store uses at once. */
    public int readersMax() {
        return readers.size();
    }

    /** The store's schema, read in a read transaction on first use. */
    public StoreSchema schema() {
        StoreSchema known = schema;
        return known != null ? known : read("reading the store's schema", Transaction::schema);
    }

    /** The store's schema, read in {@code transaction} on first use (every transaction of the store then shares it). */
    StoreSchema schema(Transaction transaction) {
        StoreSchema known = schema;
        if (known == null) {
            try {
                known = StoreSchema.read(transaction, backend, targetVersion);
            } catch (SQLException e) {
                throw new DataAccessException("reading the store's schema", e);
            }
            schema = known;
        }
        return known;
    }

    public Optional<Path> file() {
        return source.file();
    }

    /** What the store is, for messages: the file, or the server and schema (never a password). */
    public String describe() {
        return source.describe();
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * The store's jOOQ context with no connection, to render a statement's SQL ahead of the
     * transaction that runs it (so a write holds the database's lock only while executing).
     */
    public DSLContext renderer() {
        return renderer;
    }

    // ------------------------------------------------------------------ writes

    /**
     * Runs {@code work} in one write transaction (all or nothing), retried as a whole on BUSY/LOCKED.
     * Failures surface as typed exceptions; an unchecked exception thrown by the work itself (custom
     * application code) rolls back and propagates unchanged.
     */
    public <T> T write(String what, Work<T> work) {
        return write(what, backend.beginWrite(), work);
    }

    /**
     * Like {@link #write}, for work that only appends messages to one existing session (its counters,
     * then its rows): on an engine that allows it, appends of several processes run at the same time
     * ({@link Backend#beginAppend}); any other write still runs alone.
     */
    public <T> T append(String what, Work<T> work) {
        return write(what, backend.beginAppend(), work);
    }

    private <T> T write(String what, String begin, Work<T> work) {
        return withWriter(what, work, writer -> {
            writer.statements().execute(begin);
            T result;
            try {
                result = work.run(writer.transaction());
                writer.statements().execute("COMMIT");
            } catch (Exception | Error failure) {
                rollbackQuietly(writer.statements());
                throw failure;
            }
            committedUnit = writerUnits;
            if (++commitsSinceCheckpoint >= checkpointEvery) {
                commitsSinceCheckpoint = 0;
                checkpointQuietly(writer, false);
            }
            return result;
        });
    }

    /**
     * Moves the write-ahead log into the database file (PASSIVE: never waits for anyone);
     * {@code truncate} waits up to the busy timeout for readers and also empties the log file.
     * Does nothing on a read-only store.
     */
    public void checkpoint(boolean truncate) {
        if (readOnly) {
            return;
        }
        withWriter(truncate ? "checkpointing and truncating the write-ahead log" : "checkpointing the write-ahead log",
                writer -> {
                    backend.checkpoint(writer.jdbc(), truncate);
                    return truncate;
                });
    }

    /** Best-effort TRUNCATE checkpoint after a large write: the log may be in use by another process. */
    public void shrinkLog() {
        if (readOnly || closed) {
            return;
        }
        writeLock.lock();
        try {
            if (writer != null) {
                writerUnits++; // a use of the writer, as every other (see writerUnits)
                checkpointQuietly(writer, true);
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Merges the full-text indexes, checkpoints, VACUUMs and checkpoints again (the agent's order:
     * the merge frees pages the rebuild then gives back); reports the indexes merged and how many bytes
     * the database shrank by.
     */
    public VacuumReport vacuum() {
        return withWriter("vacuuming the database", writer -> {
            // VACUUM refuses to run while any statement of the connection is still stepping; a
            // lent connection may keep one open per prepared insert (sqlite-jdbc's generated keys).
            writer.statements().closeAll();
            backend.checkpoint(writer.jdbc(), true);
            long before = backend.databaseBytes(writer.jdbc());
            int optimized = backend.optimizeFullText(writer.jdbc());
            backend.checkpoint(writer.jdbc(), true);
            backend.vacuum(writer.jdbc());
            backend.checkpoint(writer.jdbc(), true);
            return new VacuumReport(optimized, Math.max(0, before - backend.databaseBytes(writer.jdbc())));
        });
    }

    /** The agent's {@code optimize_fts}: merges the full-text indexes; returns how many. */
    public int optimizeFullText() {
        return withWriter("merging the full-text indexes", writer -> backend.optimizeFullText(writer.jdbc()));
    }

    @FunctionalInterface
    private interface WriterWork<T> {
        T run(Writer writer) throws Exception;
    }

    /** Runs {@code work} on the writer connection under the write lock, retrying it as a whole on BUSY/LOCKED. */
    private <T> T withWriter(String what, WriterWork<T> work) {
        return withWriter(what, work, work);
    }

    /** {@code site}: the caller's own work (its class tells the observer which store method this is). */
    private <T> T withWriter(String what, Object site, WriterWork<T> work) {
        if (readOnly) {
            throw new StateIOException("The store was opened read-only: " + what + " needs a read-write store");
        }
        StoreObserver.Operation operation = observer.start(StoreObserver.Kind.WRITE, site);
        try {
            T result = writeAttempts(what, work, operation);
            operation.succeeded();
            return result;
        } catch (RuntimeException | Error failure) {
            operation.failed(failure);
            throw failure;
        }
    }

    private <T> T writeAttempts(String what, WriterWork<T> work, StoreObserver.Operation operation) {
        boolean timed = observer.timesLockWait();
        return retryPolicy.run(what, failures, operation::retried, () -> {
            long asked = timed ? System.nanoTime() : 0L;
            writeLock.lock();
            try {
                if (timed) {
                    operation.lockWaited(System.nanoTime() - asked);
                }
                ensureOpen();
                Writer current = writer();
                writerUnits++;
                try {
                    return work.run(current);
                } finally {
                    if (pooled) {
                        closeWriter(current);
                    }
                }
            } finally {
                writeLock.unlock();
            }
        });
    }

    /** The kept writer (opened by the first write), or for a pooled source a new one for this unit of work. */
    private Writer writer() throws SQLException {
        if (pooled) {
            return openWriter();
        }
        if (writer == null) {
            writer = openWriter();
        }
        return writer;
    }

    // ------------------------------------------------------------------ reads

    /** Runs {@code work} in one read transaction on a pooled read connection; retried on BUSY/LOCKED. */
    public <T> T read(String what, Work<T> work) {
        return read(what, work, retryPolicy);
    }

    /**
     * Like {@link #read} but never retried: for work that hands rows to a caller as it goes (an
     * export), where a retry would deliver some rows twice.
     */
    public <T> T readStreaming(String what, Work<T> work) {
        return read(what, work, tryOnce);
    }

    private <T> T read(String what, Work<T> work, RetryPolicy policy) {
        StoreObserver.Operation operation = observer.start(StoreObserver.Kind.READ, work);
        try {
            T result = policy.run(what, failures, operation::retried, () -> readAttempt(work));
            operation.succeeded();
            return result;
        } catch (RuntimeException | Error failure) {
            operation.failed(failure);
            throw failure;
        }
    }

    private <T> T readAttempt(Work<T> work) throws SQLException {
        ensureOpen();
        ReaderPool.Reader reader = readers.borrow();
        try {
            reader.statements().execute(backend.beginRead());
            try {
                return work.run(reader.transaction());
            } finally {
                rollbackQuietly(reader.statements()); // a read transaction has nothing to commit
            }
        } finally {
            readers.giveBack(reader);
        }
    }

    /**
     * A jOOQ context on the read pool for the application's own type-safe queries: each query
     * borrows a read connection (which cannot write) and failures arrive as typed exceptions.
     */
    public DSLContext readOnlyDsl() {
        DSLContext dsl = publicDsl;
        if (dsl == null) {
            ExecuteListener typedErrors = new ExecuteListener() {
                @Override
                public void exception(ExecuteContext context) {
                    if (context.exception() != null) {
                        context.exception(surface(context.exception(), "running a query"));
                    }
                }
            };
            dsl = DSL.using(configuration.derive(readers).derive(typedErrors));
            publicDsl = dsl;
        }
        return dsl;
    }

    // ------------------------------------------------------------------ closing

    /** A PASSIVE checkpoint (when this store wrote anything), then every connection is closed or given back. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (writer != null) {
                checkpointQuietly(writer, false);
                closeWriter(writer);
                writer = null;
            }
        } finally {
            writeLock.unlock();
        }
        readers.close();
        source.close();
        observer.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StateIOException("The store is closed");
        }
    }

    // ------------------------------------------------------------------ connections

    /** The writer connection with its transaction statements and its cache of prepared statements. */
    private record Writer(Connection jdbc, StatementCache statements, Transaction transaction) {
    }

    private Writer openWriter() throws SQLException {
        Connection connection = source.open(Backend.Role.WRITER);
        try {
            backend.configure(connection, Backend.Role.WRITER, source.ownsConnections());
            StatementCache statements = new StatementCache(connection);
            long number = ++writersOpened;
            return new Writer(connection, statements, transaction(connection, statements,
                    transaction -> stamp(number, transaction)));
        } catch (SQLException | RuntimeException failure) {
            closeQuietly(connection);
            throw failure;
        }
    }

    private Transaction transaction(Connection connection, StatementCache statements, ConnectionTransaction.Stamps stamps) {
        return new ConnectionTransaction(DSL.using(configuration.derive(connection)), statements, this::schema, stamps);
    }

    /**
     * The stamp of the unit of work now running on writer {@code writerNumber} (called inside it, so under
     * writeLock); none where the engine cannot tell other connections' commits.
     */
    private Optional<WriteStamp> stamp(long writerNumber, Transaction transaction) throws SQLException {
        OptionalLong others = backend.otherConnectionsVersion(transaction);
        if (others.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new WriteStamp(writerNumber, writerUnits, committedUnit == writerUnits - 1, others.getAsLong()));
    }

    private void closeWriter(Writer writer) {
        writer.statements().closeAll();
        giveBack(writer.jdbc(), Backend.Role.WRITER);
    }

    private ReaderPool.Reader openReader() throws SQLException {
        Backend.Role role = readOnly ? Backend.Role.READ_ONLY : Backend.Role.READER;
        Connection connection = source.open(role);
        try {
            backend.configure(connection, role, source.ownsConnections());
            StatementCache statements = new StatementCache(connection);
            return new ReaderPool.Reader(connection, statements, transaction(connection, statements,
                    ConnectionTransaction.Stamps.NONE));
        } catch (SQLException | RuntimeException failure) {
            closeQuietly(connection);
            throw failure;
        }
    }

    private void closeReader(ReaderPool.Reader reader) {
        reader.statements().closeAll();
        giveBack(reader.jdbc(), readOnly ? Backend.Role.READ_ONLY : Backend.Role.READER);
    }

    /** Closes our own connection; a lent one is first restored, and closing returns it to its pool. */
    private void giveBack(Connection connection, Backend.Role role) {
        if (!source.ownsConnections()) {
            try {
                backend.release(connection, role);
            } catch (SQLException ignored) {
                // the application's pool validates connections it gets back
            }
        }
        closeQuietly(connection);
    }

    // ------------------------------------------------------------------ failures

    /**
     * The exception a caller sees: typed for anything the database raised; an unchecked exception
     * of the caller's own work (a custom transaction) unchanged.
     */
    private RuntimeException surface(Throwable failure, String what) {
        if (failure instanceof HermesStateException typed) {
            return typed;
        }
        if (failure instanceof RuntimeException unchecked && !(failure instanceof DataAccessException)
                && !hasSqlCause(failure)) {
            return unchecked;
        }
        return backend.translate(failure, what);
    }

    private static boolean hasSqlCause(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    private void checkpointQuietly(Writer writer, boolean truncate) {
        try {
            backend.checkpoint(writer.jdbc(), truncate);
        } catch (SQLException ignored) {
            // a checkpoint is housekeeping: another process may be checkpointing or reading; the next one catches up
        }
    }

    private static void rollbackQuietly(StatementCache statements) {
        try {
            statements.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction left to roll back: SQLite already ended it
        }
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing is best effort; nothing useful to report
        }
    }
}
