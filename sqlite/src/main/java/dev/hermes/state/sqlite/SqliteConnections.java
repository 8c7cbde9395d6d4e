package dev.hermes.state.sqlite;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The JDBC connections every part of the project opens on a state.db, so that they all agree on
 * settings: foreign keys on, the policy's busy timeout, {@code synchronous=NORMAL}; read-only ones
 * with SQLite's locks where that works and as an immutable snapshot where it cannot ({@link #readAccess});
 * and a connection that salvages a damaged file. Every connection goes through {@link LiveFiles}.
 */
public final class SqliteConnections {
    private SqliteConnections() {
    }

    /** The JDBC URL of a database file. */
    public static String url(Path file) {
        return "jdbc:sqlite:" + file.toAbsolutePath();
    }

    /**
     * Opens a connection with the project's settings: foreign keys on, the policy's busy timeout,
     * synchronous=NORMAL (safe in WAL mode). The journal mode is deliberately not set here: switching
     * to WAL writes the file, and nothing may be written before the file has been inspected. A
     * read-only connection reads the file as an immutable snapshot when {@link #readAccess} says so.
     */
    public static Connection open(Path file, RetryPolicy policy, boolean readOnly) throws SQLException {
        return open(file, policy, readOnly ? readAccess(file, policy) : Access.READ_WRITE);
    }

    /** Opens a connection with the project's settings (see above) and the given access. */
    public static Connection open(Path file, RetryPolicy policy, Access access) throws SQLException {
        return LiveFiles.connect(file, access == Access.SNAPSHOT ? "immutable=1" : null,
                config(policy, access != Access.READ_WRITE).toProperties());
    }

    /**
     * A read-only connection to a damaged file, for salvaging its rows: none of the project's settings
     * (applying them reads the schema) and {@code writable_schema} on before the first statement, so that
     * a schema whose objects point past a cut-off end still loads (SQLite refuses it otherwise). Nothing
     * can be written through it; {@code immutable} also takes no lock and creates no {@code -shm}.
     */
    public static Connection openForSalvage(Path file, boolean immutable) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        Connection connection = LiveFiles.connect(file, immutable ? "immutable=1" : null, config.toProperties());
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA writable_schema = ON");
        } catch (SQLException | RuntimeException failure) {
            connection.close();
            throw failure;
        }
        return connection;
    }

    /**
     * How a read-only connection can read {@code file}. {@link Access#READ_ONLY} (with SQLite's locks,
     * seeing other processes' commits) wherever that works. A WAL-mode file needs its {@code -shm}
     * for that, which SQLite creates if it is missing; in a folder this process cannot write (a
     * backup on read-only media, another user's folder) it cannot, and the file is read as an
     * {@link Access#SNAPSHOT} instead: exact, because no {@code -wal} with frames lies beside it.
     * When one does, its commits are not in the file yet and only SQLite, with an {@code -shm}, can
     * read them: refused with what to do.
     *
     * @throws StateIOException the file can only be read with its {@code -wal}, which needs an {@code -shm} here
     */
    public static Access readAccess(Path file, RetryPolicy policy) {
        Path absolute = file.toAbsolutePath();
        Path folder = absolute.getParent();
        if (Files.exists(LiveFiles.companion(absolute, "-shm")) || Files.isWritable(folder)) {
            return Access.READ_ONLY;
        }
        try (Connection probe = open(absolute, policy, Access.READ_ONLY);
             Statement statement = probe.createStatement()) {
            statement.executeQuery("SELECT count(*) FROM sqlite_master").close();
            return Access.READ_ONLY; // a rollback-journal file: read with locks as usual
        } catch (SQLException failure) {
            if (!cannotMakeIndex(failure)) {
                return Access.READ_ONLY; // another problem (a hot journal, a damaged file...): the real open reports it
            }
        }
        try {
            if (SqliteHeaders.hasLog(absolute)) {
                throw new StateIOException(absolute + " cannot be read in place: its " + absolute.getFileName()
                        + "-wal holds changes not yet in the file, and reading them needs a " + absolute.getFileName()
                        + "-shm, which cannot be created in the read-only folder " + folder
                        + ". Copy the folder (" + absolute.getFileName() + " with its -wal) somewhere writable and open the copy.");
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot read " + absolute + ": " + e.getMessage(), e);
        }
        return Access.SNAPSHOT;
    }

    /** SQLite could not create or set up the {@code -shm} (or open the {@code -wal} it needs). */
    private static boolean cannotMakeIndex(SQLException failure) {
        if (!(failure instanceof SQLiteException sqlite)) {
            return false;
        }
        SQLiteErrorCode code = sqlite.getResultCode();
        return code == SQLiteErrorCode.SQLITE_READONLY_DIRECTORY || code == SQLiteErrorCode.SQLITE_READONLY_CANTINIT
                || code == SQLiteErrorCode.SQLITE_CANTOPEN;
    }

    /** The sqlite-jdbc configuration behind {@link #open}, for data sources and pools. */
    public static SQLiteConfig config(RetryPolicy policy, boolean readOnly) {
        SQLiteConfig config = new SQLiteConfig();
        config.enforceForeignKeys(true);
        config.setBusyTimeout((int) policy.busyTimeout().toMillis());
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setReadOnly(readOnly);
        // Otherwise every INSERT also runs SELECT last_insert_rowid() and leaves that result open on
        // the statement: an extra step per insert, and a statement "in progress" that makes VACUUM
        // fail on a connection that keeps its inserts prepared. Ids come back through RETURNING.
        config.setGetGeneratedKeys(false);
        return config;
    }

    /** How a connection reads the file. */
    public enum Access {
        /** Reads and writes, with SQLite's locks. */
        READ_WRITE,
        /** Reads only, with SQLite's locks: sees what other processes commit. */
        READ_ONLY,
        /**
         * Reads only, as an immutable snapshot ({@code immutable=1}: no locks, no {@code -shm}, the
         * {@code -wal} ignored): for a file in a folder this process cannot write, with no log beside it.
         */
        SNAPSHOT
    }
}
