package dev.hermes.state.migrations;

import org.jspecify.annotations.Nullable;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a state.db to the newest schema version this library knows (or keeps it at version 6, for
 * teams still running an agent of that time: {@link #toVersion}), adopting files the Python agent
 * created at any version and refusing files newer than the target.
 *
 * <p>Every run first inspects the file on a read-only connection. A file that is already up to date
 * is recognised there (the fast path: no write, no Liquibase, about a millisecond). Otherwise the
 * whole Liquibase update runs inside one {@code BEGIN IMMEDIATE} transaction: concurrent migrators
 * queue on SQLite's write lock, a failure or a killed process leaves the file as it was, and a
 * dry run is the same update rolled back. A new file is built beside its final name and appears
 * under that name only once complete.
 */
public final class Migrator {
    /** The newest schema version this library knows (the Python agent's {@code SCHEMA_VERSION}). */
    public static final int LATEST_VERSION = Changelog.latestVersion();
    /** The older version a store can be kept at ({@link #toVersion}): what an agent of April 2026 writes. */
    public static final int KEPT_VERSION = Changelog.KEPT_VERSION;
    /** The version {@link #create()} brings stores to; {@link #toVersion} chooses the other. */
    public static final int DEFAULT_VERSION = LATEST_VERSION;

    private final RetryPolicy retryPolicy;
    private final int version;

    /** How a run ends: which of them may take the fast path and which keep what Liquibase did. */
    enum Mode {
        MIGRATE(true, true),
        DRY_RUN(false, true),
        /** Liquibase's own verdict even on an up-to-date file, rolled back: for tests and measurements. */
        LIQUIBASE_CHECK(false, false);

        final boolean commits;
        final boolean mayTakeFastPath;

        Mode(boolean commits, boolean mayTakeFastPath) {
            this.commits = commits;
            this.mayTakeFastPath = mayTakeFastPath;
        }
    }

    private Migrator(RetryPolicy retryPolicy, int version) {
        if (retryPolicy == null) {
            throw new InvalidArgumentException("retryPolicy must not be null");
        }
        this.retryPolicy = retryPolicy;
        this.version = checkTarget(version);
    }

    /** A migrator to {@link #DEFAULT_VERSION} with Hermes' retry policy (1 s busy timeout, 15 attempts). */
    public static Migrator create() {
        return new Migrator(RetryPolicy.HERMES, DEFAULT_VERSION);
    }

    public static Migrator withRetryPolicy(RetryPolicy retryPolicy) {
        return new Migrator(retryPolicy, DEFAULT_VERSION);
    }

    /**
     * The same migrator bringing stores to {@code version}: {@link #LATEST_VERSION}, or
     * {@link #KEPT_VERSION} to keep a store readable and writable by an agent of that time (a file
     * already past it is then refused with {@link SchemaTooNewException}, as any file newer than the target).
     *
     * @throws InvalidArgumentException for any other version
     */
    public Migrator toVersion(int version) {
        return new Migrator(retryPolicy, version);
    }

    /** The version this migrator brings stores to. */
    public int targetVersion() {
        return version;
    }

    /** {@code version} when a store can be brought to it, else an {@link InvalidArgumentException} naming the choices. */
    public static int checkTarget(int version) {
        if (version != LATEST_VERSION && version != KEPT_VERSION) {
            throw new InvalidArgumentException("schema version " + version + " cannot be chosen: a store is brought to "
                    + LATEST_VERSION + " (today's agent) or kept at " + KEPT_VERSION + " (an agent of April 2026)");
        }
        return version;
    }

    /**
     * Migrates the file, or creates it (owner-only, parent folders too) when it does not exist; a
     * no-op without Liquibase when it is up to date.
     *
     * @throws SchemaTooNewException       the file is newer than {@link #LATEST_VERSION}; it is left unchanged
     * @throws NotAHermesDatabaseException not SQLite, empty, truncated, or another application's database
     * @throws StateIOException            the file or its folder is read-only, or cannot be read or created
     * @throws dev.hermes.state.BusyException the file stayed locked through every retry of the policy
     */
    public MigrationResult migrate(Path file) {
        return run(checkPath(file), Mode.MIGRATE);
    }

    /**
     * What {@link #migrate(Path)} would do, computed inside a transaction that is rolled back (on an
     * in-memory database when the file does not exist): nothing is written or created.
     */
    public MigrationResult dryRun(Path file) {
        return run(checkPath(file), Mode.DRY_RUN);
    }

    /**
     * Runs Liquibase on the file even when the fast path would skip it, and rolls back. For tests
     * that check Liquibase agrees with the fast path, and for measuring what the fast path saves.
     */
    MigrationResult checkWithLiquibase(Path file) {
        return run(checkPath(file), Mode.LIQUIBASE_CHECK);
    }

    /**
     * Migrates the database behind an application-owned connection (for stores built on a
     * {@code DataSource}). The connection's auto-commit setting is restored afterwards; a transaction
     * the caller left open on it is committed first.
     */
    public MigrationResult migrate(Connection connection) {
        if (connection == null) {
            throw new InvalidArgumentException("connection must not be null");
        }
        if (isPostgresql(connection)) {
            return migrate(connection, PostgresLocation.DEFAULT_SCHEMA);
        }
        String what = "migrating the database";
        try {
            boolean autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                connection.setAutoCommit(true);
            }
            try {
                FileInspection inspection = retryPolicy.run(what, SqliteErrors.FAILURES, () -> FileInspection.of(connection));
                validate(inspection, "the database");
                if (inspection.isUpToDate(version)) {
                    return upToDate(inspection, false, Mode.MIGRATE);
                }
                return migrateAndEnableWal(connection, "the database", false, Mode.MIGRATE, what);
            } finally {
                if (!autoCommit) {
                    connection.setAutoCommit(false);
                }
            }
        } catch (SQLException e) {
            throw SqliteErrors.FAILURES.translate(e, what);
        }
    }

    /**
     * Migrates the store in a PostgreSQL schema ({@link PostgresLocation#schema()}, {@code hermes} unless
     * named), creating the schema and its tables when they do not exist; a no-op without a lock, a write
     * or Liquibase when it is up to date. One transaction: all or nothing, and concurrent migrators of the
     * database queue on an advisory lock. Messages name the location without its password.
     *
     * @throws SchemaTooNewException       the store is newer than the {@linkplain #targetVersion() target}; it is
     *                                     left unchanged
     * @throws NotAHermesDatabaseException the schema holds another application's tables
     * @throws StateIOException            the server cannot be reached, refuses the login, or the role lacks a
     *                                     privilege (e.g. to create the pg_trgm extension the search index needs)
     * @throws dev.hermes.state.BusyException another migration held the lock for more than a minute
     */
    public MigrationResult migrate(PostgresLocation database) {
        return PostgresMigration.migrate(checkLocation(database), version, Mode.MIGRATE);
    }

    /** What {@link #migrate(PostgresLocation)} would do, computed in a transaction that is rolled back. */
    public MigrationResult dryRun(PostgresLocation database) {
        return PostgresMigration.migrate(checkLocation(database), version, Mode.DRY_RUN);
    }

    /** {@link #migrate(Path)} or {@link #migrate(PostgresLocation)}, whichever {@code location} is. */
    public MigrationResult migrate(StoreLocation location) {
        return location.isServer() ? migrate(location.server()) : migrate(location.file());
    }

    /** {@link #dryRun(Path)} or {@link #dryRun(PostgresLocation)}, whichever {@code location} is. */
    public MigrationResult dryRun(StoreLocation location) {
        return location.isServer() ? dryRun(location.server()) : dryRun(location.file());
    }

    /** Liquibase's own verdict on a PostgreSQL store even when it is up to date, rolled back (for tests). */
    MigrationResult checkWithLiquibase(PostgresLocation database) {
        return PostgresMigration.migrate(checkLocation(database), version, Mode.LIQUIBASE_CHECK);
    }

    /**
     * Migrates the store in {@code schema} of the PostgreSQL database behind an application-owned
     * connection. A transaction the caller left open on it is committed first; its auto-commit setting
     * and search path are as before afterwards.
     */
    public MigrationResult migrate(Connection connection, String schema) {
        if (connection == null) {
            throw new InvalidArgumentException("connection must not be null");
        }
        return PostgresMigration.migrate(connection, schema, "schema " + schema, version, Mode.MIGRATE);
    }

    /**
     * Checks, without writing, that the store in a PostgreSQL schema can be read as a version-6 store
     * (a newer one qualifies); returns the version it claims. Never creates the schema.
     *
     * @throws StateIOException            the schema does not exist or lacks version-6 objects, or the server
     *                                     cannot be reached
     * @throws NotAHermesDatabaseException the schema holds no Hermes store
     */
    public int checkReadable(PostgresLocation database) {
        return PostgresMigration.checkReadable(checkLocation(database));
    }

    /** {@link #checkReadable(PostgresLocation)} for {@code schema} on an application-owned connection. */
    public int checkReadable(Connection connection, String schema) {
        if (connection == null) {
            throw new InvalidArgumentException("connection must not be null");
        }
        return PostgresMigration.checkReadable(connection, schema, "schema " + schema);
    }

    /**
     * Checks, without writing, that a file can be read as a version-6 store: it is a Hermes database
     * and has every version-6 column (a newer file qualifies). Returns the version it claims.
     */
    public int checkReadable(Path file) {
        SqliteFile.checkReadable(checkPath(file));
        FileInspection inspection = inspectReadOnly(file);
        if (!inspection.isHermes() || inspection.isBlank()) {
            throw notHermes(inspection, file.toString());
        }
        if (!inspection.hasV6Columns()) {
            throw new StateIOException(file + " is at schema version " + inspection.schemaVersion()
                    + " and lacks version-" + KEPT_VERSION + " columns; open it read-write once to migrate it");
        }
        return inspection.schemaVersion();
    }

    /**
     * The file's migration state against this migrator's target version (the status's
     * {@code latestVersion}) and how many sessions and messages it holds, read without writing.
     */
    public SchemaStatus status(Path file) {
        SqliteFile.checkReadable(checkPath(file));
        record Contents(FileInspection inspection, long sessions, long messages) {
        }
        Contents contents = readOnly(file, connection -> {
            FileInspection inspection = FileInspection.of(connection);
            return new Contents(inspection, inspection.rowCount(connection, "sessions"),
                    inspection.rowCount(connection, "messages"));
        });
        FileInspection inspection = contents.inspection();
        if (!inspection.isHermes()) {
            throw notHermes(inspection, file.toString());
        }
        List<SchemaStatus.ChangeSetState> states = new ArrayList<>();
        List<Changelog.ChangeSetRef> forgotten = inspection.recordedAboveVersion(Changelog.changeSets(version));
        for (Changelog.ChangeSetRef changeSet : Changelog.changeSets(version)) {
            // a record the migration will forget (the number was lowered) is pending, as the migration sees it
            String recorded = forgotten.contains(changeSet) ? null : inspection.recordedChangeSets()
                    .get(FileInspection.key(changeSet.author(), changeSet.id(), changeSet.logicalFile()));
            SchemaStatus.State state = recorded == null ? SchemaStatus.State.PENDING
                    : "MARK_RAN".equals(recorded) ? SchemaStatus.State.MARK_RAN : SchemaStatus.State.EXECUTED;
            states.add(new SchemaStatus.ChangeSetState(changeSet.id(), changeSet.version(), state));
        }
        return new SchemaStatus(file, inspection.schemaVersion(), version, states, inspection.journalMode(),
                size(file), size(Path.of(file.toAbsolutePath() + "-wal")), contents.sessions(), contents.messages());
    }

    private MigrationResult run(Path file, Mode mode) {
        String what = (mode.commits ? "migrating " : "checking a migration of ") + file;
        if (!mode.commits && !Files.exists(file)) {
            return dryRunOnNewDatabase(what, mode);
        }
        if (!SqliteFile.prepareForWriting(file)) {
            MigrationResult created = createNew(file, what);
            if (created != null) {
                return created;
            }
            // another migrator published the file first: treat it like any existing file
        }
        rollBackInterruptedTransaction(file, what);
        FileInspection inspection = inspectReadOnly(file);
        validate(inspection, file.toString());
        if (mode.mayTakeFastPath && inspection.isUpToDate(version)) {
            return upToDate(inspection, false, mode);
        }
        try (Connection connection = SqliteFile.open(file, retryPolicy, false)) {
            return migrateAndEnableWal(connection, file.toString(), false, mode, what);
        } catch (SQLException e) {
            throw SqliteErrors.FAILURES.translate(e, what);
        }
    }

    /**
     * Builds a new store beside {@code file} and publishes it under its name. Returns null when
     * another process published one first (its file is then migrated like any existing file).
     */
    private @Nullable MigrationResult createNew(Path file, String what) {
        Path building = SqliteFile.createTemporarySibling(file);
        try {
            MigrationResult result;
            // closing the only connection folds the WAL into the file: the published file is complete on its own
            try (Connection connection = SqliteFile.open(building, retryPolicy, false)) {
                result = migrateAndEnableWal(connection, file.toString(), true, Mode.MIGRATE, what);
            } catch (SQLException e) {
                throw SqliteErrors.FAILURES.translate(e, what);
            }
            if (size(Path.of(building + "-wal")) > 0) {
                throw new StateIOException("Could not complete the new database " + file + " (its write-ahead log was not"
                        + " checkpointed); nothing was created");
            }
            return SqliteFile.publish(building, file) ? result : null;
        } finally {
            SqliteFile.deleteWithCompanions(building);
        }
    }

    private MigrationResult dryRunOnNewDatabase(String what, Mode mode) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            return migrateInTransaction(connection, "a new database", true, mode);
        } catch (Exception e) {
            throw SqliteErrors.FAILURES.translate(e, what);
        }
    }

    /**
     * A writer in rollback-journal mode (the agent's files are in that mode until something switches
     * them to WAL) that died mid-transaction leaves a hot {@code -journal}: the next read-write
     * connection rolls it back to the last committed state, as the agent's own next start would,
     * but a read-only connection cannot and fails. The inspection is read-only, so a read-write
     * connection reads the schema first and thereby does that recovery.
     */
    private void rollBackInterruptedTransaction(Path file, String what) {
        if (!SqliteFile.hasRollbackJournal(file)) {
            return;
        }
        SqliteFile.refuseForeignHeader(file);
        retryPolicy.run(what, SqliteErrors.FAILURES, () -> {
            try (Connection connection = SqliteFile.open(file, retryPolicy, false);
                 Statement statement = connection.createStatement()) {
                statement.executeQuery("SELECT count(*) FROM sqlite_master").close();
                return Boolean.TRUE;
            } catch (SQLException failure) {
                throw SqliteFile.refusal(file, failure);
            }
        });
    }

    /** Reads the file's contents on a read-only connection ({@link #readOnly}). */
    private FileInspection inspectReadOnly(Path file) {
        return readOnly(file, FileInspection::of);
    }

    /** What one read-only inspection reads from the connection, once the file is accepted. */
    @FunctionalInterface
    private interface Reading<T> {
        T read(Connection connection) throws SQLException;
    }

    /**
     * Reads the file on a read-only connection. SQLite's first read is the header check: a file it
     * will not read (not SQLite, corrupt, cut short) is refused here, as is a size that is not whole
     * pages, and a log no index vouches for is verified first.
     */
    private <T> T readOnly(Path file, Reading<T> reading) {
        String what = "inspecting " + file;
        boolean verifyWal = SqliteFile.hasUnindexedWal(file);
        boolean shmExisted = Files.exists(Path.of(file.toAbsolutePath() + "-shm"));
        return retryPolicy.run(what, SqliteErrors.FAILURES, () -> {
            try {
                return readOnce(file, verifyWal, reading);
            } catch (NotAHermesDatabaseException refused) {
                if (!shmExisted) {
                    // the index this inspection built now vouches for the foreign log: leave no trace
                    SqliteFile.deleteIndex(file);
                }
                throw refused;
            }
        });
    }

    private <T> T readOnce(Path file, boolean verifyWal, Reading<T> reading) throws Exception {
        try (Connection connection = SqliteFile.open(file, retryPolicy, true)) {
            if (verifyWal) {
                checkWalBelongsToFile(connection, file);
            }
            SqliteFile.checkAccepted(connection, file);
            return reading.read(connection);
        } catch (SQLException failure) {
            if (SqliteErrors.primaryCode(failure) == SqliteErrors.SQLITE_READONLY && SqliteFile.hasRollbackJournal(file)) {
                throw new StateIOException(file + " holds a transaction that a writer left unfinished when it stopped ("
                        + file.getFileName() + "-journal); it can only be read after a read-write open rolls it back"
                        + " (hermes-state migrate, or the agent's next start). Nothing was written.", failure);
            }
            throw SqliteFile.refusal(file, failure);
        }
    }

    /**
     * A log no index vouches for (copied from elsewhere, or left behind without its -shm) is replayed
     * by the read-only connection; if the result is not a consistent database (b-trees, indexes
     * against their tables, foreign keys), the log is not this file's, and no connection may ever fold
     * it in. The checks read the whole file, which is why they only run in that rare case.
     */
    private static void checkWalBelongsToFile(Connection connection, Path file) throws SQLException {
        String problem = firstRow(connection, "PRAGMA integrity_check(5)", "ok");
        if (problem == null) {
            problem = firstRow(connection, "PRAGMA foreign_key_check", null);
        }
        if (problem != null) {
            throw new NotAHermesDatabaseException(file + " is damaged, or its -wal file belongs to another database ("
                    + problem + "); nothing was written. If the -wal was copied from elsewhere, move it aside.");
        }
    }

    /** The first row of a check that returns {@code fine} (or no row) when all is well; null when all is. */
    private static @Nullable String firstRow(Connection connection, String check, @Nullable String fine) throws SQLException {
        try (Statement statement = connection.createStatement();
             java.sql.ResultSet rows = statement.executeQuery(check)) {
            if (!rows.next()) {
                return null;
            }
            String first = rows.getString(1);
            return first != null && first.equals(fine) && !rows.next() ? null : check + ": " + first;
        } catch (SQLException e) {
            if (SqliteErrors.FAILURES.isRetryable(e)) {
                throw e;
            }
            return check + ": " + e.getMessage();
        }
    }

    /**
     * The migration transaction, retried as a whole while the file is busy, then the switch to WAL.
     * The switch comes after the commit because it writes the file header at once, outside any
     * transaction: a migration that fails must leave the file byte-for-byte as it was.
     */
    private MigrationResult migrateAndEnableWal(Connection connection, String name, boolean created, Mode mode,
                                                String what) {
        MigrationResult result = retryPolicy.run(what, SqliteErrors.FAILURES, () -> migrateInTransaction(connection, name, created, mode));
        if (mode.commits) {
            retryPolicy.run(what, SqliteErrors.FAILURES, () -> execute(connection, "PRAGMA journal_mode=WAL"));
        }
        return result;
    }

    /** One attempt of the whole migration, in one transaction. */
    private MigrationResult migrateInTransaction(Connection connection, String name, boolean created, Mode mode)
            throws Exception {
        execute(connection, "BEGIN IMMEDIATE");
        try {
            // Re-inspect under the write lock: another process may have migrated meanwhile.
            FileInspection inspection = FileInspection.of(connection);
            validate(inspection, name);
            if (mode.mayTakeFastPath && inspection.isSchemaUpToDate(version)) {
                execute(connection, "ROLLBACK");
                return upToDate(inspection, created, mode);
            }
            List<String> foreign = inspection.missingOriginalColumns();
            if (!foreign.isEmpty()) {
                throw new NotAHermesDatabaseException(name + " could not be brought to schema version " + version
                        + ": its tables differ from Hermes' (missing " + foreign + "); it was left unchanged");
            }
            if (inspection.liquibaseLockHeld()) {
                // Every hermes-state update runs in one transaction, so a committed lock row was left
                // by a run outside it that was killed; we hold the write lock, so nobody is migrating.
                execute(connection, "UPDATE " + FileInspection.LOCK_TABLE
                        + " SET LOCKED = 0, LOCKGRANTED = NULL, LOCKEDBY = NULL");
            }
            if (inspection.ownTablesLost()) {
                execute(connection, "DELETE FROM " + FileInspection.CHANGELOG_TABLE + " WHERE AUTHOR = '"
                        + FileInspection.OWN_AUTHOR + "'");
            }
            forgetRecords(connection, inspection.recordedAboveVersion(Changelog.changeSets(version)));
            List<MigrationResult.AppliedChange> changes = LiquibaseUpdate.run(connection, version);
            FileInspection migrated = FileInspection.of(connection);
            List<String> missing = migrated.missingObjects(version);
            if (!missing.isEmpty() || migrated.schemaVersion() != version) {
                throw new NotAHermesDatabaseException(name + " could not be brought to schema version " + version
                        + ": its tables differ from Hermes' (missing " + missing + "); it was left unchanged");
            }
            execute(connection, mode.commits ? "COMMIT" : "ROLLBACK");
            int toVersion = mode.commits ? migrated.schemaVersion() : inspection.schemaVersion();
            return new MigrationResult(inspection.schemaVersion(), toVersion, created, false, !mode.commits, changes);
        } catch (Exception | Error failure) {
            rollbackQuietly(connection);
            throw failure;
        }
    }

    /** Deletes the changelog records of {@code changeSets}, so that Liquibase runs them again. */
    private static void forgetRecords(Connection connection, List<Changelog.ChangeSetRef> changeSets) throws SQLException {
        if (changeSets.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + FileInspection.CHANGELOG_TABLE
                + " WHERE AUTHOR = ? AND ID = ? AND FILENAME = ?")) {
            for (Changelog.ChangeSetRef changeSet : changeSets) {
                delete.setString(1, changeSet.author());
                delete.setString(2, changeSet.id());
                delete.setString(3, changeSet.logicalFile());
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    private static MigrationResult upToDate(FileInspection inspection, boolean created, Mode mode) {
        return new MigrationResult(inspection.schemaVersion(), inspection.schemaVersion(), created, true,
                !mode.commits, List.of());
    }

    private void validate(FileInspection inspection, String name) {
        if (!inspection.isHermes()) {
            throw notHermes(inspection, name);
        }
        if (inspection.schemaVersion() > version) {
            throw new SchemaTooNewException(inspection.schemaVersion(), version, version == LATEST_VERSION);
        }
    }

    private static HermesStateException notHermes(FileInspection inspection, String name) {
        return new NotAHermesDatabaseException(name + " is a SQLite database but not a Hermes session store"
                + (inspection.isBlank() ? " (it is empty)" : " (it has the tables " + inspection.userTables()
                + " but no Hermes sessions table)") + "; it was left unchanged");
    }

    private static PostgresLocation checkLocation(PostgresLocation database) {
        if (database == null) {
            throw new InvalidArgumentException("database must not be null");
        }
        return database;
    }

    private static boolean isPostgresql(Connection connection) {
        try {
            return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw PostgresErrors.translate(e, "reading the connection's database product");
        }
    }

    private static Path checkPath(Path file) {
        if (file == null) {
            throw new InvalidArgumentException("file must not be null");
        }
        return file;
    }

    private static boolean execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return statement.execute(sql);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            execute(connection, "ROLLBACK");
        } catch (SQLException alreadyEnded) {
            // no transaction left to roll back (SQLite ends it itself on some errors)
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
