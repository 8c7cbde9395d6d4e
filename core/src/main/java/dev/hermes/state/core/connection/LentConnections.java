package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Connections lent by the application's {@link DataSource}: reconfigured only as far as the store needs.
 *
 * @param dataSource the application's pool
 * @param pooled     true for a server's connections (PostgreSQL): the store takes one per unit of work,
 *                   as from its own pool, instead of keeping them
 * @param describe   what the store is, for messages
 */
record LentConnections(DataSource dataSource, boolean pooled, String describe) implements ConnectionSource {

    @Override
    public Connection open(Backend.Role role) throws SQLException {
        return dataSource.getConnection();
    }

    @Override
    public boolean ownsConnections() {
        return false;
    }

    @Override
    public Optional<Path> file() {
        return Optional.empty();
    }
}
