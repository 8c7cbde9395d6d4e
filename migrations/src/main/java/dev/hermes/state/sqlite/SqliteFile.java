package dev.hermes.state.sqlite;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.StateIOException;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Set;

/**
 * The file-level rules of a state.db, checked before SQLite touches it: a new file (and so its
 * {@code -wal}/{@code -shm}, which SQLite creates with the database's mode) is owner-only; an empty,
 * foreign, truncated or read-only file is refused with a typed error and left byte-for-byte unchanged.
 * Also opens the JDBC connections every part of the project uses, so they all agree on settings.
 */
public final class SqliteFile {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    /** An empty or short file is looked at this often, this far apart, before it is refused (see checkHeader). */
    private static final int HEADER_LOOKS = 5;
    /** Write-ahead log and wal-index layouts (sqlite.org/walformat.html). */
    private static final int WAL_HEADER_BYTES = 32;
    private static final int WAL_SALTS = 16;
    private static final int SHM_HEADER_BYTES = 48;
    private static final int SHM_IS_INIT = 12;
    private static final int SHM_SALTS = 32;
    private static final long HEADER_LOOK_PAUSE_MILLIS = 20;

    private SqliteFile() {
    }

    /** The JDBC URL of a database file. */
    public static String url(Path file) {
        return "jdbc:sqlite:" + file.toAbsolutePath();
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
            checkHeader(absolute);
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
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            try {
                Files.deleteIfExists(Path.of(file.toAbsolutePath() + suffix));
            } catch (IOException ignored) {
                // best effort: a leftover temporary file is harmless and clearly named
            }
        }
    }

    /**
     * True when {@code file}-wal holds frames that no wal-index ({@code -shm}) of this file vouches for.
     * SQLite cannot tell a write-ahead log that belongs to another database: the first connection
     * replays whatever frames it finds, and a read-write connection folds them into the file when it
     * closes. A log a live connection (or a crashed one) wrote for this file is indexed in the
     * {@code -shm} under the same salts as the log's header; one copied from elsewhere, or left without
     * its index, is not, and must be checked before anything trusts it. Costs two small reads.
     */
    public static boolean hasUnindexedWal(Path file) {
        Path wal = Path.of(file.toAbsolutePath() + "-wal");
        Path shm = Path.of(file.toAbsolutePath() + "-shm");
        try {
            if (!Files.isRegularFile(wal) || Files.size(wal) <= WAL_HEADER_BYTES) {
                return false;
            }
            byte[] walHeader = readPrefix(wal, WAL_HEADER_BYTES);
            int magic = ByteBuffer.wrap(walHeader).getInt(0);
            if (walHeader.length < WAL_HEADER_BYTES || (magic != 0x377f0682 && magic != 0x377f0683)) {
                return false; // SQLite ignores a log without a valid header
            }
            if (!Files.isRegularFile(shm)) {
                return true;
            }
            byte[] index = readPrefix(shm, SHM_HEADER_BYTES);
            if (index.length < SHM_HEADER_BYTES || index[SHM_IS_INIT] == 0) {
                return true;
            }
            // the wal-index header keeps a raw copy of the log header's two salts
            return !Arrays.equals(index, SHM_SALTS, SHM_SALTS + 8, walHeader, WAL_SALTS, WAL_SALTS + 8);
        } catch (IOException unreadable) {
            return true;
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

    private static byte[] readPrefix(Path file, int bytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(bytes);
        }
    }

    /** Refuses a missing, empty or non-SQLite file before a read-only open. */
    public static void checkReadable(Path file) {
        Path absolute = file.toAbsolutePath();
        if (!Files.isRegularFile(absolute)) {
            throw new StateIOException("Database file " + absolute + " does not exist");
        }
        if (!Files.isReadable(absolute)) {
            throw new StateIOException("Database file " + absolute + " is not readable");
        }
        try {
            checkHeader(absolute);
        } catch (IOException e) {
            throw new StateIOException("Cannot read " + absolute + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens a connection with the project's settings: foreign keys on, the policy's busy timeout,
     * synchronous=NORMAL (safe in WAL mode). The journal mode is deliberately not set here: switching
     * to WAL writes the file, and nothing may be written before the file has been inspected.
     */
    public static Connection open(Path file, RetryPolicy policy, boolean readOnly) throws SQLException {
        return DriverManager.getConnection(url(file), config(policy, readOnly).toProperties());
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
     * Reads the 100-byte header: refuses an empty file, a file that is not SQLite, and a file cut
     * short (its size is not a whole number of pages, or smaller than the page count the header
     * vouches for). The header is read without SQLite's locks, so an empty or short file is looked
     * at again a few times before it is refused: the Python agent's new file is empty until its
     * first write, and a commit or checkpoint that grows a file writes page 1 (the new size) before
     * the pages that follow.
     */
    private static void checkHeader(Path file) throws IOException {
        for (int look = 1; ; look++) {
            HeaderProblem problem = headerProblem(file);
            if (problem == null) {
                return;
            }
            if (!problem.mayBeMomentary() || look == HEADER_LOOKS) {
                throw new NotAHermesDatabaseException(problem.message());
            }
            try {
                Thread.sleep(HEADER_LOOK_PAUSE_MILLIS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new NotAHermesDatabaseException(problem.message());
            }
        }
    }

    /** A write-ahead log beside the file with frames after its header: it may carry committed pages. */
    private static boolean hasLog(Path file) throws IOException {
        Path log = Path.of(file + "-wal");
        return Files.isRegularFile(log) && Files.size(log) > WAL_HEADER_BYTES;
    }

    /** Why a file is refused; {@code mayBeMomentary} when a concurrent writer can cause it for an instant. */
    private record HeaderProblem(String message, boolean mayBeMomentary) {
    }

    private static HeaderProblem headerProblem(Path file) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            return new HeaderProblem(file + " is an empty (zero-length) file, not a Hermes database;"
                    + " delete it to start a new store", true);
        }
        byte[] header = new byte[100];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(header, 0, header.length);
        }
        if (read < MAGIC.length || !Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new HeaderProblem(file + " is not a SQLite database (wrong file header)", false);
        }
        if (read < header.length) {
            return new HeaderProblem(file + " is a truncated SQLite database (" + size + " bytes)", true);
        }
        ByteBuffer buffer = ByteBuffer.wrap(header);
        int pageSize = Short.toUnsignedInt(buffer.getShort(16));
        if (pageSize == 1) {
            pageSize = 65536;
        }
        if (pageSize < 512 || Integer.bitCount(pageSize) != 1) {
            return new HeaderProblem(file + " has a corrupt SQLite header (page size " + pageSize + ")", false);
        }
        long pageCount = Integer.toUnsignedLong(buffer.getInt(28));
        boolean pageCountValid = buffer.getInt(24) == buffer.getInt(92);
        boolean shortByWholePages = size % pageSize == 0 && pageCountValid && size < pageCount * pageSize;
        if (shortByWholePages && hasLog(file)) {
            // A checkpoint killed half-way: page 1 (the new size) was copied, later pages not yet.
            // They are still in the write-ahead log, which SQLite's recovery reads them from; a log
            // that belongs to another database is caught later, by the integrity check of foreign logs.
            return null;
        }
        if (size % pageSize != 0 || (pageCountValid && pageCount > 0 && size < pageCount * pageSize)) {
            return new HeaderProblem(file + " is a truncated SQLite database (" + size + " bytes, page size " + pageSize
                    + (pageCountValid ? ", " + pageCount + " pages expected" : "") + ")", true);
        }
        return null;
    }
}
