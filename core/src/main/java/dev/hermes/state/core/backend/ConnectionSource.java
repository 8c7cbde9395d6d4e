package dev.hermes.state.core.backend;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the store's connections come from: a database the store opens itself (a SQLite file), or a
 * {@link javax.sql.DataSource} the application owns. Either way the store holds each connection it
 * takes for its whole life (one writer, a few readers) and gives it back at close.
 */
public interface ConnectionSource {

    /** A new connection for {@code role}, not yet configured ({@link Backend#configure} follows). */
    Connection open(Backend.Role role) throws SQLException;

    /** False when the connections belong to the application (lent, not ours to reconfigure freely). */
    boolean ownsConnections();

    /** The database file; empty for an application's DataSource (or a server). */
    Optional<Path> file();
}
