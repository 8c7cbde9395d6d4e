package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConnection;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The SQLite side of a backup: a page copy of one read snapshot (SQLite's online backup), the
 * incremental bring-up-to-date of an earlier backup, and what both are verified with.
 *
 * <p>Why the online backup and not {@code VACUUM INTO}: VACUUM INTO cannot run inside a transaction,
 * so the counts and the checksum the copy is verified against could not be taken from the snapshot
 * it copied. The online backup runs on a connection holding a read transaction and copies exactly
 * that snapshot (a writer in another process never makes it restart, since the snapshot does not
 * move); it is also about twice as fast (55 MB: 85 ms against 174 ms, measured), at the price of
 * copying free pages as well.
 *
 * <p>The {@linkplain Snapshot logical checksum} is SHA-256 over every table's name, columns, row count
 * and {@linkplain Sum sum} (one SHA-256 per row, values encoded with their SQLite type, added modulo
 * 2^256: independent of the order of the rows, so an incremental run brings it up to date from the
 * rows it changed); the FTS5 tables count with their rowid and columns, their shadow tables (whose
 * layout depends on the order of writes) and {@code sqlite_stat*} do not.
 */
public final class SqliteBackup {
    private static final int PAGES_PER_STEP = 4096;
    /** What a proportional verification does not check (SQLite's integrity checks read the whole file). */
    private static final String NOT_CHECKED = dev.hermes.state.core.model.BackupReport.NOT_CHECKED;
    /** The message columns that change in place without a change to their session's row. */
    private static final List<String> IN_PLACE = List.of("active", "compacted");
    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(256);
    private static final String VIRTUAL = "CREATE VIRTUAL TABLE";
    /** The tables in which FTS5 keeps an index (sqlite.org/fts5.html): derived, their layout depends on the order of writes. */
    private static final List<String> SHADOWS = List.of("_data", "_idx", "_content", "_docsize", "_config");

    private SqliteBackup() {
    }

    /** Row counts per table and the logical checksum (hex SHA-256) of one store's contents. */
    public record Snapshot(Map<String, Long> rows, String checksum, Map<String, String> tableChecksums) {
        public Snapshot {
            rows = Map.copyOf(rows);
            tableChecksums = Map.copyOf(tableChecksums);
            Objects.requireNonNull(checksum, "checksum");
        }
    }

    /** What a verification found in a backup file: its snapshot and SQLite's verdicts. */
    public record Verdict(Snapshot snapshot, String integrity, Map<String, String> fullText) {
        public Verdict {
            fullText = Map.copyOf(fullText);
        }
    }

    /** What an incremental update changed. */
    public record Changes(long sessionsAdded, long sessionsUpdated, long sessionsRemoved, long messagesAdded,
                          long messagesUpdated, long messagesRemoved, boolean fullComparison, Snapshot source,
                          Verdict backup, long verifyNanos, long rowsExamined) {
    }

    /**
     * One table's share of the checksum: its row count and the sum modulo 2^256 of one SHA-256 per row.
     * A sum, unlike a digest of the rows in order, can be brought up to date: minus the rows removed,
     * plus the rows added.
     */
    public record Sum(long rows, BigInteger sum) {
        public Sum {
            sum = sum.mod(MODULUS);
        }

        public static Sum of(long rows, String hex) {
            return new Sum(rows, new BigInteger(hex, 16));
        }

        Sum plus(Sum other) {
            return new Sum(rows + other.rows, sum.add(other.sum));
        }

        Sum minus(Sum other) {
            return new Sum(rows - other.rows, sum.subtract(other.sum));
        }

        public String hex() {
            String digits = sum.toString(16);
            return "0".repeat(64 - digits.length()) + digits;
        }
    }

    /**
     * Copies the store in {@code source} into {@code target} (an existing empty file, whose mode is
     * kept) from one read snapshot, and returns that snapshot's counts and checksum.
     */
    public static Snapshot copy(Path source, Path target, RetryPolicy policy) throws SQLException {
        try (Connection connection = SqliteConnections.open(source, policy, SqliteConnections.readAccess(source, policy));
             Statement statement = connection.createStatement()) {
            statement.execute("BEGIN");
            try {
                Snapshot snapshot = snapshot(connection, "main");
                int result = connection.unwrap(SQLiteConnection.class).getDatabase()
                        .backup("main", target.toString(), null, 50, 20, PAGES_PER_STEP);
                if (result != 0) {
                    throw new SQLException("SQLite's online backup of " + source + " failed: "
                            + org.sqlite.SQLiteErrorCode.getErrorCode(result).message, null, result);
                }
                return snapshot;
            } finally {
                statement.execute("ROLLBACK");
            }
        }
    }

    /**
     * Makes the backup file self-contained (rollback journal, no {@code -wal} beside it) and checks it:
     * {@code PRAGMA integrity_check}, each FTS5 table's {@code integrity-check}, counts and checksum.
     */
    public static Verdict verify(Path file, RetryPolicy policy) throws SQLException {
        try (Connection connection = SqliteConnections.open(file, policy, SqliteConnections.Access.READ_WRITE)) {
            strings(connection, "PRAGMA journal_mode=DELETE");
            return verdict(connection, "main");
        }
    }

    /**
     * Brings the backup {@code backup} up to date with {@code source} in one write transaction of the
     * backup and one read snapshot of the source: sessions new, changed or gone; messages after the
     * backup's largest id; the messages of changed sessions compared row by row; every other table
     * replaced. Verified before the commit (a failure rolls back, leaving the earlier backup as it
     * was); when the messages still differ, every message is compared once before giving up.
     */
    public static Changes update(Path backup, Path source, RetryPolicy policy, @Nullable Map<String, Sum> earlier,
                                 boolean verifyFull) throws SQLException {
        try (Connection connection = SqliteConnections.open(backup, policy, SqliteConnections.Access.READ_WRITE);
             Statement statement = connection.createStatement()) {
            strings(connection, "PRAGMA journal_mode=DELETE");
            statement.execute("PRAGMA foreign_keys=OFF"); // the end state is the source's, whatever the order of the steps
            try (PreparedStatement attach = connection.prepareStatement("ATTACH DATABASE ? AS src")) {
                attach.setString(1, "file:" + source.toAbsolutePath() + "?mode=ro");
                attach.execute();
            }
            try {
                checkSameSchema(connection);
                statement.execute("BEGIN");
                boolean committed = false;
                try {
                    Changes changes = new Updater(connection).run(earlier, verifyFull);
                    statement.execute("COMMIT");
                    committed = true;
                    return changes;
                } finally {
                    if (!committed) {
                        statement.execute("ROLLBACK");
                    }
                }
            } finally {
                statement.execute("DETACH DATABASE src");
            }
        }
    }

    /** An incremental update mirrors rows; a source whose tables, indexes or triggers changed needs a full backup. */
    private static void checkSameSchema(Connection connection) throws SQLException {
        String query = "SELECT type, name, tbl_name, coalesce(sql, '') FROM %s.sqlite_master"
                + " WHERE name NOT LIKE 'sqlite_stat%%' ORDER BY type, name";
        List<String> backup = strings(connection, query.formatted("main"));
        List<String> source = strings(connection, query.formatted("src"));
        if (!backup.equals(source)) {
            List<String> differing = new ArrayList<>(source);
            differing.removeAll(backup);
            List<String> gone = new ArrayList<>(backup);
            gone.removeAll(source);
            throw new InvalidArgumentException("The backup's schema differs from the source's (the source has "
                    + names(differing) + "; the backup " + names(gone) + "): it was migrated or changed since the backup."
                    + " Take a full backup (without --incremental)");
        }
        long backupVersion = version(connection, "main");
        long sourceVersion = version(connection, "src");
        if (backupVersion != sourceVersion) {
            throw new InvalidArgumentException("The backup is at schema version " + backupVersion + ", the source at "
                    + sourceVersion + ". Take a full backup (without --incremental)");
        }
    }

    private static String names(List<String> entries) {
        return entries.isEmpty() ? "nothing else" : entries.stream().map(entry -> entry.split("\u001f", -1)[1])
                .distinct().collect(Collectors.joining(", "));
    }

    private static long version(Connection connection, String schema) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT coalesce(max(version), 0) FROM " + schema + ".schema_version")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    // ------------------------------------------------------------------ the incremental update

    /** One update's statements, on the backup's connection with the source attached as {@code src}. */
    private static final class Updater {
        private final Connection connection;
        private final List<String> sessionColumns;
        private final List<String> messageColumns;

        Updater(Connection connection) throws SQLException {
            this.connection = connection;
            this.sessionColumns = columns(connection, "main", "sessions");
            this.messageColumns = columns(connection, "main", "messages");
        }

        private final long[] examined = new long[1];

        Changes run(@Nullable Map<String, Sum> earlier, boolean verifyFull) throws SQLException {
            long backupMaxId = single("SELECT coalesce(max(id), 0) FROM main.messages");
            execute("CREATE TEMP TABLE IF NOT EXISTS backup_gone(id TEXT PRIMARY KEY)");
            execute("CREATE TEMP TABLE IF NOT EXISTS backup_changed(id TEXT PRIMARY KEY)");
            execute("CREATE TEMP TABLE IF NOT EXISTS backup_touched(id INTEGER PRIMARY KEY)");
            execute("DELETE FROM temp.backup_gone");
            execute("DELETE FROM temp.backup_changed");
            execute("DELETE FROM temp.backup_touched");
            // The source's snapshot starts with this first read of it.
            execute("INSERT INTO temp.backup_gone SELECT id FROM main.sessions WHERE id NOT IN (SELECT id FROM src.sessions)");
            execute("INSERT INTO temp.backup_changed SELECT s.id FROM src.sessions s JOIN main.sessions b ON b.id = s.id"
                    + " WHERE " + differs(sessionColumns, "s", "b"));
            // The messages that may differ: of sessions gone or changed (either side), and every id above the backup's largest.
            execute("INSERT OR IGNORE INTO temp.backup_touched SELECT id FROM main.messages WHERE session_id IN"
                    + " (SELECT id FROM temp.backup_gone UNION ALL SELECT id FROM temp.backup_changed)");
            execute("INSERT OR IGNORE INTO temp.backup_touched SELECT id FROM src.messages WHERE session_id IN"
                    + " (SELECT id FROM temp.backup_changed)");
            execute("INSERT OR IGNORE INTO temp.backup_touched SELECT id FROM src.messages WHERE id > " + backupMaxId);
            // The changes in place that show in no session row (an undo of a rewind flips active only): the
            // flags are compared for every message, natively, without reading the rows into the checksum.
            List<String> flags = messageColumns.stream().filter(IN_PLACE::contains).toList();
            boolean fullComparison = !flags.isEmpty() && execute("INSERT OR IGNORE INTO temp.backup_touched SELECT s.id"
                    + " FROM src.messages s JOIN main.messages b ON b.id = s.id WHERE " + differs(flags, "s", "b")) > 0;
            long verifyStart = System.nanoTime();
            List<Table> tables = tables(connection, "main");
            List<Table> followers = tables.stream().filter(table -> table.virtual() || table.name().equals("messages")).toList();
            Map<String, Sum> known = earlier == null ? Map.of() : earlier;
            boolean proportional = earlier != null && tables.stream().allMatch(table -> known.containsKey(table.name()));
            Map<String, Sum> before = new LinkedHashMap<>();
            if (proportional) {
                for (Table table : followers) {
                    before.put(table.name(), touched(table, "main"));
                }
            }
            long verifyNanos = System.nanoTime() - verifyStart;

            long sessionsRemoved = execute("DELETE FROM main.sessions WHERE id IN (SELECT id FROM temp.backup_gone)");
            String sessionList = String.join(", ", quoted(sessionColumns));
            long sessionsUpdated = execute("UPDATE main.sessions SET (" + sessionList + ") = (SELECT " + sessionList
                    + " FROM src.sessions s WHERE s.id = main.sessions.id) WHERE id IN (SELECT id FROM temp.backup_changed)");
            long sessionsAdded = execute("INSERT INTO main.sessions (" + sessionList + ") SELECT " + sessionList
                    + " FROM src.sessions WHERE id NOT IN (SELECT id FROM main.sessions) ORDER BY rowid");
            long[] messages = syncTouched();
            replaceSmallTables();

            verifyStart = System.nanoTime();
            Snapshot source;
            Verdict backup;
            if (proportional) {
                Map<String, Sum> sums = new LinkedHashMap<>();
                for (Table table : tables) {
                    Sum now;
                    Sum theirs;
                    if (followers.contains(table)) {
                        now = touched(table, "main");
                        theirs = touched(table, "src");
                        sums.put(table.name(), Objects.requireNonNull(known.get(table.name()))
                                .minus(Objects.requireNonNull(before.get(table.name()))).plus(now));
                    } else {
                        now = sum(connection, "SELECT " + String.join(", ", values(table)) + " FROM main."
                                + quote(table.name()), examined);
                        theirs = sum(connection, "SELECT " + String.join(", ", values(table)) + " FROM src."
                                + quote(table.name()), examined);
                        sums.put(table.name(), now);
                    }
                    if (!now.equals(theirs)) {
                        throw new HermesStateException(ErrorType.INTERNAL, "The backup's " + table.name() + " rows written"
                                + " by the update differ from the source's (" + now.rows() + " rows against " + theirs.rows()
                                + "): the backup was left as it was");
                    }
                }
                long sourceMessages = single("SELECT count(*) FROM src.messages");
                long backupMessages = single("SELECT count(*) FROM main.messages");
                long expected = Objects.requireNonNull(sums.get("messages"), "messages").rows();
                if (sourceMessages != expected || backupMessages != expected) {
                    throw new HermesStateException(ErrorType.INTERNAL, "The backup's manifest and the update account for "
                            + expected + " messages, the backup has " + backupMessages + " and the source "
                            + sourceMessages + ": the backup was left as it was; take a full backup");
                }
                Snapshot computed = snapshot(tables, sums);
                source = computed;
                Map<String, String> fullText = new TreeMap<>();
                tables.stream().filter(table -> table.virtual() && table.sql().toLowerCase(java.util.Locale.ROOT)
                        .contains("fts5")).forEach(table -> fullText.put(table.name(), NOT_CHECKED));
                backup = new Verdict(computed, NOT_CHECKED, fullText);
                if (verifyFull) {
                    source = snapshot(connection, "src", examined);
                    backup = verdict(connection, "main", examined);
                    if (!computed.checksum().equals(backup.snapshot().checksum())) {
                        throw new HermesStateException(ErrorType.INTERNAL, "The backup's checksum brought up to date from"
                                + " its manifest (" + computed.checksum() + ") is not the one read from the backup ("
                                + backup.snapshot().checksum() + "): the manifest does not describe it; take a full backup");
                    }
                    check(source, backup);
                }
            } else {
                source = snapshot(connection, "src", examined);
                backup = verdict(connection, "main", examined);
                if (!backup.snapshot().checksum().equals(source.checksum())) {
                    // No sums to go by, and a difference outside the touched rows (a backup changed by hand since):
                    // every message is compared once.
                    fullComparison = true;
                    execute("INSERT OR IGNORE INTO temp.backup_touched SELECT id FROM main.messages");
                    execute("INSERT OR IGNORE INTO temp.backup_touched SELECT id FROM src.messages");
                    long[] again = syncTouched();
                    for (int i = 0; i < messages.length; i++) {
                        messages[i] += again[i];
                    }
                    replaceSequence();
                    backup = verdict(connection, "main", examined);
                }
                check(source, backup);
            }
            verifyNanos += System.nanoTime() - verifyStart;
            return new Changes(sessionsAdded, sessionsUpdated, sessionsRemoved, messages[2], messages[1], messages[0],
                    fullComparison, source, backup, verifyNanos, examined[0]);
        }

        /** Removed, updated and added messages among the touched ids: the backup's made the source's. */
        private long[] syncTouched() throws SQLException {
            String list = String.join(", ", quoted(messageColumns));
            long removed = execute("DELETE FROM main.messages WHERE id IN (SELECT id FROM temp.backup_touched)"
                    + " AND NOT EXISTS (SELECT 1 FROM src.messages s WHERE s.id = main.messages.id)");
            long updated = execute("UPDATE main.messages SET (" + list + ") = (SELECT " + list
                    + " FROM src.messages s WHERE s.id = main.messages.id) WHERE id IN (SELECT s.id FROM temp.backup_touched t"
                    + " JOIN src.messages s ON s.id = t.id JOIN main.messages b ON b.id = s.id WHERE "
                    + differs(messageColumns, "s", "b") + ")");
            long added = execute("INSERT INTO main.messages (" + list + ") SELECT " + quoted("s", messageColumns)
                    + " FROM temp.backup_touched t JOIN src.messages s ON s.id = t.id"
                    + " WHERE NOT EXISTS (SELECT 1 FROM main.messages b WHERE b.id = s.id) ORDER BY s.id");
            return new long[] {removed, updated, added};
        }

        /** The rows of a table that follows the messages (messages, their FTS5 tables) among the touched ids. */
        private Sum touched(Table table, String schema) throws SQLException {
            String key = table.virtual() ? "rowid" : "id";
            String values = values(table).stream().map(value -> "f." + value).collect(Collectors.joining(", "));
            return sum(connection, "SELECT " + values + " FROM temp.backup_touched t JOIN " + schema + "."
                    + quote(table.name()) + " f ON f." + key + " = t.id", examined);
        }

        /** Every table but sessions, messages and the FTS5 tables (kept by the backup's triggers): small, replaced whole. */
        private void replaceSmallTables() throws SQLException {
            for (Table table : tables(connection, "main")) {
                if (table.virtual() || table.name().equals("sessions") || table.name().equals("messages")
                        || table.name().equals("sqlite_sequence")) {
                    continue;
                }
                String list = String.join(", ", quoted(table.columns()));
                execute("DELETE FROM main." + quote(table.name()));
                execute("INSERT INTO main." + quote(table.name()) + " (" + list + ") SELECT " + list + " FROM src."
                        + quote(table.name()));
            }
            replaceSequence();
        }

        /** The source's id high-water marks (ids of deleted messages are never handed out again). */
        private void replaceSequence() throws SQLException {
            execute("DELETE FROM main.sqlite_sequence");
            execute("INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM src.sqlite_sequence");
        }

        /** Runs a change and returns the rows it changed itself (changes(): the FTS triggers' rows not counted). */
        private long execute(String sql) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(sql);
            }
            return single("SELECT changes()");
        }

        private long single(String sql) throws SQLException {
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    /**
     * A backup that is not the source's copy, or that SQLite finds damaged, fails: typed, and (for an
     * update) before the commit.
     */
    public static void check(Snapshot source, Verdict backup) {
        if (!"ok".equals(backup.integrity())) {
            throw new HermesStateException(ErrorType.INTERNAL, "The backup fails SQLite's integrity check: "
                    + backup.integrity());
        }
        if (!backup.snapshot().checksum().equals(source.checksum())) {
            List<String> differing = new ArrayList<>();
            for (Map.Entry<String, String> table : source.tableChecksums().entrySet()) {
                if (!table.getValue().equals(backup.snapshot().tableChecksums().get(table.getKey()))) {
                    differing.add(table.getKey() + " (" + source.rows().get(table.getKey()) + " rows in the source, "
                            + backup.snapshot().rows().get(table.getKey()) + " in the backup)");
                }
            }
            backup.snapshot().rows().keySet().stream().filter(name -> !source.rows().containsKey(name))
                    .forEach(name -> differing.add(name + " (only in the backup)"));
            throw new HermesStateException(ErrorType.INTERNAL, "The backup differs from the source's snapshot in "
                    + String.join(", ", differing) + " (checksum " + backup.snapshot().checksum() + ", the source's "
                    + source.checksum() + ")");
        }
    }

    private static String differs(List<String> columns, String left, String right) {
        return columns.stream().map(column -> left + "." + quote(column) + " IS NOT " + right + "." + quote(column))
                .collect(Collectors.joining(" OR "));
    }

    // ------------------------------------------------------------------ verification and checksum

    private static Verdict verdict(Connection connection, String schema) throws SQLException {
        return verdict(connection, schema, new long[1]);
    }

    private static Verdict verdict(Connection connection, String schema, long[] examined) throws SQLException {
        // SQLite's check also runs each FTS5 index's own check; those verdicts are reported with the
        // full-text checks (a page copy has the source's index as the source has it), the rest decides.
        List<String> problems = strings(connection, "PRAGMA " + schema + ".integrity_check");
        List<String> pages = problems.stream().filter(line -> !line.contains("FTS5 table")).toList();
        String integrity = pages.isEmpty() ? "ok" : String.join("; ", pages);
        Map<String, String> fullText = new TreeMap<>();
        for (Table table : tables(connection, schema)) {
            if (table.virtual() && table.sql().toLowerCase(java.util.Locale.ROOT).contains("fts5")) {
                fullText.put(table.name(), fullTextCheck(connection, schema, table.name()));
            }
        }
        return new Verdict(snapshot(connection, schema, examined), integrity, fullText);
    }

    /** FTS5's own check of one index against its content: "ok" or SQLite's message. */
    private static String fullTextCheck(Connection connection, String schema, String table) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SAVEPOINT backup_fts_check");
            try {
                statement.execute("INSERT INTO " + schema + "." + quote(table) + " (" + quote(table) + ", rank)"
                        + " VALUES ('integrity-check', 1)");
                return "ok";
            } catch (SQLException failed) {
                return String.valueOf(failed.getMessage());
            } finally {
                statement.execute("ROLLBACK TO backup_fts_check");
                statement.execute("RELEASE backup_fts_check");
            }
        }
    }

    /** Counts and the logical checksum of every table of {@code schema}, read on {@code connection}'s transaction. */
    public static Snapshot snapshot(Connection connection, String schema) throws SQLException {
        return snapshot(connection, schema, new long[1]);
    }

    private static Snapshot snapshot(Connection connection, String schema, long[] examined) throws SQLException {
        Map<String, Sum> sums = new LinkedHashMap<>();
        for (Table table : tables(connection, schema)) {
            sums.put(table.name(), sum(connection, "SELECT " + String.join(", ", values(table)) + " FROM " + schema + "."
                    + quote(table.name()), examined));
        }
        return snapshot(tables(connection, schema), sums);
    }

    /**
     * The store's checksum from its tables' sums: SHA-256 over every table in name order, each as its
     * name, column names, row count and sum.
     */
    static Snapshot snapshot(List<Table> tables, Map<String, Sum> sums) {
        MessageDigest total = sha256();
        Map<String, Long> rows = new LinkedHashMap<>();
        Map<String, String> tableChecksums = new LinkedHashMap<>();
        for (Table table : tables) {
            Sum sum = Objects.requireNonNull(sums.get(table.name()), table.name());
            rows.put(table.name(), sum.rows());
            tableChecksums.put(table.name(), sum.hex());
            total.update((table.name() + '\u0000' + String.join("\u0001", table.columns()) + '\u0000' + sum.rows()
                    + '\u0000' + sum.hex() + '\n').getBytes(StandardCharsets.UTF_8));
        }
        return new Snapshot(rows, HexFormat.of().formatHex(total.digest()), tableChecksums);
    }

    /** A table's values as the checksum reads them: an FTS5 table's rowid first (it is the message's id). */
    private static List<String> values(Table table) {
        List<String> values = new ArrayList<>();
        if (table.virtual()) {
            values.add("rowid");
        }
        values.addAll(quoted(table.columns()));
        return values;
    }

    /** The rows {@code query} returns as a {@link Sum}; {@code examined[0]} counts them. */
    private static Sum sum(Connection connection, String query, long[] examined) throws SQLException {
        MessageDigest digest = sha256();
        BigInteger sum = BigInteger.ZERO;
        long count = 0;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(query)) {
            int width = result.getMetaData().getColumnCount();
            while (result.next()) {
                for (int i = 1; i <= width; i++) {
                    encode(digest, result, i);
                }
                sum = sum.add(new BigInteger(1, digest.digest()));
                count++;
            }
        }
        examined[0] += count;
        return new Sum(count, sum);
    }

    /** One value with its SQLite storage class: an integer 1 and a real 1.0 differ, as do text and blob. */
    private static void encode(MessageDigest digest, ResultSet result, int column) throws SQLException {
        Object value = result.getObject(column);
        if (value == null) {
            digest.update((byte) 0);
        } else if (value instanceof Integer || value instanceof Long) {
            digest.update((byte) 1);
            digest.update(longBytes(((Number) value).longValue()));
        } else if (value instanceof Double || value instanceof Float) {
            digest.update((byte) 2);
            digest.update(longBytes(Double.doubleToLongBits(((Number) value).doubleValue())));
        } else {
            byte[] bytes = result.getBytes(column); // text as stored, even when it is not valid UTF-8
            digest.update((byte) (value instanceof String ? 3 : 4));
            digest.update(longBytes(bytes == null ? 0 : bytes.length));
            if (bytes != null) {
                digest.update(bytes);
            }
        }
    }

    private static byte[] longBytes(long value) {
        byte[] bytes = new byte[8];
        for (int i = 7; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JVM has SHA-256", impossible);
        }
    }

    /** A table whose rows a backup carries. */
    private record Table(String name, String sql, boolean virtual, List<String> columns, List<String> primaryKey) {
    }

    /**
     * The tables whose rows make a store's contents, by name: the ordinary tables (with
     * {@code sqlite_sequence}) and the FTS5 tables, without the FTS5 shadow tables and statistics.
     */
    private static List<Table> tables(Connection connection, String schema) throws SQLException {
        Map<String, String> all = new TreeMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT name, coalesce(sql, '') FROM " + schema
                     + ".sqlite_master WHERE type = 'table'")) {
            while (rows.next()) {
                all.put(rows.getString(1), rows.getString(2));
            }
        }
        List<String> virtual = all.entrySet().stream().filter(entry -> isVirtual(entry.getValue())).map(Map.Entry::getKey)
                .toList();
        List<Table> tables = new ArrayList<>();
        for (Map.Entry<String, String> entry : all.entrySet()) {
            String name = entry.getKey();
            boolean shadow = virtual.stream().anyMatch(owner -> SHADOWS.stream().anyMatch(suffix -> name.equals(owner + suffix)));
            if (shadow || name.startsWith("sqlite_stat")) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            TreeMap<Integer, String> key = new TreeMap<>();
            try (Statement statement = connection.createStatement();
                 ResultSet info = statement.executeQuery("PRAGMA " + schema + ".table_info(" + quote(name) + ")")) {
                while (info.next()) {
                    columns.add(info.getString("name"));
                    int pk = info.getInt("pk");
                    if (pk > 0) {
                        key.put(pk, info.getString("name"));
                    }
                }
            }
            tables.add(new Table(name, entry.getValue(), isVirtual(entry.getValue()), List.copyOf(columns),
                    List.copyOf(key.values())));
        }
        return tables;
    }

    private static boolean isVirtual(String sql) {
        return sql.regionMatches(true, 0, VIRTUAL, 0, VIRTUAL.length());
    }

    private static List<String> columns(Connection connection, String schema, String table) throws SQLException {
        return tables(connection, schema).stream().filter(candidate -> candidate.name().equals(table)).findFirst()
                .map(Table::columns).orElseThrow(() -> new InvalidArgumentException("The backup has no " + table + " table"));
    }

    private static List<String> strings(Connection connection, String sql) throws SQLException {
        List<String> result = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            int width = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                StringBuilder line = new StringBuilder();
                for (int i = 1; i <= width; i++) {
                    if (i > 1) {
                        line.append('\u001f');
                    }
                    line.append(rows.getString(i));
                }
                result.add(line.toString());
            }
        }
        return result;
    }

    private static String quoted(String alias, List<String> names) {
        return names.stream().map(name -> alias + "." + quote(name)).collect(Collectors.joining(", "));
    }

    private static List<String> quoted(List<String> names) {
        return names.stream().map(SqliteBackup::quote).toList();
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
