package dev.hermes.state.sqlite;

import org.jspecify.annotations.Nullable;
import org.sqlite.jdbc4.JDBC4Connection;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The one place where this project opens a database file or its companions ({@code -wal},
 * {@code -shm}, {@code -journal}): every SQLite connection to a file is opened here, and the few raw
 * reads that SQLite cannot answer go through here. Nothing else may open those files.
 *
 * <p>Why: POSIX advisory locks belong to a process and a file, and closing <em>any</em> descriptor of
 * the file drops <em>all</em> of the process's locks on it. SQLite keeps its WAL locks on the
 * {@code -shm} and a shared lock on the database file for as long as a connection is open; SQLite's
 * own connections in one process share one record per file (device + inode) and defer closing a
 * descriptor while locks are held, so they are safe with each other. A descriptor opened by anything
 * else is not: opening and closing the {@code -shm} with Java I/O while a store held a write
 * transaction let another process take the write lock, and a committed row was silently lost.
 *
 * <p>So:
 * <ul>
 * <li>{@link #connect} opens every connection under one process-wide lock and registers it by the
 *     file's identity (device + inode) until it closes. A second path to a file that is open here (a
 *     hard link) is opened under the first path's name (or, on Linux, the name an application's own
 *     connection has it open by): SQLite names the {@code -wal} and {@code -shm} after the path, and
 *     two names for one file would pair one wal-index with two logs.</li>
 * <li>{@link #readPrefix} and {@link #deleteCompanion} act under the same lock, and only when no
 *     connection opened here is registered on the file and, on Linux, no descriptor of this process
 *     refers to it ({@code /proc/self/fd}, which also sees an application's own connections). Otherwise
 *     they do nothing and the caller goes without.</li>
 * </ul>
 * The remaining gap, stated in docs/library.md#several-stores-one-file: an application that opens its <em>first</em> connection to
 * the file from another thread during the microseconds of such a read is not seen.
 */
public final class LiveFiles {
    /** Serialises opening connections with raw reads: a connection cannot appear in the middle of one. */
    private static final Object LOCK = new Object();
    /** The connections opened by {@link #connect} that are still open, by file identity; guarded by LOCK. */
    private static final Map<Object, Registration> OPEN = new HashMap<>();
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");

    private LiveFiles() {
    }

    /** The name every connection of this process to one file uses, and how many are open. */
    private static final class Registration {
        final Path name;
        int connections;

        Registration(Path name) {
            this.name = name;
        }
    }

    /**
     * Opens a sqlite-jdbc connection to {@code file} ({@code uriQuery}, e.g. {@code immutable=1},
     * makes it a {@code file:} URI) and registers it until it is closed.
     */
    static Connection connect(Path file, @Nullable String uriQuery, Properties properties) throws SQLException {
        synchronized (LOCK) {
            Object identity = identity(file);
            Registration registration = identity == null ? null : OPEN.get(identity);
            Path name = registration != null ? registration.name : nameInUse(identity).orElse(realName(file));
            RegisteredConnection connection = new RegisteredConnection(address(name, uriQuery), properties);
            if (identity == null) {
                identity = identity(name); // SQLite has just created the file
            }
            if (identity != null) {
                OPEN.computeIfAbsent(identity, key -> new Registration(name)).connections++;
                connection.identity = identity;
            }
            return connection;
        }
    }

    /**
     * The first {@code bytes} bytes of {@code database + suffix} (the database file itself with an
     * empty suffix), read with Java I/O; no bytes when that file does not exist. Empty (not read) when
     * this process may have a connection open on the database: closing the descriptor could drop
     * that connection's locks.
     */
    static Optional<byte[]> readPrefix(Path database, String suffix, int bytes) throws IOException {
        Path file = companion(database, suffix);
        synchronized (LOCK) {
            if (isOpenLocked(database)) {
                return Optional.empty();
            }
            try (InputStream in = Files.newInputStream(file)) {
                return Optional.of(in.readNBytes(bytes));
            } catch (NoSuchFileException absent) {
                return Optional.of(new byte[0]);
            }
        }
    }

    /**
     * Flushes {@code file} (a database file, or its folder) to the disk with Java I/O, unless this
     * process may have a connection open on it: closing the descriptor would drop that connection's
     * locks, and its own commits are SQLite's to sync. True when it was flushed.
     */
    static boolean sync(Path file) throws IOException {
        synchronized (LOCK) {
            if (!Files.isDirectory(file) && isOpenLocked(file)) {
                return false;
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                channel.force(true);
                return true;
            }
        }
    }

    /**
     * Deletes {@code database + suffix} unless this process may have a connection open on the
     * database (its SQLite would go on using the deleted file while new connections create another).
     */
    static void deleteCompanion(Path database, String suffix) throws IOException {
        synchronized (LOCK) {
            if (!isOpenLocked(database)) {
                Files.deleteIfExists(companion(database, suffix));
            }
        }
    }

    /**
     * True when a connection opened here is open on {@code file} (by any of its names) or, on Linux,
     * any descriptor of this process refers to it.
     */
    static boolean isOpen(Path file) {
        synchronized (LOCK) {
            return isOpenLocked(file);
        }
    }

    /** True when {@code a} and {@code b} are the same existing file (same device and inode), by whatever paths. */
    static boolean sameFile(Path a, Path b) {
        Object identity = identity(a);
        return identity != null && identity.equals(identity(b));
    }

    /** {@code database + suffix}: SQLite's names for the {@code -wal}, {@code -shm} and {@code -journal}. */
    static Path companion(Path database, String suffix) {
        return Path.of(database.toAbsolutePath() + suffix);
    }

    private static boolean isOpenLocked(Path file) {
        Object identity = identity(file);
        if (identity == null) {
            return false;
        }
        if (OPEN.containsKey(identity)) {
            return true;
        }
        Map<Object, Path> descriptors = descriptorsOfThisProcess();
        return descriptors == null || descriptors.containsKey(identity);
    }

    /**
     * The name under which a descriptor of this process (an application's own connection, on Linux)
     * has the file open, when that name still leads to the same file: connections of the stores use
     * it too, so that SQLite pairs one {@code -wal} with the file's one wal-index.
     */
    private static Optional<Path> nameInUse(@Nullable Object identity) {
        Map<Object, Path> descriptors = identity == null ? null : descriptorsOfThisProcess();
        Path name = descriptors == null ? null : descriptors.get(identity);
        return name != null && identity != null && identity.equals(identity(name)) ? Optional.of(name) : Optional.empty();
    }

    /**
     * Every file this process has a descriptor on (Linux), by identity, with the path it was opened
     * by; empty where the kernel does not list them (there only the registry of this project's own
     * connections counts); null when the list exists but cannot be read, which counts as "open".
     */
    private static @Nullable Map<Object, Path> descriptorsOfThisProcess() {
        Map<Object, Path> files = new HashMap<>();
        if (!Files.isDirectory(DESCRIPTORS)) {
            return files;
        }
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(DESCRIPTORS)) {
            for (Path descriptor : descriptors) {
                try {
                    // stat follows the link to the open file itself (even a deleted one) without opening it
                    Object key = Files.readAttributes(descriptor, BasicFileAttributes.class).fileKey();
                    if (key != null) {
                        files.putIfAbsent(key, Files.readSymbolicLink(descriptor));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while listing: it holds nothing any more
                }
            }
        } catch (IOException unlisted) {
            return null;
        }
        return files;
    }

    /** Device and inode (as the JDK's file key); the real path where the file system has no such key; null when absent. */
    private static @Nullable Object identity(Path file) {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key != null ? key : file.toRealPath();
        } catch (IOException absent) {
            return null;
        }
    }

    /** The path with symbolic links resolved (as SQLite resolves them itself), or the absolute path of a file not yet there. */
    private static Path realName(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException absent) {
            return file.toAbsolutePath().normalize();
        }
    }

    private static String address(Path name, @Nullable String uriQuery) {
        if (uriQuery == null) {
            return name.toString();
        }
        // a file: URI, so that SQLite reads the query; the path part percent-encoded
        return name.toUri().toString() + "?" + uriQuery;
    }

    private static void release(Object identity) {
        synchronized (LOCK) {
            Registration registration = OPEN.get(identity);
            if (registration != null && --registration.connections == 0) {
                OPEN.remove(identity);
            }
        }
    }

    /** A sqlite-jdbc connection that leaves the registry when it is closed. */
    private static final class RegisteredConnection extends JDBC4Connection {
        private volatile @Nullable Object identity; // null until registered
        private boolean released; // guarded by this

        RegisteredConnection(String address, Properties properties) throws SQLException {
            super("jdbc:sqlite:" + address, address, properties);
        }

        @Override
        public void close() throws SQLException {
            try {
                super.close();
            } finally {
                releaseOnce();
            }
        }

        private synchronized void releaseOnce() {
            if (!released && identity != null) {
                released = true;
                release(identity);
            }
        }
    }
}
