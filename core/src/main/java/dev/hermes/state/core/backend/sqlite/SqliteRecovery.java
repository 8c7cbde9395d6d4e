package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.SessionParents;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.RecoveryReport;
import dev.hermes.state.core.model.RecoveryReport.RowidRange;
import dev.hermes.state.core.model.RecoveryReport.SessionShortfall;
import dev.hermes.state.core.model.RecoveryReport.TableAccount;
import dev.hermes.state.core.model.RecoveryReport.TableSalvage;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.sqlite.SqliteFile;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code hermes-state recover}: salvages every row of a damaged SQLite file that can still be read into
 * a new store. Each table is walked in rowid order; where a read fails (a damaged page), the first
 * readable rowid after it is found by bisection, the range in between is reported lost and the walk
 * goes on, so one bad page costs its own rows only. Sessions are written before messages, parents first
 * (a parent that was lost, or a cycle, leaves the link null); a message whose session was lost goes under
 * one placeholder session. Every other table both files have (state_meta, compression_locks, the
 * conversation windows) follows, walked the same way by rowid; a table without rowid is read in its
 * primary key's order up to the first damage, the rest reported lost (bisecting a composite text key is not
 * worth it for tables this small). A row that names a session or message not recovered is dropped and
 * counted: a window of a lost session, a window's entry for a lost message, a lock on a lost session.
 * The full-text tables are not copied (the triggers fill them) nor are sqlite_sequence and the migration
 * bookkeeping (the new store has its own). The new store's full-text index is filled by its triggers, its counters are
 * recounted from the rows, and the doctor checks it. The source is opened read-only and never written.
 */
public final class SqliteRecovery {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    /** Rows written per transaction of the new store. */
    private static final int BATCH = 5_000;
    /** Probing past a damaged range stops here: the rest of the table is unreadable. */
    private static final long FAR = 1L << 62;

    private SqliteRecovery() {
    }

    /** One walked table: the rows read (each a map of column to value, with its rowid) and the ranges lost. */
    private record Walk(List<Object[]> rows, List<RowidRange> lost, long highest) {
    }

