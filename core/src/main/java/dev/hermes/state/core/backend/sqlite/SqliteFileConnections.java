package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.ConnectionSource;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.sqlite.SqliteFile;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The connections of a store on a state.db file, opened by the store itself through {@link SqliteConnections}
 * (its file rules and the process-wide registry of live files).
 */
public final class SqliteFileConnections implements ConnectionSource {
    private final Path file;
    private final SqliteConnections.Access readAccess;
    private final RetryPolicy retryPolicy;

    private SqliteFileConnections(Path file, SqliteConnections.Access readAccess, RetryPolicy retryPolicy) {
        this.file = file;
        this.readAccess = readAccess;
        this.retryPolicy = retryPolicy;
    }

    /**
     * The file's connections. For a read-only store, how its {@link Backend.Role#READ_ONLY} connections
     * read the file ({@link SqliteConnections#readAccess}: read-only, or as an immutable snapshot) is decided
     * here, once, so that every connection of the store agrees.
     */
    public static SqliteFileConnections of(Path file, boolean readOnly, RetryPolicy retryPolicy) {
        SqliteConnections.Access readAccess = readOnly ? SqliteConnections.readAccess(file, retryPolicy) : SqliteConnections.Access.READ_ONLY;
        return new SqliteFileConnections(file, readAccess, retryPolicy);
    }

    /** True when the read-only connections read the file as an immutable snapshot. */
    public boolean isImmutableSnapshot() {
        return readAccess == SqliteConnections.Access.SNAPSHOT;
    }

    /** For {@link Backend.Role#READ_ONLY} the file is opened in SQLite's read-only mode (or as a snapshot). */
    @Override
    public Connection open(Backend.Role role) throws SQLException {
        return SqliteConnections.open(file, retryPolicy, role == Backend.Role.READ_ONLY ? readAccess : SqliteConnections.Access.READ_WRITE);
    }

    @Override
    public boolean ownsConnections() {
        return true;
    }

    @Override
    public Optional<Path> file() {
        return Optional.of(file);
    }

    @Override
    public String describe() {
        return file.toString();
    }
}
