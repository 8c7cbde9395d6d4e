package dev.hermes.state.core.backend;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the store's connections come from: a database the store opens itself (a SQLite file, a
 * schema on a PostgreSQL server), or a {@link javax.sql.DataSource} the application owns. The store
 * holds each connection it takes for its whole life (one writer, a few readers) and gives it back at
 * close, unless the source is {@linkplain #pooled() pooled}.
 */
public interface ConnectionSource extends AutoCloseable {

    /** A new connection for {@code role}, not yet configured ({@link Backend#configure} follows). */
    Connection open(Backend.Role role) throws SQLException;

    /** False when the connections belong to the application (lent, not ours to reconfigure freely). */
    boolean ownsConnections();

    /** The database file; empty for an application's DataSource (or a server). */
    Optional<Path> file();

    /**
     * True when connections must not be kept: the store then takes one for each unit of work (a read,
     * a write transaction) and gives it back at once, and the pool behind the source finds and
     * replaces connections that a server restart broke. False for SQLite files, whose connections do
     * not go stale and keep their prepared statements for the store's life.
     */
    default boolean pooled() {
        return false;
    }

    /** What the store is, for messages: the file, or the server and schema (never a password). */
    String describe();

    /**
     * The store's name for traces ({@code db.namespace}): the file's name (never its directory, which
     * may name a user), or for a server {@code database|schema}; empty when not known (a lent DataSource).
     */
    default String namespace() {
        return file().map(path -> String.valueOf(path.getFileName())).orElse("");
    }

    /**
     * Hands a Micrometer {@code MeterRegistry} (typed {@code Object}: Micrometer is optional) to the
     * connection pools the store opened itself (a server's), which then publish their own metrics; a
     * file's connections have no pool.
     */
    default void publishPoolMetrics(Object meterRegistry) {
    }

    /** Releases what the source holds (a pool); the store's connections are already given back. */
    @Override
    default void close() {
    }
}