    public static RecoveryReport recover(Path from, Path to, boolean inspectOnly, RetryPolicy policy, Clock clock) {
        Path source = from.toAbsolutePath();
        Path target = to.toAbsolutePath();
        SqliteFile.checkReadable(source);
        if (SqliteFile.isPartOf(target, source) || source.equals(target)) {
            throw new InvalidArgumentException("--to must be a new file, not the damaged one or its companions");
        }
        if (!inspectOnly && Files.exists(target)) {
            throw new InvalidArgumentException("--to " + target + " already exists; recover writes into a new file only");
        }
        try (Connection reader = openSource(source)) {
            List<String> sessionColumns = columns(reader, "sessions", source);
            List<String> messageColumns = columns(reader, "messages", source);
            int sourceVersion = (int) quietly(reader, "SELECT MAX(version) FROM schema_version");
            int targetVersion = sourceVersion > 0 && sourceVersion <= Migrator.KEPT_VERSION ? Migrator.KEPT_VERSION
                    : Migrator.LATEST_VERSION;
            long highestMessageId = quietly(reader, "SELECT seq FROM sqlite_sequence WHERE name = 'messages'");

            Walk sessions = walk(reader, "sessions", "rowid", sessionColumns);
            int id = sessionColumns.indexOf("id");
            int parent = sessionColumns.indexOf("parent_session_id");
            int counter = sessionColumns.indexOf("message_count");
            Map<String, Object[]> byId = new LinkedHashMap<>();
            for (Object[] row : sessions.rows()) {
                byId.put(String.valueOf(row[id]), row);
            }
            List<String> parentsDropped = new ArrayList<>();
            List<Object[]> ordered = parentsFirst(byId, parent, parentsDropped);

            Connection writer = null;
            PreparedStatement insertMessage = null;
            String placeholder = null;
            long orphans = 0;
            long recovered = 0;
            long compactedRecovered = 0;
            Map<String, Long> perSession = new HashMap<>();
            List<String> targetMessageColumns = messageColumns;
            try {
                if (!inspectOnly) {
                    Migrator.create().toVersion(targetVersion).migrate(target);
                    writer = SqliteConnections.open(target, policy, false);
                    List<String> targetSessions = SqliteDoctor.columns(writer, "sessions").stream().toList();
                    targetMessageColumns = messageColumns.stream().filter(SqliteDoctor.columns(writer, "messages")::contains).toList();
                    List<String> common = sessionColumns.stream().filter(targetSessions::contains).toList();
                    execute(writer, "BEGIN IMMEDIATE");
                    try (PreparedStatement insert = writer.prepareStatement(insert("sessions", common))) {
                        for (Object[] row : ordered) {
                            bind(insert, row, sessionColumns, common);
                            insert.executeUpdate();
                        }
                    }
                    execute(writer, "COMMIT");
                    insertMessage = writer.prepareStatement(insert("messages", targetMessageColumns));
                    execute(writer, "BEGIN IMMEDIATE");
                }
                Walk messages = walk(reader, "messages", "id", messageColumns);
                int sessionOf = messageColumns.indexOf("session_id");
                int compacted = messageColumns.indexOf("compacted");
                int timestamp = messageColumns.indexOf("timestamp");
                int messageId = messageColumns.indexOf("id");
                Set<Long> messageIds = new HashSet<>();
                long pending = 0;
                for (Object[] row : messages.rows()) {
                    String session = String.valueOf(row[sessionOf]);
                    if (!byId.containsKey(session)) {
                        if (placeholder == null) {
                            placeholder = "recovered-orphans-" + STAMP.format(clock.instant());
                        }
                        if (++orphans == 1 && writer != null) {
                            insertPlaceholder(writer, placeholder, row[timestamp] instanceof Number time
                                    ? time.doubleValue() : null, clock);
                        }
                        row[sessionOf] = placeholder;
                    }
                    recovered++;
                    if (row[messageId] instanceof Number number) {
                        messageIds.add(number.longValue());
                    }
                    boolean archived = compacted >= 0 && row[compacted] instanceof Number flag && flag.longValue() != 0;
                    if (archived) {
                        compactedRecovered++;
                    } else {
                        perSession.merge(String.valueOf(row[sessionOf]), 1L, Long::sum);
                    }
                    if (insertMessage != null && writer != null) {
                        bind(insertMessage, row, messageColumns, targetMessageColumns);
                        insertMessage.executeUpdate();
                        if (++pending % BATCH == 0) {
                            execute(writer, "COMMIT");
                            execute(writer, "BEGIN IMMEDIATE");
                        }
                    }
                }
                Set<String> sessionIds = new HashSet<>(byId.keySet());
                List<TableSalvage> others = new ArrayList<>();
                for (String table : otherTables(reader, writer)) {
                    others.add(salvage(reader, writer, table, sessionIds, messageIds));
                }
                if (writer != null) {
                    execute(writer, "UPDATE sqlite_sequence SET seq = MAX(seq, " + highestMessageId + ") WHERE name = 'messages'");
                    execute(writer, SqliteRepair.recount(targetVersion));
                    execute(writer, "COMMIT");
                    execute(writer, "PRAGMA wal_checkpoint(TRUNCATE)");
                }
                long counted = 0;
                List<SessionShortfall> shortfalls = new ArrayList<>();
                for (Object[] row : ordered) {
                    long count = counter >= 0 && row[counter] instanceof Number n ? n.longValue() : 0;
                    counted += count;
                    String sessionId = String.valueOf(row[id]);
                    long got = perSession.getOrDefault(sessionId, 0L);
                    if (got < count) {
                        shortfalls.add(new SessionShortfall(sessionId, count, got));
                    }
                }
                DoctorReport check = null;
                if (writer != null) {
                    if (insertMessage != null) {
                        insertMessage.close();
                        insertMessage = null;
                    }
                    writer.close();
                    writer = null;
                    check = SqliteDoctor.check(target, policy);
                }
                return new RecoveryReport(source.toString(), target.toString(), inspectOnly, targetVersion,
                        new TableAccount(sessions.rows().size(), sessions.highest(), sessions.highest(), sessions.lost()),
                        new TableAccount(recovered, counted + compactedRecovered, highestMessageId, messages.lost()),
                        placeholder, orphans, parentsDropped, shortfalls, check, others);
            } finally {
                if (insertMessage != null) {
                    insertMessage.close();
                }
                if (writer != null) {
                    writer.close();
                }
            }
        } catch (SQLException failure) {
            throw SqliteErrors.FAILURES.translate(failure, "recovering " + source + " into " + target);
        }
    }

