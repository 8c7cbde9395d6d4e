package dev.hermes.state.core.opening;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.postgres.PostgresBackend;
import dev.hermes.state.core.backend.postgres.PostgresConnections;
import dev.hermes.state.core.backend.sqlite.SqliteBackend;
import dev.hermes.state.core.backend.sqlite.SqliteFileConnections;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.connection.LentConnections;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.StoreLocation;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.RetryPolicy;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;
import javax.sql.DataSource;

/**
 * How a store opens (the policy behind {@code StateRepository.Builder.build()}): the settings are
 * checked, the backend is chosen, the database is checked and, for a read-write store, migrated or
 * adopted, then the store's connections are set up (none is opened yet: that happens on first use).
 */
public final class Opening {
    private static final String POSTGRESQL = "PostgreSQL";

    private Opening() {
    }

    /** What the builder collected; checked by {@link #open}. */
    public record Request(@Nullable Path path, @Nullable DataSource dataSource, @Nullable String url, @Nullable String schema,
                          boolean readOnly, Duration busyTimeout,
                          int maxAttempts, Duration minBackoff, Duration maxBackoff, int readerPoolSize,
                          int checkpointEvery, boolean migrate, int schemaVersion) {
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
    public static Opened open(Request request) {
        Path path = request.path();
        DataSource dataSource = request.dataSource();
        String url = request.url();
        int given = (path == null ? 0 : 1) + (dataSource == null ? 0 : 1) + (url == null ? 0 : 1);
        if (given != 1) {
            throw new InvalidArgumentException("Give exactly one of path(...), url(...) and dataSource(...)");
        }
        if (request.schema() != null && path != null) {
            throw new InvalidArgumentException("schema(...) is for a PostgreSQL url(...) or dataSource(...)");
        }
        RetryPolicy retryPolicy = new RetryPolicy(request.busyTimeout(), request.maxAttempts(), request.minBackoff(),
                request.maxBackoff());
        if (request.readerPoolSize() < 1) {
            throw new InvalidArgumentException("readerPoolSize must be at least 1, got " + request.readerPoolSize());
        }
        if (request.checkpointEvery() < 1) {
            throw new InvalidArgumentException("checkpointEvery must be at least 1, got " + request.checkpointEvery());
        }
        Migrator migrator = Migrator.withRetryPolicy(retryPolicy).toVersion(request.schemaVersion());
        if (url != null) {
            return new Opened(openServer(migrator, url, request, retryPolicy), false);
        }
        if (dataSource != null) {
            return new Opened(openLent(migrator, dataSource, request, retryPolicy), false);
        }
        Path file = Objects.requireNonNull(path, "path");
        prepareFile(migrator, file, request);
        SqliteFileConnections files = SqliteFileConnections.of(file, request.readOnly(), retryPolicy);
        Database database = new Database(new SqliteBackend(retryPolicy), files, retryPolicy, request.readOnly(),
                request.readerPoolSize(), request.checkpointEvery(), request.schemaVersion());
        return new Opened(database, files.isImmutableSnapshot());
    }

    /**
     * A store on the application's DataSource, whichever engine it points at (asked of its first
     * connection, which also migrates or checks the store): a SQLite state.db, whose connections the
     * store keeps, or a schema of a PostgreSQL database ({@code hermes} unless named), whose
     * connections it takes per unit of work as from its own pool.
     */
    private static Database openLent(Migrator migrator, DataSource dataSource, Request request, RetryPolicy retryPolicy) {
        String schema = request.schema() == null ? PostgresLocation.DEFAULT_SCHEMA : request.schema();
        boolean postgres;
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            postgres = POSTGRESQL.equals(product);
            if (postgres) {
                prepareSchema(migrator, request, () -> migrator.migrate(connection, schema).toVersion(),
                        () -> migrator.checkReadable(connection, schema));
            } else if (request.schema() != null) {
                throw new InvalidArgumentException("schema(...) is for PostgreSQL; the DataSource points at " + product);
            } else if (request.migrate() && !request.readOnly()) {
                migrator.migrate(connection);
            }
        } catch (SQLException e) {
            throw new SqliteBackend(retryPolicy).translate(e, "opening the application's DataSource");
        }
        Backend backend = postgres ? new PostgresBackend(schema, retryPolicy) : new SqliteBackend(retryPolicy);
        LentConnections connections = new LentConnections(dataSource, postgres, postgres
                ? "the application's DataSource (PostgreSQL schema " + schema + ")" : "the application's DataSource");
        return new Database(backend, connections, retryPolicy, request.readOnly(), request.readerPoolSize(),
                request.checkpointEvery(), request.schemaVersion());
    }

    /**
     * A store in a schema of a PostgreSQL server: migrated (or checked to be migrated) through the
     * migrator's own connection, then served by the store's pools; nothing of the pools is connected yet.
     */
    private static Database openServer(Migrator migrator, String url, Request request, RetryPolicy retryPolicy) {
        PostgresLocation location = StoreLocation.parse(url, request.schema()).server();
        PostgresLocation store = location;
        prepareSchema(migrator, request, () -> migrator.migrate(store).toVersion(), () -> migrator.checkReadable(store));
        Backend backend = new PostgresBackend(location.schema(), retryPolicy);
        PostgresConnections connections = new PostgresConnections(location, request.readerPoolSize(),
                retryPolicy.busyTimeout());
        return new Database(backend, connections, retryPolicy, request.readOnly(), request.readerPoolSize(),
                request.checkpointEvery(), request.schemaVersion());
    }

    private static void prepareFile(Migrator migrator, Path path, Request request) {
        if (request.readOnly()) {
            migrator.checkReadable(path);
        } else if (request.migrate()) {
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
    private static void prepareSchema(Migrator migrator, Request request, IntSupplier migrate, IntSupplier checkReadable) {
        if (request.readOnly()) {
            checkReadable.getAsInt();
        } else if (request.migrate()) {
            migrate.getAsInt();
        } else {
            int version = checkReadable.getAsInt();
            if (version > request.schemaVersion()) {
                throw new SchemaTooNewException(version, request.schemaVersion(), request.schemaVersion() == Migrator.LATEST_VERSION);
            }
        }
    }
}
