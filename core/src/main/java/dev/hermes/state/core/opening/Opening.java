package dev.hermes.state.core.opening;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;
import dev.hermes.state.core.backend.postgres.PostgresBackend;
import dev.hermes.state.core.backend.postgres.PostgresConnections;
import dev.hermes.state.core.backend.sqlite.SqliteBackend;
import dev.hermes.state.core.backend.sqlite.SqliteFileConnections;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.connection.LentConnections;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.RetryPolicy;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * How a store opens (the policy behind {@code StateRepository.Builder.build()}): the settings are
 * checked, the backend is chosen, the database is checked and, for a read-write store, migrated or
 * adopted, then the store's connections are set up (none is opened yet: that happens on first use).
 */
public final class Opening {

    private Opening() {
    }

    /** What the builder collected; checked by {@link #open}. */
    public record Request(@Nullable Path path, @Nullable DataSource dataSource, @Nullable String url, @Nullable String schema,
                          boolean readOnly, Duration busyTimeout,
                          int maxAttempts, Duration minBackoff, Duration maxBackoff, int readerPoolSize,
                          int checkpointEvery, boolean migrate) {
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
        if (request.schema() != null && url == null) {
            throw new InvalidArgumentException("schema(...) is for a PostgreSQL url(...)");
        }
        RetryPolicy retryPolicy = new RetryPolicy(request.busyTimeout(), request.maxAttempts(), request.minBackoff(),
                request.maxBackoff());
        if (request.readerPoolSize() < 1) {
            throw new InvalidArgumentException("readerPoolSize must be at least 1, got " + request.readerPoolSize());
        }
        if (request.checkpointEvery() < 1) {
            throw new InvalidArgumentException("checkpointEvery must be at least 1, got " + request.checkpointEvery());
        }
        Migrator migrator = Migrator.withRetryPolicy(retryPolicy);
        if (url != null) {
            return new Opened(openServer(migrator, url, request, retryPolicy), false);
        }
        Backend backend = new SqliteBackend(retryPolicy);
        ConnectionSource source;
        boolean snapshot = false;
        if (path != null) {
            prepareFile(migrator, path, request);
            SqliteFileConnections files = SqliteFileConnections.of(path, request.readOnly(), retryPolicy);
            snapshot = files.isImmutableSnapshot();
            source = files;
        } else {
            DataSource lent = Objects.requireNonNull(dataSource, "dataSource");
            if (request.migrate() && !request.readOnly()) {
                migrate(migrator, lent, backend);
            }
            source = new LentConnections(lent, false, "the application's DataSource");
        }
        Database database = new Database(backend, source, retryPolicy, request.readOnly(), request.readerPoolSize(),
                request.checkpointEvery());
        return new Opened(database, snapshot);
    }

    /**
     * A store in a schema of a PostgreSQL server: migrated (or checked to be migrated) through the
     * migrator's own connection, then served by the store's pools; nothing of the pools is connected yet.
     */
    private static Database openServer(Migrator migrator, String url, Request request, RetryPolicy retryPolicy) {
        PostgresLocation location = PostgresLocation.parse(url);
        String schema = request.schema();
        if (schema != null) {
            location = location.withSchema(schema);
        }
        if (!request.readOnly() && request.migrate()) {
            migrator.migrate(location);
        }
        Backend backend = new PostgresBackend(location.schema(), retryPolicy);
        PostgresConnections connections = new PostgresConnections(location, request.readerPoolSize(),
                retryPolicy.busyTimeout());
        return new Database(backend, connections, retryPolicy, request.readOnly(), request.readerPoolSize(),
                request.checkpointEvery());
    }

    private static void prepareFile(Migrator migrator, Path path, Request request) {
        if (request.readOnly()) {
            migrator.checkReadable(path);
        } else if (request.migrate()) {
            migrator.migrate(path);
        } else {
            int version = migrator.checkReadable(path);
            if (version > Migrator.LATEST_VERSION) {
                throw new SchemaTooNewException(version, Migrator.LATEST_VERSION);
            }
        }
    }

    private static void migrate(Migrator migrator, DataSource dataSource, Backend backend) {
        try (Connection connection = dataSource.getConnection()) {
            migrator.migrate(connection);
        } catch (SQLException e) {
            throw backend.translate(e, "migrating the application's database");
        }
    }
}