    /**
     * The damaged file is read as it lies on disk: immutable (no lock, no {@code -shm} created beside it)
     * unless a {@code -wal} with frames lies beside it, whose commits only a read-only connection with
     * SQLite's locks can see; either way nothing is written to the file.
     */
    private static Connection openSource(Path source) throws SQLException {
        boolean log;
        try {
            Path wal = Path.of(source + "-wal");
            log = Files.exists(wal) && Files.size(wal) > 0;
        } catch (IOException e) {
            log = true;
        }
        return SqliteConnections.openForSalvage(source, !log);
    }

    private static List<String> columns(Connection reader, String table, Path source) {
        try {
            List<String> columns = new ArrayList<>(SqliteDoctor.columns(reader, table));
            if (columns.isEmpty()) {
                throw new NotAHermesDatabaseException(source + " has no readable " + table + " table: nothing can be"
                        + " salvaged from it by rowid (its schema page is lost)");
            }
            return columns;
        } catch (SQLException failure) {
            throw new NotAHermesDatabaseException(source + ": its schema cannot be read (" + failure.getMessage()
                    + "); nothing can be salvaged from it by rowid", failure);
        }
    }

    /**
     * Every readable row of {@code table} in rowid order. A failing read keeps the rows before it; the
     * first rowid from which reading works again is found by doubling steps, then bisection, and the
     * range before it is lost.
     */
    private static Walk walk(Connection reader, String table, String rowid, List<String> columns) throws SQLException {
        String select = "SELECT " + rowid + ", " + String.join(", ", quoted(columns)) + " FROM " + table + " WHERE "
                + rowid + " >= ? ORDER BY " + rowid;
        List<Object[]> rows = new ArrayList<>();
        List<RowidRange> lost = new ArrayList<>();
        long from = Long.MIN_VALUE;
        long highest = 0;
        // sqlite-jdbc closes a statement whose step failed: each read prepares its own
        while (true) {
            long last = from == Long.MIN_VALUE ? 0 : from - 1;
            try (PreparedStatement statement = reader.prepareStatement(select)) {
                statement.setLong(1, from);
                try (ResultSet result = statement.executeQuery()) {
                    while (result.next()) {
                        Object[] row = new Object[columns.size()];
                        for (int i = 0; i < row.length; i++) {
                            row[i] = result.getObject(i + 2);
                        }
                        last = result.getLong(1);
                        rows.add(row);
                        highest = Math.max(highest, last);
                    }
                }
                return new Walk(rows, lost, highest);
            } catch (SQLException failure) {
                if (!SqliteDoctor.isDamage(failure)) {
                    throw failure;
                }
            }
            long bad = last + 1;
            long good = nextReadable(reader, select + " LIMIT 1", bad, columns.size() + 1);
            if (good > FAR) {
                lost.add(new RowidRange(bad, Long.MAX_VALUE));
                return new Walk(rows, lost, highest);
            }
            lost.add(new RowidRange(bad, good - 1));
            from = good;
        }
    }

    /** The smallest rowid above {@code bad} from which a read works (past {@link #FAR} if none). */
    private static long nextReadable(Connection reader, String probe, long bad, int columns) throws SQLException {
        long step = 1;
        long low = bad;
        long high = bad + step;
        while (!readable(reader, probe, high, columns)) {
            low = high;
            step <<= 1;
            high = bad + step;
            if (high > FAR) {
                return FAR + 1;
            }
        }
        while (high - low > 1) {
            long middle = low + (high - low) / 2;
            if (readable(reader, probe, middle, columns)) {
                high = middle;
            } else {
                low = middle;
            }
        }
        return high;
    }

