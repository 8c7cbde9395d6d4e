package dev.hermes.state.sqlite;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.StateIOException;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * A state.db on disk, with the companions SQLite keeps beside it ({@code -wal}, {@code -shm},
 * {@code -journal}): a new file (and so its {@code -wal}/{@code -shm}, which SQLite creates with the
 * database's mode) is owner-only and built beside its name before it takes it; a missing, empty or
 * read-only file, or a read-only folder, is refused with a typed error and left byte-for-byte unchanged.
 *
 * <p>What the file's bytes say is {@link SqliteHeaders}'; how a connection opens it,
 * {@link SqliteConnections}'. Every raw read and write goes through {@link LiveFiles}, which keeps
 * Java I/O away from files this process has open through SQLite.
 */
public final class SqliteFile {
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    /** An empty or short file is looked at this often, this far apart, before it is refused (see lookAgain). */
    private static final int HEADER_LOOKS = 5;
    private static final long HEADER_LOOK_PAUSE_MILLIS = 20;
    /** The database file and the companions SQLite keeps beside it, by the suffix of their names. */
    private static final List<String> FILE_AND_COMPANIONS = List.of("", "-wal", "-shm", "-journal");

    private SqliteFile() {
    }

    /**
     * Makes sure {@code file} may be opened for writing: creates missing parent folders (owner-only),
     * and refuses a folder, a read-only folder, a read-only file, an empty file and a file that is not
     * SQLite. Returns true when the file exists (and passed the checks), false when it is absent and
     * its folder is ready for {@link #createTemporarySibling} and {@link #publish}.
     */
    public static boolean prepareForWriting(Path file) {
        Path absolute = file.toAbsolutePath();
        Path folder = absolute.getParent();
        if (folder == null) {
            throw new StateIOException(absolute + " names no file (it is the root of the file system)");
        }
        try {
            if (Files.isDirectory(absolute)) {
                throw new StateIOException(absolute + " is a folder, not a database file");
            }
            if (!Files.exists(folder)) {
                createFolders(folder);
            }
            if (!Files.isDirectory(folder)) {
                throw new StateIOException("Cannot create " + absolute + ": " + folder + " is not a folder");
            }
            if (!isWritable(folder)) {
                throw new StateIOException("Folder " + folder + " is read-only: SQLite needs to create "
                        + absolute.getFileName() + "-wal and -shm beside the database. Open it read-only instead.");
            }
            if (!Files.exists(absolute)) {
                return false;
            }
            if (!isWritable(absolute)) {
                throw new StateIOException("Database file " + absolute + " is read-only. Open it read-only instead.");
            }
            checkNotEmpty(absolute);
            return true;
        } catch (IOException e) {
            throw new StateIOException("Cannot prepare " + absolute + " for writing: " + e.getMessage(), e);
        }
    }

    /**
     * Creates an empty owner-only (0600) file beside {@code file}, in which a new database is built
     * before {@link #publish} gives it its real name. Building aside means nobody ever sees a
     * half-created or zero-length state.db, even when two processes create the same store at once
     * or the process dies half-way.
     */
    public static Path createTemporarySibling(Path file) {
        Path absolute = file.toAbsolutePath();
        try {
            try {
                return Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".hermes-state-new",
                        PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
            } catch (UnsupportedOperationException notPosix) {
                return Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".hermes-state-new");
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot create a new database beside " + absolute + ": " + e.getMessage(), e);
        }
    }

    /**
     * Gives the finished database {@code built} (closed, no {@code -wal} left) its real name, atomically
     * and only if nothing has that name yet: a hard link fails when the name exists, a rename would
     * replace it. Returns false when another process published its file first. {@code built} is
     * deleted either way.
     */
    public static boolean publish(Path built, Path file) {
        Path absolute = file.toAbsolutePath();
        try {
            try {
                Files.createLink(absolute, built);
            } catch (FileAlreadyExistsException lost) {
                return false;
            } catch (UnsupportedOperationException | IOException noHardLinks) {
                if (Files.exists(absolute)) {
                    return false;
                }
                // a file system without hard links: a rename that refuses an existing target is the next best
                Files.move(built, absolute);
            }
            return true;
        } catch (FileAlreadyExistsException lost) {
            return false;
        } catch (IOException e) {
            throw new StateIOException("Cannot create " + absolute + ": " + e.getMessage(), e);
        } finally {
            deleteWithCompanions(built);
        }
    }

    /** Deletes a database file this process built, with any {@code -wal}, {@code -shm} or {@code -journal}. */
    public static void deleteWithCompanions(Path file) {
        for (String suffix : FILE_AND_COMPANIONS) {
            try {
                Files.deleteIfExists(LiveFiles.companion(file, suffix));
            } catch (IOException ignored) {
                // best effort: a leftover temporary file is harmless and clearly named
            }
        }
    }

    /**
     * True when {@code candidate} is {@code database} or one of its {@code -wal}, {@code -shm},
     * {@code -journal} (the same file, by whatever path): writing it would destroy the database.
     */
    public static boolean isPartOf(Path candidate, Path database) {
        return FILE_AND_COMPANIONS.stream().anyMatch(suffix -> LiveFiles.sameFile(candidate, LiveFiles.companion(database, suffix)));
    }

    /** Refuses a missing, unreadable or empty file before a read-only open. */
    public static void checkReadable(Path file) {
        Path absolute = file.toAbsolutePath();
        if (!Files.isRegularFile(absolute)) {
            throw new StateIOException("Database file " + absolute + " does not exist");
        }
        if (!Files.isReadable(absolute)) {
            throw new StateIOException("Database file " + absolute + " is not readable");
        }
        try {
            checkNotEmpty(absolute);
        } catch (IOException e) {
            throw new StateIOException("Cannot read " + absolute + ": " + e.getMessage(), e);
        }
    }

    /**
     * True when a rollback journal with content lies beside {@code file}: a transaction of a writer
     * in rollback-journal mode is in progress, or was left unfinished by one that died.
     */
    public static boolean hasRollbackJournal(Path file) {
        Path journal = Path.of(file.toAbsolutePath() + "-journal");
        try {
            return Files.isRegularFile(journal) && Files.size(journal) > 0;
        } catch (IOException unreadable) {
            return false;
        }
    }

    /**
     * Deletes the {@code -shm} a read-only inspection created beside a file it then refused, so that
     * the index does not vouch for a foreign log later; left alone while this process has the file open.
     */
    public static void deleteIndex(Path file) throws IOException {
        LiveFiles.deleteCompanion(file, "-shm");
    }

    /**
     * Flushes a file written outside SQLite (or one SQLite wrote and closed, or a folder after a rename)
     * to the disk; false, and nothing done, when this process has a connection open on it.
     *
     * @throws java.io.UncheckedIOException the file cannot be flushed
     */
    public static boolean sync(Path file) {
        try {
            return LiveFiles.sync(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("Cannot flush " + file + " to disk: " + e.getMessage(), e);
        }
    }

    /**
     * A file with permission bits that allow nobody to write is read-only, even for root (who could
     * write it anyway): the owner said so.
     */
    private static boolean isWritable(Path path) throws IOException {
        if (!Files.isWritable(path)) {
            return false;
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (posix == null) {
            return true;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
        return permissions.contains(PosixFilePermission.OWNER_WRITE)
                || permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE);
    }

    private static void createFolders(Path folder) throws IOException {
        try {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        } catch (UnsupportedOperationException notPosix) {
            Files.createDirectories(folder);
        }
    }

    /**
     * Refuses an empty file (SQLite would take it for a new, empty database). Looked at a few times
     * before it is refused: the Python agent's new file is empty until its first write.
     */
    private static void checkNotEmpty(Path file) throws IOException {
        for (int look = 1; Files.size(file) == 0; look++) {
            lookAgain(look, file + " is an empty (zero-length) file, not a Hermes database; delete it to start a new store");
        }
    }

    /** Pauses before the next look at a file, or refuses it with {@code problem} after the last one. */
    static void lookAgain(int look, String problem) {
        if (look >= HEADER_LOOKS) {
            throw new NotAHermesDatabaseException(problem);
        }
        try {
            Thread.sleep(HEADER_LOOK_PAUSE_MILLIS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new NotAHermesDatabaseException(problem);
        }
    }
}
