package dev.hermes.state.migrations;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresLocation;

import java.nio.file.Path;
import java.sql.Connection;

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
        return sqlite().run(checkPath(file), Mode.MIGRATE);
    }

    /**
     * What {@link #migrate(Path)} would do, computed inside a transaction that is rolled back (on an
     * in-memory database when the file does not exist): nothing is written or created.
     */
    public MigrationResult dryRun(Path file) {
        return sqlite().run(checkPath(file), Mode.DRY_RUN);
    }

    /**
     * Runs Liquibase on the file even when the fast path would skip it, and rolls back. For tests
     * that check Liquibase agrees with the fast path, and for measuring what the fast path saves.
     */
    MigrationResult checkWithLiquibase(Path file) {
        return sqlite().run(checkPath(file), Mode.LIQUIBASE_CHECK);
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
        if (StoreEngine.of(connection) == StoreEngine.POSTGRESQL) {
            return migrate(connection, PostgresLocation.DEFAULT_SCHEMA);
        }
        return sqlite().migrate(connection);
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
        PostgresSupport.requireForMigration();
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
        PostgresSupport.requireForMigration();
        return PostgresMigration.checkReadable(connection, schema, "schema " + schema);
    }

    /**
     * Checks, without writing, that a file can be read as a version-6 store: it is a Hermes database
     * and has every version-6 column (a newer file qualifies). Returns the version it claims.
     */
    public int checkReadable(Path file) {
        return sqlite().checkReadable(checkPath(file));
    }

    /**
     * The file's migration state against this migrator's target version (the status's
     * {@code latestVersion}) and how many sessions and messages it holds, read without writing.
     */
    public SchemaStatus status(Path file) {
        return sqlite().status(checkPath(file));
    }

    /** The SQLite file procedure, at this migrator's policy and target. */
    private SqliteMigration sqlite() {
        return new SqliteMigration(retryPolicy, version);
    }

    private static PostgresLocation checkLocation(PostgresLocation database) {
        if (database == null) {
            throw new InvalidArgumentException("database must not be null");
        }
        return database;
    }

    private static Path checkPath(Path file) {
        if (file == null) {
            throw new InvalidArgumentException("file must not be null");
        }
        return file;
    }

}
