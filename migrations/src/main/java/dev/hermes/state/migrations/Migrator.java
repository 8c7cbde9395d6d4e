package dev.hermes.state.migrations;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.sqlite.RetryPolicy;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteFile;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.UpdateSummaryEnum;
import liquibase.change.Change;
import liquibase.change.core.RawSQLChange;
import liquibase.changelog.ChangeLogHistoryServiceFactory;
import liquibase.changelog.ChangeSet;
import liquibase.changelog.DatabaseChangeLog;
import liquibase.changelog.visitor.AbstractChangeExecListener;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockServiceFactory;
import liquibase.logging.core.NoOpLogService;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * Brings a state.db to the newest schema version this library knows, adopting files the Python
 * agent created at any version and refusing files newer than it knows.
 *
 * <p>Every run first inspects the file on a read-only connection. A file that is already up to date
 * is recognised there (the fast path: no write, no Liquibase, about a millisecond). Otherwise the
 * whole Liquibase update runs inside one {@code BEGIN IMMEDIATE} transaction: concurrent migrators
 * queue on SQLite's write lock, a failure or a killed process leaves the file as it was, and a
 * dry run is the same update rolled back.
 */
public final class Migrator {
    /** The newest schema version this library knows (the Python agent's {@code SCHEMA_VERSION}). */
    public static final int LATEST_VERSION = Changelog.latestVersion();

    /** Liquibase keeps JVM-wide singletons (lock and history services): one update at a time. */
    private static final ReentrantLock LIQUIBASE = new ReentrantLock();

    private final RetryPolicy retryPolicy;

    private Migrator(RetryPolicy retryPolicy) {
        if (retryPolicy == null) {
            throw new dev.hermes.state.InvalidArgumentException("retryPolicy must not be null");
        }
        this.retryPolicy = retryPolicy;
    }

    /** A migrator with Hermes' retry policy (1 s busy timeout, 15 attempts). */
    public static Migrator create() {
        return new Migrator(RetryPolicy.HERMES);
    }

    public static Migrator withRetryPolicy(RetryPolicy retryPolicy) {
        return new Migrator(retryPolicy);
    }

    /** Migrates (or creates, owner-only) the file; a no-op without Liquibase when it is up to date. */
    public MigrationResult migrate(Path file) {
        return run(file, false);
    }

    /** What {@link #migrate(Path)} would do, computed inside a transaction that is rolled back. */
    public MigrationResult dryRun(Path file) {
        return run(file, true);
    }