    private static boolean readable(Connection reader, String sql, long from, int columns) throws SQLException {
        try (PreparedStatement probe = reader.prepareStatement(sql)) {
            probe.setLong(1, from);
            ResultSet result = probe.executeQuery();
            if (result.next()) {
                for (int i = 1; i <= columns; i++) {
                    result.getObject(i);
                }
            }
            return true;
        } catch (SQLException failure) {
            if (!SqliteDoctor.isDamage(failure)) {
                throw failure;
            }
            return false;
        }
    }

    /**
     * The tables besides sessions and messages to salvage: those of the source that the new store has too
     * (all of the source's when inspecting), in the source's schema order; not the full-text tables and their
     * shadow tables, not SQLite's own, not schema_version or the migration bookkeeping, which the new store
     * was given by its migration. A source whose schema table cannot be read has none to offer.
     */
    private static List<String> otherTables(Connection reader, @Nullable Connection writer) throws SQLException {
        List<String> source;
        try {
            source = salvageable(reader);
        } catch (SQLException failure) {
            if (!SqliteDoctor.isDamage(failure)) {
                throw failure;
            }
            return List.of();
        }
        if (writer == null) {
            return source;
        }
        List<String> target = salvageable(writer);
        return source.stream().filter(target::contains).toList();
    }

