package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/** Connections lent by the application's {@link DataSource}: reconfigured only as far as the store needs. */
public record LentConnections(DataSource dataSource) implements ConnectionSource {

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