    /**
     * Migrates the database behind an application-owned connection (for stores built on a
     * {@code DataSource}). The connection's auto-commit setting is restored afterwards.
     */
    public MigrationResult migrate(Connection connection) {
        String what = "migrating the database";
        try {
            boolean autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                connection.setAutoCommit(true);
            }
            try {
                FileInspection inspection = retryPolicy.run(what, () -> FileInspection.of(connection));
                validate(inspection, "the database");
                if (inspection.isUpToDate(Changelog.changeSets(), LATEST_VERSION)) {
                    return new MigrationResult(inspection.schemaVersion(), inspection.schemaVersion(), false, true, false, List.of());
                }
                enableWal(connection);
                return retryPolicy.run(what, () -> migrateInTransaction(connection, "the database", false, false));
            } finally {
                if (!autoCommit) {
                    connection.setAutoCommit(false);
                }
            }
        } catch (SQLException e) {
            throw SqliteErrors.translate(e, what);
        }
    }

    /**
     * Checks, without writing, that a file can be read as a version-6 store: it is a Hermes database
     * and has every version-6 column (a newer file qualifies). Returns the version it claims.
     */
    public int checkReadable(Path file) {
        SqliteFile.checkReadable(file);
        FileInspection inspection = inspectReadOnly(file);
        if (!inspection.isHermes() || inspection.isBlank()) {
            throw notHermes(inspection, file.toString());
        }
        if (!inspection.hasV6Columns()) {
            throw new StateIOException(file + " is at schema version " + inspection.schemaVersion()
                    + " and lacks version-" + LATEST_VERSION + " columns; open it read-write once to migrate it");
        }
        return inspection.schemaVersion();
    }

    /** The file's migration state, read without writing. */
    public SchemaStatus status(Path file) {
        SqliteFile.checkReadable(file);
        FileInspection inspection = inspectReadOnly(file);
        if (!inspection.isHermes()) {
            throw notHermes(inspection, file.toString());
        }
        List<SchemaStatus.ChangeSetState> states = new ArrayList<>();
        for (Changelog.ChangeSetRef changeSet : Changelog.changeSets()) {
            String recorded = inspection.recordedChangeSets()
                    .get(FileInspection.key(changeSet.author(), changeSet.id(), changeSet.logicalFile()));
            SchemaStatus.State state = recorded == null ? SchemaStatus.State.PENDING
                    : "MARK_RAN".equals(recorded) ? SchemaStatus.State.MARK_RAN : SchemaStatus.State.EXECUTED;
            states.add(new SchemaStatus.ChangeSetState(changeSet.id(), changeSet.version(), state));
        }
        return new SchemaStatus(file, inspection.schemaVersion(), LATEST_VERSION, states, inspection.journalMode(),
                size(file), size(Path.of(file.toAbsolutePath() + "-wal")));
    }

    private MigrationResult run(Path file, boolean dryRun) {
        String what = (dryRun ? "checking a migration of " : "migrating ") + file;
        if (dryRun && !Files.exists(file)) {
            return dryRunOnNewDatabase(what);
        }
        boolean created = SqliteFile.prepareForWriting(file);
        if (!created) {
            FileInspection inspection = inspectReadOnly(file);
            validate(inspection, file.toString());
            if (inspection.isUpToDate(Changelog.changeSets(), LATEST_VERSION)) {
                return new MigrationResult(inspection.schemaVersion(), inspection.schemaVersion(), false, true, dryRun, List.of());
            }
        }
        try (Connection connection = SqliteFile.open(file, retryPolicy, false)) {
            if (!dryRun) {
                enableWal(connection);
            }
            return retryPolicy.run(what, () -> migrateInTransaction(connection, file.toString(), created, dryRun));
        } catch (SQLException e) {
            throw SqliteErrors.translate(e, what);
        }
    }

    private MigrationResult dryRunOnNewDatabase(String what) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            return migrateInTransaction(connection, "a new database", true, true);
        } catch (Exception e) {
            throw SqliteErrors.translate(e, what);
        }
    }

    private FileInspection inspectReadOnly(Path file) {
        String what = "inspecting " + file;
        return retryPolicy.run(what, () -> {
            try (Connection connection = SqliteFile.open(file, retryPolicy, true)) {
                return FileInspection.of(connection);
            }
        });
    }

    private MigrationResult migrateInTransaction(Connection connection, String name, boolean created, boolean dryRun)
            throws Exception {
        execute(connection, "BEGIN IMMEDIATE");
        try {
            // Re-inspect under the write lock: another process may have migrated meanwhile.
            FileInspection inspection = FileInspection.of(connection);
            validate(inspection, name);
            if (inspection.isUpToDate(Changelog.changeSets(), LATEST_VERSION)) {
                execute(connection, "ROLLBACK");
                return new MigrationResult(inspection.schemaVersion(), inspection.schemaVersion(), created, true, dryRun, List.of());
            }
            if (inspection.liquibaseLockHeld()) {
                // Every hermes-state update runs in one transaction, so a committed lock row was left
                // by a run outside it that was killed; we hold the write lock, so nobody is migrating.
                execute(connection, "UPDATE " + FileInspection.LOCK_TABLE
                        + " SET LOCKED = 0, LOCKGRANTED = NULL, LOCKEDBY = NULL");
            }
            List<MigrationResult.AppliedChange> changes = runLiquibase(connection);
            int toVersion = dryRun ? inspection.schemaVersion() : FileInspection.of(connection).schemaVersion();
            execute(connection, dryRun ? "ROLLBACK" : "COMMIT");
            return new MigrationResult(inspection.schemaVersion(), toVersion, created, false, dryRun, changes);
        } catch (Exception | Error failure) {
            rollbackQuietly(connection);
            throw failure;
        }
    }

    private static List<MigrationResult.AppliedChange> runLiquibase(Connection connection) throws Exception {
        Map<String, Integer> versions = new HashMap<>();
        for (Changelog.ChangeSetRef changeSet : Changelog.changeSets()) {
            versions.put(changeSet.id(), changeSet.version());
        }
        List<MigrationResult.AppliedChange> changes = new ArrayList<>();
        AbstractChangeExecListener recorder = new AbstractChangeExecListener() {
            @Override
            public void ran(ChangeSet changeSet, DatabaseChangeLog changeLog, Database database, ChangeSet.ExecType execType) {
                String sql = changeSet.getChanges().stream()
                        .filter(RawSQLChange.class::isInstance)
                        .map(change -> ((RawSQLChange) change).getSql().strip())
                        .collect(Collectors.joining(";\n"));
                changes.add(new MigrationResult.AppliedChange(changeSet.getId(),
                        versions.getOrDefault(changeSet.getId(), 0), execType == ChangeSet.ExecType.EXECUTED, sql));
            }
        };
        Map<String, Object> quiet = Map.of(
                Scope.Attr.ui.name(), new LoggerUIService(),
                Scope.Attr.logService.name(), new NoOpLogService(),
                "liquibase.analytics.enabled", false);
        LIQUIBASE.lock();
        try {
            Scope.child(quiet, () -> {
                Database database = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(InTransactionConnection.wrap(connection)));
                try {
                    Liquibase liquibase = new Liquibase(Changelog.MASTER,
                            new ClassLoaderResourceAccessor(Migrator.class.getClassLoader()), database);
                    liquibase.setShowSummary(UpdateSummaryEnum.OFF);
                    liquibase.setChangeExecListener(recorder);
                    liquibase.update(new Contexts(), new LabelExpression());
                } finally {
                    LockServiceFactory.getInstance().resetAll();
                    Scope.getCurrentScope().getSingleton(ChangeLogHistoryServiceFactory.class).resetAll();
                }
            });
        } finally {
            LIQUIBASE.unlock();
        }
        return changes;
    }

    private static void validate(FileInspection inspection, String name) {
        if (inspection.schemaVersion() > LATEST_VERSION) {
            throw new SchemaTooNewException(inspection.schemaVersion(), LATEST_VERSION);
        }
        if (!inspection.isHermes()) {
            throw notHermes(inspection, name);
        }
    }

    private static HermesStateException notHermes(FileInspection inspection, String name) {
        return new NotAHermesDatabaseException(name + " is a SQLite database but not a Hermes session store"
                + (inspection.isBlank() ? " (it is empty)" : " (it has the tables " + inspection.userTables()
                + " and neither sessions nor schema_version)") + "; it was left unchanged");
    }

    private static void enableWal(Connection connection) throws SQLException {
        execute(connection, "PRAGMA journal_mode=WAL");
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
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
