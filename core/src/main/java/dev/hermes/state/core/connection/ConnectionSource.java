package dev.hermes.state.core.connection;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the store's connections come from: a database file the store opens itself, or a
 * {@link DataSource} the application owns. Either way the store holds each connection it takes for
 * its whole life (one writer, a few readers) and gives it back at close.
 */
public final class ConnectionSource {
    private final Path file;
    private final SqliteFile.Access readAccess;
    private final DataSource dataSource;
    private final RetryPolicy retryPolicy;

    private ConnectionSource(Path file, SqliteFile.Access readAccess, DataSource dataSource, RetryPolicy retryPolicy) {
        this.file = file;
        this.readAccess = readAccess;
        this.dataSource = dataSource;
        this.retryPolicy = retryPolicy;
    }

    /**
     * A file; {@code readAccess} is how a {@link Backend.Role#READ_ONLY} connection reads it
     * ({@link SqliteFile#readAccess}), decided once so that every connection of a store agrees.
     */
    public static ConnectionSource ofFile(Path file, SqliteFile.Access readAccess, RetryPolicy retryPolicy) {
        return new ConnectionSource(file, readAccess, null, retryPolicy);
    }

    public static ConnectionSource ofDataSource(DataSource dataSource) {
        return new ConnectionSource(null, null, dataSource, null);
    }

    /** The database file; empty for an application's DataSource. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** False when the connections belong to the application (they are lent, not ours to reconfigure freely). */
    boolean ownsConnections() {
        return file != null;
    }

    /** A new connection; for {@link Backend.Role#READ_ONLY} a file is opened in SQLite's read-only mode (or as a snapshot). */
    Connection open(Backend.Role role) throws SQLException {
        if (file != null) {
            return SqliteFile.open(file, retryPolicy, role == Backend.Role.READ_ONLY ? readAccess : SqliteFile.Access.READ_WRITE);
        }
        return dataSource.getConnection();
    }
}
