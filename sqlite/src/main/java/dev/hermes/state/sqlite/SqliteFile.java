package dev.hermes.state.sqlite;

import org.jspecify.annotations.Nullable;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.io.IOException;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The file-level rules of a state.db: a new file (and so its {@code -wal}/{@code -shm}, which SQLite
 * creates with the database's mode) is owner-only; an empty, foreign, truncated or read-only file is
 * refused with a typed error and left byte-for-byte unchanged. Also opens the JDBC connections every
 * part of the project uses, so they all agree on settings.
 *
 * <p>Whether a file is a sound SQLite database is SQLite's verdict (it reads the file under its own
 * locks); this class adds what SQLite lets pass (an empty file, a size that is not whole pages) from
 * the file's size alone, and words SQLite's refusals. Every connection and every raw read goes through
 * {@link LiveFiles}, which keeps Java I/O away from files this process has open through SQLite.
 */
public final class SqliteFile {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    /** An empty or short file is looked at this often, this far apart, before it is refused (see lookAgain). */
    private static final int HEADER_LOOKS = 5;
    private static final int HEADER_BYTES = 100;
    /** Write-ahead log and wal-index layouts (sqlite.org/walformat.html). */
    private static final int WAL_HEADER_BYTES = 32;
    private static final int WAL_SALTS = 16;
    private static final int SHM_HEADER_BYTES = 48;
    private static final int SHM_IS_INIT = 12;
    private static final int SHM_SALTS = 32;
    private static final long HEADER_LOOK_PAUSE_MILLIS = 20;
    /** The database file and the companions SQLite keeps beside it, by the suffix of their names. */
    private static final List<String> FILE_AND_COMPANIONS = List.of("", "-wal", "-shm", "-journal");

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

    /**
     * True when {@code file}-wal holds frames that no wal-index ({@code -shm}) of this file vouches for.
     * SQLite cannot tell a write-ahead log that belongs to another database: the first connection
     * replays whatever frames it finds, and a read-write connection folds them into the file when it
     * closes. A log a live connection (or a crashed one) wrote for this file is indexed in the
     * {@code -shm} under the same salts as the log's header; one copied from elsewhere, or left without
     * its index, is not, and must be checked before anything trusts it. Costs two small raw reads,
     * which {@link LiveFiles} skips while this process has the file open: its log is then the one
     * SQLite is already using here, not a stranger.
     */
    public static boolean hasUnindexedWal(Path file) {
        try {
            if (!hasLog(file)) {
                return false;
            }
            Optional<byte[]> walHeader = LiveFiles.readPrefix(file, "-wal", WAL_HEADER_BYTES);
            if (walHeader.isEmpty()) {
                return false;
            }
            byte[] log = walHeader.get();
            int magic = log.length < WAL_HEADER_BYTES ? 0 : ByteBuffer.wrap(log).getInt(0);
            if (magic != 0x377f0682 && magic != 0x377f0683) {
                return false; // SQLite ignores a log without a valid header
            }
            Optional<byte[]> indexHeader = LiveFiles.readPrefix(file, "-shm", SHM_HEADER_BYTES);
            if (indexHeader.isEmpty()) {
                return false;
            }
            byte[] index = indexHeader.get();
            if (index.length < SHM_HEADER_BYTES || index[SHM_IS_INIT] == 0) {
                return true;
            }
            // the wal-index header keeps a raw copy of the log header's two salts
            return !Arrays.equals(index, SHM_SALTS, SHM_SALTS + 8, log, WAL_SALTS, WAL_SALTS + 8);
        } catch (IOException unreadable) {
            return true;
        }
    }

