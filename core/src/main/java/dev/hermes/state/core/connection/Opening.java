package dev.hermes.state.core.connection;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.postgres.PostgresBackend;
import dev.hermes.state.core.backend.postgres.PostgresConnections;
import dev.hermes.state.core.backend.sqlite.SqliteBackend;
import dev.hermes.state.core.backend.sqlite.SqliteFileConnections;
import dev.hermes.state.core.backend.ConnectionSource;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.PostgresSupport;
import dev.hermes.state.migrations.StoreEngine;
import dev.hermes.state.migrations.StoreLocation;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.RetryPolicy;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.function.IntSupplier;
import javax.sql.DataSource;

/**
 * How a store opens (the policy behind {@code StateRepository.Builder.build()}), from settings
 * {@link StoreConfig} has checked: the backend is chosen, the database is checked and, for a read-write store, migrated or
 * adopted, then the store's connections are set up (none is opened yet: that happens on first use).
 */
public final class Opening {
    private Opening() {
    }

    /** The opened store's database, and whether it reads its file as an immutable snapshot. */
    public record Opened(Database database, boolean immutableSnapshot) {
    }

    /**
     * A file is first checked: read-only needs the version-6 columns (a newer file is fine);
     * read-write migrates or adopts it (a no-op without Liquibase when it is up to date), or, with
     * {@code migrate} false, requires it to be at version 6 already. An application's DataSource is
     * migrated unless read-only or {@code migrate} is false. A PostgreSQL URL is a schema on a server
     * ({@code hermes} unless named), migrated like a file (the schema is created when missing).
     */
    public static Opened open(StoreConfig config) {
        RetryPolicy retryPolicy = config.retryPolicy();
        Migrator migrator = Migrator.withRetryPolicy(retryPolicy).toVersion(config.schemaVersion());
        String url = config.url();
        if (url != null) {
            return new Opened(openServer(migrator, url, config), false);
        }
        DataSource dataSource = config.dataSource();
        if (dataSource != null) {
            return new Opened(openLent(migrator, dataSource, config), false);
        }
        Path file = Objects.requireNonNull(config.path(), "path");
        prepareFile(migrator, file, config);
        SqliteFileConnections files = SqliteFileConnections.of(file, config.readOnly(), retryPolicy);
        return new Opened(database(new SqliteBackend(retryPolicy), files, config), files.isImmutableSnapshot());
    }

    private static Database database(Backend backend, ConnectionSource connections, StoreConfig config) {
        return new Database(backend, connections, config.retryPolicy(), config.readOnly(), config.readerPoolSize(),
                config.checkpointEvery(), config.schemaVersion());
    }

    /**
     * A store on the application's DataSource, whichever engine it points at (asked of its first
     * connection, which also migrates or checks the store): a SQLite state.db, whose connections the
     * store keeps, or a schema of a PostgreSQL database ({@code hermes} unless named), whose
     * connections it takes per unit of work as from its own pool.
     */
    private static Database openLent(Migrator migrator, DataSource dataSource, StoreConfig config) {
        String schema = config.schema() == null ? PostgresLocation.DEFAULT_SCHEMA : config.schema();
        @Nullable StoreEngine engine = null;
        try (Connection connection = connect(dataSource)) {
            String product = connection.getMetaData().getDatabaseProductName();
            engine = StoreEngine.ofProduct(product);
            if (engine == StoreEngine.POSTGRESQL) {
                PostgresSupport.requireForStore();
                prepareSchema(config, () -> migrator.migrate(connection, schema).toVersion(),
                        () -> migrator.checkReadable(connection, schema));
            } else if (config.schema() != null) {
                throw new InvalidArgumentException("schema(...) is for PostgreSQL; the DataSource points at " + product);
            } else if (config.migrate() && !config.readOnly()) {
                migrator.migrate(connection);
            }
        } catch (SQLException e) {
            throw (engine == null ? StoreEngine.UNDECIDED : engine.failures()).translate(e, "opening the application's DataSource");
        }
        boolean postgres = engine == StoreEngine.POSTGRESQL;
        Backend backend = postgres ? new PostgresBackend(schema, config.retryPolicy()) : new SqliteBackend(config.retryPolicy());
        LentConnections connections = new LentConnections(dataSource, postgres, postgres
                ? "the application's DataSource (PostgreSQL schema " + schema + ")" : "the application's DataSource");
        return database(backend, connections, config);
    }

    /**
     * The DataSource's first connection. Its engine is not known before it connects, so a failure is
     * typed by what it is: SQLite's own (a file it cannot open) by its result code, and a connection
     * the server refused, or a pool found none (SQLSTATE class 08 or JDBC's connection exceptions, of
     * any engine), as an I/O failure. A pool may throw an unchecked exception around the driver's.
     */
    private static Connection connect(DataSource dataSource) {
        String what = "connecting through the application's DataSource";
        try {
            return dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            if (e instanceof HermesStateException typed) {
                throw typed;
            }
            throw StoreEngine.UNDECIDED.translate(e, what);
        }
    }

    /**
     * A store in a schema of a PostgreSQL server: migrated (or checked to be migrated) through the
     * migrator's own connection, then served by the store's pools; nothing of the pools is connected yet.
     */
    private static Database openServer(Migrator migrator, String url, StoreConfig config) {
        PostgresSupport.requireForStore();
        PostgresLocation location = StoreLocation.parse(url, config.schema()).server();
        PostgresLocation store = location;
        prepareSchema(config, () -> migrator.migrate(store).toVersion(), () -> migrator.checkReadable(store));
        Backend backend = new PostgresBackend(location.schema(), config.retryPolicy());
        PostgresConnections connections = new PostgresConnections(location, config.readerPoolSize(),
                config.retryPolicy().busyTimeout());
        return database(backend, connections, config);
    }

    private static void prepareFile(Migrator migrator, Path path, StoreConfig config) {
        if (config.readOnly()) {
            migrator.checkReadable(path);
        } else if (config.migrate()) {
            migrator.migrate(path);
        } else {
            int version = migrator.checkReadable(path);
            if (version > migrator.targetVersion()) {
                throw new SchemaTooNewException(version, migrator.targetVersion(), migrator.targetVersion() == Migrator.LATEST_VERSION);
            }
        }
    }

    /**
     * A PostgreSQL schema, as {@link #prepareFile} a file: read-only checks it can be read, read-write
     * migrates it, and read-write without migrating requires it to be at most the newest version.
     */
    private static void prepareSchema(StoreConfig config, IntSupplier migrate, IntSupplier checkReadable) {
        boolean migrating = !config.readOnly() && config.migrate();
        int version = migrating ? migrate.getAsInt() : checkReadable.getAsInt();
        if (!config.readOnly() && !migrating) {
            if (version > config.schemaVersion()) {
                throw new SchemaTooNewException(version, config.schemaVersion(), config.schemaVersion() == Migrator.LATEST_VERSION);
            }
        }
    }
}
