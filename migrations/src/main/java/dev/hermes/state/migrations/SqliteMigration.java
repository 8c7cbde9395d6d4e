package dev.hermes.state.migrations;

import org.jspecify.annotations.Nullable;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.migrations.Migrator.Mode;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.sqlite.SqliteFile;
import dev.hermes.state.sqlite.SqliteHeaders;

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
 * The SQLite file procedure of {@link Migrator}: the read-only inspection (and its fast path), the one
 * {@code BEGIN IMMEDIATE} transaction that runs Liquibase, the switch to WAL after the commit, and a new
 * file built beside its final name; {@link PostgresMigration} is its PostgreSQL counterpart.
 */
final class SqliteMigration {
    private final RetryPolicy retryPolicy;
    private final int version;

    SqliteMigration(RetryPolicy retryPolicy, int version) {
        this.retryPolicy = retryPolicy;
        this.version = version;
    }

    /**
     * The SQLite database behind an application-owned connection: its auto-commit setting is restored
     * afterwards; a transaction the caller left open on it is committed first.
     */
    MigrationResult migrate(Connection connection) {
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
     * Checks, without writing, that a file can be read as a version-6 store: it is a Hermes database
     * and has every version-6 column (a newer file qualifies). Returns the version it claims.
     */
    int checkReadable(Path file) {
        SqliteFile.checkReadable(file);
        FileInspection inspection = inspectReadOnly(file);
        if (!inspection.isHermes() || inspection.isBlank()) {
            throw notHermes(inspection, file.toString());
        }
        if (!inspection.hasV6Columns()) {
            throw new StateIOException(file + " is at schema version " + inspection.schemaVersion()
                    + " and lacks version-" + Migrator.KEPT_VERSION + " columns; open it read-write once to migrate it");
        }
        return inspection.schemaVersion();
    }

    /**
     * The file's migration state against this migrator's target version (the status's
     * {@code latestVersion}) and how many sessions and messages it holds, read without writing.
     */
    SchemaStatus status(Path file) {
        SqliteFile.checkReadable(file);
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

    /** Migrates, dry-runs or Liquibase-checks the file, creating it when it does not exist and the mode commits. */
    MigrationResult run(Path file, Mode mode) {
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
        try (Connection connection = SqliteConnections.open(file, retryPolicy, false)) {
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
            try (Connection connection = SqliteConnections.open(building, retryPolicy, false)) {
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
        SqliteHeaders.refuseForeignHeader(file);
        retryPolicy.run(what, SqliteErrors.FAILURES, () -> {
            try (Connection connection = SqliteConnections.open(file, retryPolicy, false);
                 Statement statement = connection.createStatement()) {
                statement.executeQuery("SELECT count(*) FROM sqlite_master").close();
                return Boolean.TRUE;
            } catch (SQLException failure) {
                throw SqliteHeaders.refusal(file, failure);
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
        boolean verifyWal = SqliteHeaders.hasUnindexedWal(file);
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
        try (Connection connection = SqliteConnections.open(file, retryPolicy, true)) {
            if (verifyWal) {
                checkWalBelongsToFile(connection, file);
            }
            SqliteHeaders.checkAccepted(connection, file);
            return reading.read(connection);
        } catch (SQLException failure) {
            if (SqliteErrors.primaryCode(failure) == SqliteErrors.SQLITE_READONLY && SqliteFile.hasRollbackJournal(file)) {
                throw new StateIOException(file + " holds a transaction that a writer left unfinished when it stopped ("
                        + file.getFileName() + "-journal); it can only be read after a read-write open rolls it back"
                        + " (hermes-state migrate, or the agent's next start). Nothing was written.", failure);
            }
            throw SqliteHeaders.refusal(file, failure);
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
            if (!foreign.isEmpty() && ColumnReconciliation.appliesTo(version)) {
                // the agent of this version adds what its schema declares and the file lacks, on every open
                List<String> notAddable = ColumnReconciliation.notAddable(foreign);
                if (notAddable.isEmpty()) {
                    ColumnReconciliation.add(connection, foreign);
                }
                foreign = notAddable;
            }
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
            throw new SchemaTooNewException(inspection.schemaVersion(), version, version == Migrator.LATEST_VERSION);
        }
    }

    private static HermesStateException notHermes(FileInspection inspection, String name) {
        return new NotAHermesDatabaseException(name + " is a SQLite database but not a Hermes session store"
                + (inspection.isBlank() ? " (it is empty)" : " (it has the tables " + inspection.userTables()
                + " but no Hermes sessions table)") + "; it was left unchanged");
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