    /**
     * The page size and page count the database header claims (bytes 16-17 and 28-31), read raw: a file
     * shorter than that was cut short. Empty when the header cannot be read safely now.
     */
    public static Optional<long[]> headerPages(Path file) {
        try {
            Optional<byte[]> header = LiveFiles.readPrefix(file, "", HEADER_BYTES);
            if (header.isEmpty() || header.get().length < HEADER_BYTES) {
                return Optional.empty();
            }
            ByteBuffer bytes = ByteBuffer.wrap(header.get());
            int pageSize = bytes.getShort(16) & 0xffff;
            return Optional.of(new long[] {pageSize == 1 ? 65536 : pageSize, bytes.getInt(28) & 0xffffffffL});
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    /**
     * SQLite's file change counter (header bytes 24-27), which every commit to a file in rollback-journal
     * mode increments; empty when there is no such file, or when this process has it open.
     */
    public static Optional<Long> changeCounter(Path file) {
        try {
            Optional<byte[]> header = LiveFiles.readPrefix(file, "", 28);
            if (header.isEmpty() || header.get().length < 28) {
                return Optional.empty();
            }
            return Optional.of(ByteBuffer.wrap(header.get()).getInt(24) & 0xffffffffL);
        } catch (IOException unreadable) {
            return Optional.empty();
        }
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
     * The page size the {@code -wal}'s header claims, and the database header's, read raw: a log whose
     * page size is not the file's belongs to another database. Empty when there is no log with a valid
     * header, or when this process has the file open (then SQLite already uses that log here).
     */
    public static Optional<int[]> walAndFilePageSizes(Path file) {
        try {
            Optional<byte[]> walHeader = LiveFiles.readPrefix(file, "-wal", WAL_HEADER_BYTES);
            Optional<byte[]> header = LiveFiles.readPrefix(file, "", HEADER_BYTES);
            if (walHeader.isEmpty() || header.isEmpty() || walHeader.get().length < WAL_HEADER_BYTES
                    || header.get().length < HEADER_BYTES) {
                return Optional.empty();
            }
            ByteBuffer log = ByteBuffer.wrap(walHeader.get());
            int magic = log.getInt(0);
            if (magic != 0x377f0682 && magic != 0x377f0683) {
                return Optional.empty();
            }
            int filePageSize = ((header.get()[16] & 0xff) << 8) | (header.get()[17] & 0xff);
            return Optional.of(new int[] {log.getInt(8), filePageSize == 1 ? 65536 : filePageSize});
        } catch (IOException unreadable) {
            return Optional.empty();
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
            if (hasLog(absolute)) {
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

    /**
     * SQLite's verdict on the file, taken on a connection about to read it: its first read checks the
     * header, and a file SQLite will not read (not SQLite, corrupt, cut short) fails it with
     * SQLITE_NOTADB or SQLITE_CORRUPT; once the connection is closed, {@link #refusal} words that.
     * Then a size that is not a whole number of pages is refused, which SQLite only notices when it
     * reaches the last page; the size is looked at a few times first, since a file growing under a
     * writer can show a partial page for an instant.
     *
     * @throws NotAHermesDatabaseException the size is not whole pages
     * @throws SQLException                SQLite's own refusal, or any other failure of the read
     */
    public static void checkAccepted(Connection connection, Path file) throws SQLException {
        long pageCount = pragma(connection, "page_count"); // a read transaction: SQLite checks page 1
        long pageSize = pragma(connection, "page_size");
        try {
            for (int look = 1; ; look++) {
                long size = Files.size(file);
                if (pageSize <= 0 || size % pageSize == 0) {
                    return;
                }
                lookAgain(look, file.toAbsolutePath() + " is a truncated SQLite database (" + size + " bytes, page size "
                        + pageSize + ", " + pageCount + " pages expected)");
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot read " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code failure} as the caller should throw it: a refusal of a file SQLite would not read
     * (SQLITE_NOTADB, SQLITE_CORRUPT), worded from the file's 100-byte header, or else {@code failure}
     * itself (also when the header cannot be read safely, or shows nothing wrong). Call it after the
     * connection that failed is closed: the header is read raw, which {@link LiveFiles} only allows
     * while no connection of this process is open on the file.
     */
    public static Exception refusal(Path file, Exception failure) {
        int code = SqliteErrors.primaryCode(failure);
        if (code != SqliteErrors.SQLITE_NOTADB && code != SqliteErrors.SQLITE_CORRUPT) {
            return failure;
        }
        try {
            HeaderProblem problem = headerProblem(file.toAbsolutePath());
            return problem == null ? failure : new NotAHermesDatabaseException(problem.message(), failure);
        } catch (IOException unreadable) {
            return failure;
        }
    }

    /**
     * Refuses a file whose header is not SQLite's, before a read-write connection would roll a hot
     * {@code -journal} back into it (SQLite replays a journal before it reads the header). Checked by
     * a raw read where that is safe; otherwise this process has the file open already and SQLite has
     * accepted it.
     */
    public static void refuseForeignHeader(Path file) {
        try {
            HeaderProblem problem = headerProblem(file.toAbsolutePath());
            if (problem != null && !problem.mayBeMomentary()) {
                throw new NotAHermesDatabaseException(problem.message());
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot read " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
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
     * Refuses an empty file (SQLite would take it for a new, empty database). Looked at a few times
     * before it is refused: the Python agent's new file is empty until its first write.
     */
    private static void checkNotEmpty(Path file) throws IOException {
        for (int look = 1; Files.size(file) == 0; look++) {
            lookAgain(look, file + " is an empty (zero-length) file, not a Hermes database; delete it to start a new store");
        }
    }

    /** Pauses before the next look at a file, or refuses it with {@code problem} after the last one. */
    private static void lookAgain(int look, String problem) {
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

    private static long pragma(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA " + name)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    /** A write-ahead log beside the file with frames after its header: it may carry committed pages. */
    private static boolean hasLog(Path file) throws IOException {
        Path log = LiveFiles.companion(file, "-wal");
        return Files.isRegularFile(log) && Files.size(log) > WAL_HEADER_BYTES;
    }

    /** Why a file is refused; {@code mayBeMomentary} when a concurrent writer can cause it for an instant. */
    private record HeaderProblem(String message, boolean mayBeMomentary) {
    }

    /**
     * What is wrong with the file's 100-byte header, read raw; null when nothing is, or when it
     * cannot be read safely (this process has the file open through SQLite, see {@link LiveFiles}).
     */
    private static @Nullable HeaderProblem headerProblem(Path file) throws IOException {
        long size = Files.size(file);
        Optional<byte[]> prefix = LiveFiles.readPrefix(file, "", HEADER_BYTES);
        if (prefix.isEmpty()) {
            return null;
        }
        byte[] header = prefix.get();
        int read = header.length;
        if (read < MAGIC.length || !Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new HeaderProblem(file + " is not a SQLite database (wrong file header)", false);
        }
        if (read < HEADER_BYTES) {
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
            // SQLite reads them from the write-ahead log; whatever it refused, it was not that.
            return null;
        }
        if (size % pageSize != 0 || (pageCountValid && pageCount > 0 && size < pageCount * pageSize)) {
            return new HeaderProblem(file + " is a truncated SQLite database (" + size + " bytes, page size " + pageSize
                    + (pageCountValid ? ", " + pageCount + " pages expected" : "") + ")", true);
        }
        return null;
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