    private static List<String> salvageable(Connection connection) throws SQLException {
        Map<String, String> tables = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")) {
            while (rows.next()) {
                tables.put(rows.getString(1), rows.getString(2) == null ? "" : rows.getString(2));
            }
        }
        List<String> virtual = tables.entrySet().stream()
                .filter(e -> e.getValue().toUpperCase(Locale.ROOT).startsWith("CREATE VIRTUAL")).map(Map.Entry::getKey).toList();
        List<String> kept = new ArrayList<>();
        for (String name : tables.keySet()) {
            String lower = name.toLowerCase(Locale.ROOT);
            boolean own = lower.equals("sessions") || lower.equals("messages") || lower.equals("schema_version")
                    || lower.startsWith("sqlite_") || lower.startsWith("databasechangelog");
            boolean fullText = virtual.stream().anyMatch(v -> name.equals(v) || name.startsWith(v + "_"));
            if (!own && !fullText) {
                kept.add(name);
            }
        }
        return kept;
    }

    /** Reads one other table, drops the rows whose session or message is gone, writes the rest. */
    private static TableSalvage salvage(Connection reader, @Nullable Connection writer, String table,
                                        Set<String> sessionIds, Set<Long> messageIds) throws SQLException {
        List<String> columns = new ArrayList<>(SqliteDoctor.columns(reader, table));
        if (columns.isEmpty()) {
            return new TableSalvage(table, 0, 0, List.of(), true);
        }
        String name = '"' + table + '"';
        List<Object[]> rows;
        List<RowidRange> lost = List.of();
        boolean stopped = false;
        if (withoutRowid(reader, table)) {
            rows = new ArrayList<>();
            try (Statement statement = reader.createStatement();
                 ResultSet result = statement.executeQuery("SELECT " + String.join(", ", quoted(columns)) + " FROM " + name)) {
                while (result.next()) {
                    Object[] row = new Object[columns.size()];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = result.getObject(i + 1);
                    }
                    rows.add(row);
                }
            } catch (SQLException failure) {
                if (!SqliteDoctor.isDamage(failure)) {
                    throw failure;
                }
                stopped = true;
            }
        } else {
            Walk walk = walk(reader, name, "rowid", columns);
            rows = walk.rows();
            lost = walk.lost();
        }
        // state_meta's keys are free text: only the tables that refer to sessions or messages are checked
        int session = table.equals("state_meta") ? -1 : columns.indexOf("session_id");
        int message = columns.indexOf("message_id");
        List<Object[]> kept = new ArrayList<>();
        for (Object[] row : rows) {
            boolean gone = (session >= 0 && !sessionIds.contains(String.valueOf(row[session])))
                    || (message >= 0 && !(row[message] instanceof Number id && messageIds.contains(id.longValue())));
            if (!gone) {
                kept.add(row);
            }
        }
        if (writer != null && !kept.isEmpty()) {
            List<String> common = columns.stream().filter(SqliteDoctor.columns(writer, table)::contains).toList();
            // OR REPLACE: a row the migration seeded under the same key gives way to the source's
            try (PreparedStatement insert = writer.prepareStatement("INSERT OR REPLACE" + insert(name, common).substring(6))) {
                for (Object[] row : kept) {
                    bind(insert, row, columns, common);
                    insert.executeUpdate();
                }
            }
            long sequence = quietly(reader, "SELECT seq FROM sqlite_sequence WHERE name = '" + table.replace("'", "''") + "'");
            if (sequence > 0) {
                execute(writer, "UPDATE sqlite_sequence SET seq = MAX(seq, " + sequence + ") WHERE name = '"
                        + table.replace("'", "''") + "'");
            }
        }
        return new TableSalvage(table, rows.size(), rows.size() - kept.size(), lost, stopped);
    }

    private static boolean withoutRowid(Connection reader, String table) throws SQLException {
        try (PreparedStatement statement = reader.prepareStatement("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            statement.setString(1, table);
            try (ResultSet result = statement.executeQuery()) {
                String sql = result.next() ? result.getString(1) : null;
                return sql != null && sql.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ").contains("WITHOUT ROWID");
            }
        }
    }

    /** Sessions in an order that puts each parent before its children; lost parents and cycles cleared. */
    private static List<Object[]> parentsFirst(Map<String, Object[]> byId, int parent, List<String> dropped) {
        Map<String, @Nullable String> parents = new HashMap<>();
        byId.forEach((id, row) -> parents.put(id, row[parent] == null ? null : String.valueOf(row[parent])));
        for (List<String> cycle : SessionParents.cycles(parents)) {
            parents.put(cycle.get(0), null);
            dropped.add(cycle.get(0));
        }
        Map<String, List<String>> children = new TreeMap<>();
        Deque<String> roots = new ArrayDeque<>();
        parents.forEach((id, p) -> {
            if (p != null && !parents.containsKey(p)) {
                dropped.add(id);
                parents.put(id, null);
            }
        });
        for (String id : byId.keySet()) {
            String p = parents.get(id);
            if (p == null) {
                roots.add(id);
            } else {
                children.computeIfAbsent(p, k -> new ArrayList<>()).add(id);
            }
        }
        dropped.sort(null);
        List<Object[]> ordered = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!roots.isEmpty()) {
            String id = roots.poll();
            if (!seen.add(id)) {
                continue;
            }
            Object[] row = byId.get(id);
            if (row != null) {
                if (parents.get(id) == null) {
                    row[parent] = null;
                }
                ordered.add(row);
            }
            roots.addAll(children.getOrDefault(id, List.of()));
        }
        return ordered;
    }

    private static void insertPlaceholder(Connection writer, String id, @Nullable Double startedAt, Clock clock)
            throws SQLException {
        try (PreparedStatement insert = writer.prepareStatement(
                "INSERT INTO sessions (id, source, started_at, title) VALUES (?, 'recovered', ?, ?)")) {
            insert.setString(1, id);
            insert.setDouble(2, startedAt != null ? startedAt : clock.millis() / 1000.0);
            insert.setString(3, "Recovered messages whose session was lost (" + id + ")");
            insert.executeUpdate();
        }
    }

    private static String insert(String table, List<String> columns) {
        return "INSERT INTO " + table + " (" + String.join(", ", quoted(columns)) + ") VALUES ("
                + String.join(", ", columns.stream().map(c -> "?").toList()) + ")";
    }

    private static void bind(PreparedStatement insert, Object[] row, List<String> rowColumns, List<String> columns)
            throws SQLException {
        for (int i = 0; i < columns.size(); i++) {
            insert.setObject(i + 1, row[rowColumns.indexOf(columns.get(i))]);
        }
    }

    private static List<String> quoted(List<String> columns) {
        return columns.stream().map(c -> '"' + c + '"').toList();
    }

    /** A value from a table that may be damaged or missing; 0 when it cannot be read. */
    private static long quietly(Connection reader, String sql) {
        try {
            return SqliteDoctor.longValue(reader, sql);
        } catch (SQLException unreadable) {
            return 0;
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
