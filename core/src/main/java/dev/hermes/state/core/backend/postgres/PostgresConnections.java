package dev.hermes.state.core.backend.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.postgresql.PostgresPool;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * The connections of a store in a schema of a PostgreSQL server: two pools ({@link PostgresPool}),
 * one of a single connection for writes (the store writes one transaction at a time anyway) and one
 * for reads, each connection set up once for its use. Pooled: the store borrows a connection per
 * unit of work, so one that a server restart broke is replaced, never kept.
 */
public final class PostgresConnections implements ConnectionSource {
    private final PostgresLocation location;
    private final HikariDataSource writers;
    private final HikariDataSource readers;

    public PostgresConnections(PostgresLocation location, int readerPoolSize, Duration lockTimeout) {
        this.location = location;
        this.writers = PostgresPool.open(location, PostgresPool.Use.WRITE, 1, lockTimeout);
        this.readers = PostgresPool.open(location, PostgresPool.Use.READ, readerPoolSize, lockTimeout);
    }

    @Override
    public Connection open(Backend.Role role) throws SQLException {
        return (role == Backend.Role.WRITER ? writers : readers).getConnection();
    }

    @Override
    public boolean ownsConnections() {
        return true;
    }

    @Override
    public Optional<Path> file() {
        return Optional.empty();
    }

    @Override
    public boolean pooled() {
        return true;
    }

    @Override
    public String namespace() {
        return location.database() + "|" + location.schema();
    }

    @Override
    public void publishPoolMetrics(Object meterRegistry) {
        writers.setMetricRegistry(meterRegistry);
        readers.setMetricRegistry(meterRegistry);
    }

    @Override
    public String describe() {
        return location.toString();
    }

    @Override
    public void close() {
        writers.close();
        readers.close();
    }
}
