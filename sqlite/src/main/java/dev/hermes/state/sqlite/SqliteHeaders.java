package dev.hermes.state.sqlite;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.StateIOException;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a state.db's bytes say: whether SQLite accepts the file, and in words why not (its 100-byte
 * header: not SQLite, a corrupt header, cut short), what the header claims (page size and count, the
 * change counter), and whether the write-ahead log beside it belongs to it (the {@code -wal}'s header
 * against the {@code -shm}'s, sqlite.org/walformat.html).
 *
 * <p>Whether a file is a sound SQLite database is SQLite's verdict (it reads the file under its own
 * locks); this class adds what SQLite lets pass (a size that is not whole pages) from the file's size
 * alone, and words SQLite's refusals. The raw reads go through {@link LiveFiles}, which skips them
 * while this process has the file open through SQLite.
 */
public final class SqliteHeaders {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = 100;
    /** Write-ahead log and wal-index layouts (sqlite.org/walformat.html). */
    private static final int WAL_HEADER_BYTES = 32;
    private static final int WAL_SALTS = 16;
    private static final int SHM_HEADER_BYTES = 48;
    private static final int SHM_IS_INIT = 12;
    private static final int SHM_SALTS = 32;

    private SqliteHeaders() {
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
                SqliteFile.lookAgain(look, file.toAbsolutePath() + " is a truncated SQLite database (" + size + " bytes, page size "
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

    /** A write-ahead log beside the file with frames after its header: it may carry committed pages. */
    static boolean hasLog(Path file) throws IOException {
        Path log = LiveFiles.companion(file, "-wal");
        return Files.isRegularFile(log) && Files.size(log) > WAL_HEADER_BYTES;
    }

    private static long pragma(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA " + name)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
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
}
