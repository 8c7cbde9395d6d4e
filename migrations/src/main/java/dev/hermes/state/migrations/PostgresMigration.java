package dev.hermes.state.migrations;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.postgresql.PostgresLocation;

import org.postgresql.PGConnection;
import org.postgresql.jdbc.AutoSave;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The migrator's PostgreSQL path: brings the store in one schema of a database to the migrator's target
 * version (the latest, or {@link Changelog#KEPT_VERSION} to keep it readable by an agent of that time).
 *
 * <p>A store that is up to date is recognised from the catalog, without a lock, a write or Liquibase
 * (the fast path). Otherwise the whole update is one transaction (PostgreSQL's DDL is transactional):
 * it takes a transaction-level advisory lock, the same key for every hermes-state migration of the
 * database, so that concurrent migrators queue (and two stores never race to create the shared pg_trgm
 * extension); it re-inspects the schema under that lock, creates the schema if needed, sets the search
 * path for the transaction only, and runs PostgreSQL's changelog. A failure or a killed process leaves
 * nothing behind (the lock dies with the session); a dry run is the same transaction rolled back.
 */
final class PostgresMigration {
    /** The advisory lock every hermes-state migration of a database holds ("hermes" in ASCII). */
    static final long LOCK_KEY = 0x6865726d6573L;
    /** How long a migration waits for the advisory lock or a table lock before giving up (BusyException). */
    static final String LOCK_TIMEOUT = "60s";

    private PostgresMigration() {
    }

    static MigrationResult migrate(PostgresLocation location, int version, Migrator.Mode mode) {
        try (Connection connection = location.connect()) {
            return migrate(connection, location.schema(), location.toString(), version, mode);
        } catch (SQLException closing) {
            throw PostgresErrors.translate(closing, "closing the connection to " + location);
        }
    }

    /**
     * Migrates the store in {@code schema} on an open connection to {@code version}; {@code name} says
     * which store in messages. A transaction the caller left open is committed first; auto-commit is
     * restored after.
     */
    static MigrationResult migrate(Connection connection, String schema, String name, int version,
                                   Migrator.Mode mode) {
        PostgresLocation.checkSchema(schema);
        String what = (mode.commits ? "migrating " : "checking a migration of ") + name;
        try {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try {
                SchemaInspection inspection = SchemaInspection.of(connection, schema);
                validate(inspection, name, version);
                if (mode.mayTakeFastPath && inspection.isUpToDate(version)) {
                    return upToDate(inspection, mode);
                }
                connection.setAutoCommit(false);
                return migrateInTransaction(connection, schema, name, version, mode);
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (Exception failure) {
            throw PostgresErrors.translate(failure, what);
        }
    }

    /**
     * Checks, without writing, that {@code schema} can be read as a version-6 store (a newer one
     * qualifies); returns the version it claims.
     */
    static int checkReadable(Connection connection, String schema, String name) {
        PostgresLocation.checkSchema(schema);
        try {
            SchemaInspection inspection = SchemaInspection.of(connection, schema);
            FileInspection contents = inspection.contents();
            if (!inspection.exists()) {
                throw new StateIOException(name + " does not exist; open it read-write once to create it");
            }
            if (!contents.isHermes() || contents.isBlank()) {
                throw new NotAHermesDatabaseException(name + " holds no Hermes store (tables " + contents.userTables()
                        + "); open it read-write once to create it, or choose another schema");
            }
            List<String> missing = inspection.missingForReading();
            if (!missing.isEmpty()) {
                throw new StateIOException(name + " is at schema version " + contents.schemaVersion() + " and lacks "
                        + missing + "; open it read-write once to migrate it");
            }
            return contents.schemaVersion();
        } catch (SQLException failure) {
            throw PostgresErrors.translate(failure, "checking " + name);
        }
    }

    static int checkReadable(PostgresLocation location) {
        try (Connection connection = location.connect()) {
            return checkReadable(connection, location.schema(), location.toString());
        } catch (SQLException closing) {
            throw PostgresErrors.translate(closing, "closing the connection to " + location);
        }
    }

    private static MigrationResult migrateInTransaction(Connection connection, String schema, String name,
                                                        int version, Migrator.Mode mode) throws Exception {
        try {
            execute(connection, "SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
            execute(connection, "SELECT pg_catalog.pg_advisory_xact_lock(" + LOCK_KEY + ")");
            // Re-inspect under the lock: another migrator may have finished meanwhile.
            SchemaInspection inspection = SchemaInspection.of(connection, schema);
            validate(inspection, name, version);
            if (mode.mayTakeFastPath && inspection.isUpToDate(version)) {
                connection.rollback();
                return upToDate(inspection, mode);
            }
            checkSearchExtension(connection, name);
            if (!inspection.exists()) {
                execute(connection, "CREATE SCHEMA " + quote(schema));
            }
            execute(connection, "SET LOCAL search_path TO " + quote(schema));
            if (inspection.contents().liquibaseLockHeld()) {
                // a committed lock row was left by a Liquibase run outside this scheme that was killed;
                // we hold the advisory lock, so nobody is migrating
                execute(connection, "UPDATE " + SchemaInspection.LOCK_TABLE
                        + " SET locked = FALSE, lockgranted = NULL, lockedby = NULL");
            }
            List<MigrationResult.AppliedChange> changes = runLiquibase(connection, schema, version);
            SchemaInspection migrated = SchemaInspection.of(connection, schema);
            List<String> missing = migrated.missingObjects(version);
            if (!missing.isEmpty() || migrated.contents().schemaVersion() != version) {
                throw new NotAHermesDatabaseException(name + " could not be brought to schema version "
                        + version + ": its tables differ from Hermes' (missing " + missing
                        + "); it was left unchanged");
            }
            if (mode.commits) {
                connection.commit();
            } else {
                connection.rollback();
            }
            int fromVersion = inspection.contents().schemaVersion();
            return new MigrationResult(fromVersion, mode.commits ? migrated.contents().schemaVersion() : fromVersion,
                    inspection.contents().isBlank(), false, !mode.commits, changes);
        } catch (Exception | Error failure) {
            rollbackQuietly(connection);
            throw failure;
        }
    }

    /**
     * Liquibase probes for its tables by querying them and expects a failed query to leave the
     * connection usable; on PostgreSQL a failed statement aborts the whole transaction, and the rollback
     * Liquibase then asks for is swallowed (it must not end ours). The driver's autosave wraps every
     * statement in a savepoint and rolls a failed one back to it, for the time of the update.
     */
    private static List<MigrationResult.AppliedChange> runLiquibase(Connection connection, String schema, int version)
            throws Exception {
        PGConnection driver = connection.unwrap(PGConnection.class);
        AutoSave autosave = driver.getAutosave();
        driver.setAutosave(AutoSave.ALWAYS);
        try {
            return LiquibaseUpdate.runPostgresql(connection, schema, version);
        } finally {
            driver.setAutosave(autosave);
        }
    }

    /**
     * pg_trgm (for the trigram index) is one extension per database. When it is missing and this role
     * may not create it, or it is installed in a schema this role may not use, say so before anything
     * runs rather than fail half-way with the server's words.
     */
    private static void checkSearchExtension(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("""
                     SELECT n.nspname, pg_catalog.has_schema_privilege(n.oid, 'USAGE'),
                            EXISTS (SELECT FROM pg_catalog.pg_available_extensions WHERE name = 'pg_trgm'),
                            (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
                              OR CASE WHEN pg_catalog.to_regnamespace('public') IS NULL THEN FALSE
                                      ELSE pg_catalog.has_database_privilege(current_database(), 'CREATE')
                                           AND pg_catalog.has_schema_privilege('public', 'CREATE') END,
                            current_user, current_database()
                     FROM (SELECT 1) AS one
                     LEFT JOIN pg_catalog.pg_extension e ON e.extname = 'pg_trgm'
                     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace""")) {
            row.next();
            String installedIn = row.getString(1);
            String role = row.getString(5);
            String database = row.getString(6);
            if (installedIn != null && !row.getBoolean(2)) {
                throw new StateIOException("The role " + role + " may not use schema " + installedIn + ", where the"
                        + " extension pg_trgm that the store's search index needs is installed. Have an administrator run"
                        + " 'GRANT USAGE ON SCHEMA " + installedIn + " TO " + role + ";' in database " + database
                        + ", then migrate again; " + name + " was left unchanged");
            }
            if (installedIn != null) {
                return;
            }
            if (!row.getBoolean(3)) {
                throw new StateIOException("The PostgreSQL server has no pg_trgm extension, which the store's search"
                        + " index needs (it ships with PostgreSQL's contrib modules: on Debian in the postgresql"
                        + " package); " + name + " was left unchanged");
            }
            if (!row.getBoolean(4)) {
                throw new StateIOException("The role " + role + " may not create the extension pg_trgm"
                        + " in database " + database + " (it needs CREATE on the database and an existing schema public"
                        + " it may create in), and the store's search index needs it. Have an administrator run"
                        + " 'CREATE EXTENSION pg_trgm;' in database " + database + " once, then migrate again; " + name
                        + " was left unchanged");
            }
        }
    }

    private static void validate(SchemaInspection inspection, String name, int version) {
        FileInspection contents = inspection.contents();
        if (!contents.isHermes()) {
            throw new NotAHermesDatabaseException(name + " holds the tables " + contents.userTables()
                    + " but no Hermes sessions table; it was left unchanged. Choose another schema for the store.");
        }
        if (contents.schemaVersion() > version) {
            throw new SchemaTooNewException(contents.schemaVersion(), version, version >= Migrator.LATEST_VERSION);
        }
    }

    private static MigrationResult upToDate(SchemaInspection inspection, Migrator.Mode mode) {
        int version = inspection.contents().schemaVersion();
        return new MigrationResult(version, version, false, true, !mode.commits, List.of());
    }

    /** A schema name checked by {@link PostgresLocation#checkSchema}, as an identifier. */
    static String quote(String schema) {
        return "\"" + PostgresLocation.checkSchema(schema) + "\"";
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException connectionGone) {
            // the server rolls back what a lost connection left open
        }
    }
}
