package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.SessionParents;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.migrations.HermesSchema;
import dev.hermes.state.migrations.SchemaDefinitions;
import dev.hermes.state.sqlite.SqliteErrors;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.sqlite.SqliteFile;
import dev.hermes.state.sqlite.SqliteHeaders;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of a SQLite store ({@code hermes-state doctor}), on one read-only connection: nothing is
 * written, not even the journal mode. The file's own b-trees and FTS5's indexes are judged by SQLite's
 * {@code integrity_check}; what SQLite cannot know (the agent's counters, orphans and cycles, the
 * objects a version requires, a full-text index that misses rows because a trigger was missing) is
 * compared here against the rows, the counters by the agent's own write rules.
 */
public final class SqliteDoctor {
    /** Lines of {@code integrity_check} kept: enough to name every damaged object, not a flood. */
    private static final int INTEGRITY_LINES = 200;
    private static final long LARGE_WAL_BYTES = 64L * 1024 * 1024;
    private static final double LARGE_FREE_SHARE = 0.25;
    private static final long MIN_FREE_BYTES = 8L * 1024 * 1024;
    /** Session ids named in a finding's detail; the count says how many there are. */
    private static final int NAMED = 5;
    private static final Pattern FTS_LINE = Pattern.compile("FTS5 table main\\.(\\w+)|from table \"(\\w+)\"");
    private static final Pattern INDEX_LINE = Pattern.compile("(?:missing from|wrong # of entries in|in) index (\\w+)");

    /** The first version whose agent counts a message's tool calls as today's does (its files agree, earlier ones not). */
    static final int FIRST_TOOL_CALL_RULE = 4;

    /** The tool calls a message's {@code tool_calls} counts for, as the agent counts them when it appends. */
    static final String TOOL_CALLS = "CASE WHEN m.tool_calls IS NULL THEN 0 WHEN json_valid(m.tool_calls) "
            + "AND json_type(m.tool_calls) = 'array' THEN json_array_length(m.tool_calls) ELSE 1 END";

    private SqliteDoctor() {
    }

    /** The command that mends what repair can mend. */
    static String repairCommand(Path file) {
        return "hermes-state --db " + file + " repair";
    }

    /** The command that salvages a damaged file. */
    static String recoverCommand(Path file) {
        return "hermes-state recover --from " + file + " --to " + file + ".recovered";
    }

    /** Checks {@code file}; never writes it. */
    public static DoctorReport check(Path file, RetryPolicy policy) {
        Path absolute = file.toAbsolutePath();
        List<Finding> findings = new ArrayList<>();
        try {
            SqliteFile.checkReadable(absolute);
        } catch (RuntimeException unreadable) {
            findings.add(Finding.error("file.readable", absolute.toString(), String.valueOf(unreadable.getMessage()), null));
            return new DoctorReport(absolute.toString(), 0, findings);
        }
        checkWal(absolute, findings);
        SqliteHeaders.headerPages(absolute).ifPresent(header -> checkFileSize(absolute, header[0], header[1], findings));
        int version = 0;
        try (Connection connection = SqliteConnections.open(absolute, policy, true)) {
            version = checkOpen(connection, absolute, findings);
        } catch (SQLException failure) {
            findings.add(Finding.error("file.open", absolute.toString(), "SQLite cannot read the file: "
                    + failure.getMessage(), recoverCommand(absolute)));
        }
        return new DoctorReport(absolute.toString(), version, findings);
    }

    /** The checks on an open connection (also used on a connection a repair holds); returns the version. */
    static int checkOpen(Connection connection, Path file, List<Finding> findings) throws SQLException {
        long pageSize = longValue(connection, "PRAGMA page_size");
        long pages = longValue(connection, "PRAGMA page_count");
        String journalMode = stringValue(connection, "PRAGMA journal_mode");
        findings.add(Finding.ok("journal.mode", file.toString(), "journal mode " + journalMode
                + ("wal".equalsIgnoreCase(journalMode) ? "" : " (the agent switches the file to wal when it opens it)")));
        long free = longValue(connection, "PRAGMA freelist_count");
        if (free * pageSize >= MIN_FREE_BYTES && free >= pages * LARGE_FREE_SHARE) {
            findings.add(Finding.warning("file.freelist", file.toString(), free + " of " + pages + " pages are free ("
                    + (free * pageSize / (1024 * 1024)) + " MB)", "hermes-state --db " + file + " sessions prune --vacuum"));
        } else {
            findings.add(Finding.ok("file.freelist", file.toString(), free + " of " + pages + " pages free"));
        }
        Set<String> fullTextDamaged = checkIntegrity(connection, file, findings);
        Set<String> tables = names(connection, "table");
        if (!tables.contains("sessions") || !tables.contains("messages")) {
            findings.add(Finding.error("schema.table", file.toString(), "no Hermes sessions and messages tables "
                    + "could be read (tables: " + tables + ")", recoverCommand(file)));
            return 0;
        }
        int version = tables.contains("schema_version")
                ? (int) longValue(connection, "SELECT COALESCE(MAX(version), 0) FROM schema_version") : 0;
        int known = Math.max(1, Math.min(version, HermesSchema.newest()));
        findings.add(version > HermesSchema.newest()
                ? Finding.warning("schema.version", file.toString(), "version " + version + " is newer than "
                + HermesSchema.newest() + ", the newest known: checked as " + HermesSchema.newest(), null)
                : Finding.ok("schema.version", file.toString(), "version " + version));
        checkObjects(connection, file, known, findings);
        Set<String> messageColumns = columns(connection, "messages");
        guarded(file, "the full-text rows", findings,
                () -> checkFullText(connection, file, known, tables, fullTextDamaged, findings));
        guarded(file, "the counters", findings, () -> checkCounters(connection, file, messageColumns, known, findings));
        guarded(file, "the orphans", findings, () -> checkOrphans(connection, file, findings));
        return version;
    }

    private interface Check {
        void run() throws SQLException;
    }

    /** A check that reads rows on a damaged page cannot finish: that is a finding, and the next check runs. */
    private static void guarded(Path file, String what, List<Finding> findings, Check check) throws SQLException {
        try {
            check.run();
        } catch (SQLException failure) {
            if (!isDamage(failure)) {
                throw failure;
            }
            findings.add(Finding.error("file.unreadable", what, "could not be checked, rows on damaged pages: "
                    + failure.getMessage(), recoverCommand(file)));
        }
    }

    private static void checkWal(Path file, List<Finding> findings) {
        Path wal = Path.of(file + "-wal");
        long walBytes;
        try {
            walBytes = Files.exists(wal) ? Files.size(wal) : 0;
        } catch (IOException unreadable) {
            walBytes = 0;
        }
        Optional<int[]> sizes = SqliteHeaders.walAndFilePageSizes(file);
        if (sizes.isPresent() && sizes.get()[0] != sizes.get()[1]) {
            findings.add(Finding.error("wal.foreign", wal.toString(), "the log's page size is " + sizes.get()[0]
                    + ", the file's " + sizes.get()[1] + ": the log belongs to another database. Move "
                    + wal.getFileName() + " aside before anything opens the file", null));
        } else if (walBytes > 0 && SqliteHeaders.hasUnindexedWal(file)) {
            findings.add(Finding.warning("wal.unindexed", wal.toString(), "a log that no -shm vouches for lies beside the"
                    + " file (copied with it, or left by a crash); its frames are replayed on opening: if the file"
                    + " checks fine below, the log is its own", null));
        } else {
            findings.add(Finding.ok("wal.foreign", wal.toString(), walBytes == 0 ? "no log" : "the log is the file's"));
        }
        findings.add(walBytes > LARGE_WAL_BYTES
                ? Finding.warning("wal.size", wal.toString(), "the log holds " + walBytes / (1024 * 1024)
                + " MB not yet checkpointed into the file", repairCommand(file))
                : Finding.ok("wal.size", wal.toString(), walBytes + " bytes"));
    }

    private static void checkFileSize(Path file, long pageSize, long pages, List<Finding> findings) {
        try {
            long size = Files.size(file);
            if (pageSize > 0 && (size % pageSize != 0 || size / pageSize < pages)) {
                findings.add(Finding.error("file.truncated", file.toString(), size + " bytes where " + pages
                        + " pages of " + pageSize + " are expected: the file was cut short", recoverCommand(file)));
            }
        } catch (IOException unreadable) {
            findings.add(Finding.error("file.readable", file.toString(), String.valueOf(unreadable.getMessage()), null));
        }
    }

    /**
     * SQLite's {@code integrity_check}, split by what each line concerns: a full-text table (returned,
     * for {@link #checkFullText}), an index (repair rebuilds it from its table), or the data itself.
     */
    private static Set<String> checkIntegrity(Connection connection, Path file, List<Finding> findings) {
        List<String> lines = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA integrity_check(" + INTEGRITY_LINES + ")")) {
            while (rows.next()) {
                lines.add(rows.getString(1));
            }
        } catch (SQLException failure) {
            findings.add(Finding.error("file.integrity", file.toString(), "the integrity check stopped: "
                    + failure.getMessage(), recoverCommand(file)));
            return Set.of();
        }
        Map<String, List<String>> fullText = new LinkedHashMap<>();
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        List<String> data = new ArrayList<>();
        for (String line : lines) {
            if (line.equals("ok")) {
                continue;
            }
            Matcher fts = FTS_LINE.matcher(line);
            Matcher index = INDEX_LINE.matcher(line);
            if (fts.find()) {
                fullText.computeIfAbsent(fts.group(1) != null ? fts.group(1) : fts.group(2), t -> new ArrayList<>()).add(line);
            } else if (index.find() && !line.contains("Page ") && !line.startsWith("Tree ")) {
                indexes.computeIfAbsent(index.group(1), t -> new ArrayList<>()).add(line);
            } else {
                data.add(line);
            }
        }
        if (data.isEmpty()) {
            findings.add(Finding.ok("file.integrity", file.toString(), "the b-trees are sound"));
        } else {
            findings.add(Finding.error("file.integrity", file.toString(), data.size()
                    + (data.size() >= INTEGRITY_LINES ? "+" : "") + " problems in the file's b-trees, first: "
                    + data.get(0), recoverCommand(file)));
        }
        indexes.forEach((name, problems) -> findings.add(Finding.error("index.integrity", "index " + name,
                problems.size() + " entries disagree with the table, first: " + problems.get(0), repairCommand(file))));
        for (Map.Entry<String, List<String>> table : fullText.entrySet()) {
            findings.add(new Finding(Finding.Severity.ERROR, "fts.integrity", "table " + table.getKey(),
                    "its full-text index is damaged: " + table.getValue().get(0), repairCommand(file)));
        }
        return fullText.keySet();
    }

    private static void checkObjects(Connection connection, Path file, int version, List<Finding> findings)
            throws SQLException {
        List<String> missing = SchemaDefinitions.missing(connection, version);
        List<String> columns = new ArrayList<>();
        for (String object : missing) {
            String[] kind = object.split(" ", 2);
            boolean reshaped = object.endsWith("'s form");
            if (kind.length == 2 && kind[0].equals("trigger")) {
                String name = kind[1].split(" ", -1)[0];
                findings.add(Finding.error("fts.trigger", "trigger " + name, reshaped
                        ? "not in the form version " + version + " requires: search misses or mis-indexes new messages"
                        : "missing: messages written from now on are not indexed for search", repairCommand(file)));
            } else if (kind.length == 2 && kind[0].equals("index") && onMissingColumn(version, kind[1], missing)) {
                columns.add(object);
            } else if (kind.length == 2 && kind[0].equals("index")) {
                findings.add(Finding.warning("schema.index", "index " + kind[1], "missing: the queries that use it scan"
                        + " the table", repairCommand(file)));
            } else if (kind.length == 2 && kind[0].equals("table")) {
                String name = kind[1].split(" ", -1)[0];
                boolean fullText = name.startsWith("messages_fts");
                findings.add(Finding.error(fullText ? "fts.table" : "schema.table", "table " + name,
                        reshaped ? "not in the form version " + version + " requires" : "missing",
                        fullText ? repairCommand(file) : "hermes-state --db " + file + " migrate"));
            } else {
                columns.add(object);
            }
        }
        if (!columns.isEmpty()) {
            // the agent's own files at a version lack columns its later releases added at that version; reads
            // take their defaults and the next read-write open adds them, so this is no problem
            findings.add(Finding.ok("schema.columns", columns.size() + " columns and indexes", "not yet added (the next read-write"
                    + " open or hermes-state migrate adds them): " + named(columns)));
        }
        if (missing.isEmpty()) {
            findings.add(Finding.ok("schema.objects", file.toString(), "every table, column, index and trigger of version "
                    + version + " is there"));
        }
    }

    /** The index is defined over a column the file does not have yet: it comes with that column. */
    private static boolean onMissingColumn(int version, String index, List<String> missing) {
        String definition = SchemaDefinitions.create(version, index).orElse("");
        return missing.stream().filter(m -> m.startsWith("sessions.") || m.startsWith("messages."))
                .map(m -> m.substring(m.indexOf('.') + 1))
                .anyMatch(column -> Pattern.compile("\\b" + column + "\\b").matcher(definition).find());
    }

    /**
     * Beyond FTS5's own check: an index that keeps its own text (version 11 on) and lacks rows of
     * messages, or keeps rows of messages that are gone, answers searches wrongly with a sound structure.
     */
    private static void checkFullText(Connection connection, Path file, int version, Set<String> tables,
                                      Set<String> damaged, List<Finding> findings) throws SQLException {
        for (String table : fullTextTables(version)) {
            if (!tables.contains(table)) {
                continue;
            }
            if (damaged.contains(table)) {
                if (table.endsWith("_trigram") && hasStructuredContent(connection)) {
                    // see docs/schema-versions.md: an older SQLite leaves rows of structured content out of
                    // this index, and 3.54's check counts that as damage; search answers are the same
                    findings.removeIf(f -> f.code().equals("fts.integrity") && f.subject().equals("table " + table));
                    findings.add(Finding.ok("fts.integrity", "table " + table, "sound but for the rows of structured "
                            + "content an older SQLite (the agent's) does not index: search answers are unaffected"));
                }
                continue;
            }
            // an index over messages' own text (versions 1-10) keeps one size row per indexed message
            String indexed = SchemaDefinitions.fill(version, table).isPresent() ? table : table + "_docsize";
            long unindexed = longValue(connection, "SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM "
                    + indexed + " f WHERE f." + (indexed.equals(table) ? "rowid" : "id") + " = m.id)");
            long stale = longValue(connection, "SELECT count(*) FROM " + indexed + " f WHERE NOT EXISTS (SELECT 1 FROM "
                    + "messages m WHERE m.id = f." + (indexed.equals(table) ? "rowid" : "id") + ")");
            if (unindexed + stale == 0) {
                findings.add(Finding.ok("fts.integrity", "table " + table, "sound, one row per message"));
            } else {
                findings.add(Finding.error("fts.rows", "table " + table, unindexed + " messages are not in the index"
                        + (stale > 0 ? " and it keeps " + stale + " rows of messages that are gone" : "")
                        + ": search misses or invents them", repairCommand(file)));
            }
        }
    }

    static List<String> fullTextTables(int version) {
        return HermesSchema.at(version).tables().stream().filter(t -> t.startsWith("messages_fts")).toList();
    }

    private static boolean hasStructuredContent(Connection connection) throws SQLException {
        return longValue(connection, "SELECT EXISTS (SELECT 1 FROM messages WHERE substr(CAST(content AS BLOB), 1, 1) = X'00')") > 0;
    }

    /** The counted rows: all of a session's messages but those compaction archived (version 16's flag). */
    static String countedRows(Set<String> messageColumns) {
        return messageColumns.contains("compacted") ? " AND COALESCE(m.compacted, 0) = 0" : "";
    }

    private static void checkCounters(Connection connection, Path file, Set<String> messageColumns, int version,
                                      List<Finding> findings) throws SQLException {
        List<String> messageCount = new ArrayList<>();
        List<String> toolCallCount = new ArrayList<>();
        String sql = "SELECT s.id, s.message_count, s.tool_call_count, "
                + "(SELECT count(*) FROM messages m WHERE m.session_id = s.id" + countedRows(messageColumns) + "), "
                + "(SELECT COALESCE(SUM(" + TOOL_CALLS + "), 0) FROM messages m WHERE m.session_id = s.id"
                + countedRows(messageColumns) + ") FROM sessions s";
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                String id = rows.getString(1);
                if (rows.getLong(2) != rows.getLong(4) || rows.getObject(2) == null) {
                    messageCount.add(id + " (" + rows.getObject(2) + ", rows " + rows.getLong(4) + ")");
                }
                if (rows.getLong(3) != rows.getLong(5) || rows.getObject(3) == null) {
                    toolCallCount.add(id + " (" + rows.getObject(3) + ", rows " + rows.getLong(5) + ")");
                }
            }
        }
        counterFinding("counters.message_count", "message_count", messageCount, file, findings);
        if (version >= FIRST_TOOL_CALL_RULE) {
            counterFinding("counters.tool_call_count", "tool_call_count", toolCallCount, file, findings);
        } else {
            findings.add(Finding.ok("counters.tool_call_count", "sessions.tool_call_count", "not compared: the agents"
                    + " of versions 1-" + (FIRST_TOOL_CALL_RULE - 1) + " counted tool calls by another rule"));
        }
    }

    private static void counterFinding(String code, String column, List<String> sessions, Path file,
                                       List<Finding> findings) {
        if (sessions.isEmpty()) {
            findings.add(Finding.ok(code, "sessions." + column, "every session's counter matches its rows"));
        } else {
            findings.add(Finding.warning(code, sessions.size() + (sessions.size() == 1 ? " session" : " sessions"),
                    column + " differs from the rows: " + named(sessions), repairCommand(file)));
        }
    }

    private static void checkOrphans(Connection connection, Path file, List<Finding> findings) throws SQLException {
        long orphans = 0;
        List<String> lostSessions = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                "SELECT m.session_id, count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM sessions s "
                        + "WHERE s.id = m.session_id) GROUP BY m.session_id ORDER BY m.session_id")) {
            while (rows.next()) {
                lostSessions.add(String.valueOf(rows.getString(1)));
                orphans += rows.getLong(2);
            }
        }
        findings.add(orphans == 0
                ? Finding.ok("orphans.messages", "messages", "every message belongs to a session")
                : Finding.error("orphans.messages", orphans + " messages", "their sessions do not exist: "
                + named(lostSessions) + " (repair gives them back a session of that id)", repairCommand(file)));
        Map<String, @Nullable String> parents = SessionParents.read(connection);
        List<String> missingParents = SessionParents.dangling(parents);
        findings.add(missingParents.isEmpty()
                ? Finding.ok("orphans.parents", "sessions.parent_session_id", "every parent exists")
                : Finding.warning("orphans.parents", missingParents.size() + " sessions", "their parent does not exist: "
                + named(missingParents) + " (repair clears the link)", repairCommand(file)));
        List<List<String>> cycles = SessionParents.cycles(parents);
        findings.add(cycles.isEmpty()
                ? Finding.ok("orphans.cycles", "sessions.parent_session_id", "no cycle of parents")
                : Finding.error("orphans.cycles", cycles.size() + (cycles.size() == 1 ? " cycle" : " cycles"),
                "sessions that are their own ancestors: " + named(cycles.stream().map(Object::toString).toList())
                + " (repair clears the parent of each cycle's first session)", repairCommand(file)));
    }

    private static String named(List<String> items) {
        String shown = String.join(", ", items.subList(0, Math.min(NAMED, items.size())));
        return items.size() > NAMED ? shown + " and " + (items.size() - NAMED) + " more" : shown;
    }

    static Set<String> names(Connection connection, String type) throws SQLException {
        return lowerCaseNames(connection, "SELECT name FROM sqlite_master WHERE type = '" + type + "'");
    }

    static Set<String> columns(Connection connection, String table) throws SQLException {
        return lowerCaseNames(connection, "SELECT name FROM pragma_table_info('" + table + "')");
    }

    private static Set<String> lowerCaseNames(Connection connection, String sql) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                names.add(rows.getString(1).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    static long longValue(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    static String stringValue(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? String.valueOf(rows.getString(1)) : "";
        }
    }

    /** True for SQLite's verdicts on a damaged file (as opposed to a busy one or a mistake in the SQL). */
    static boolean isDamage(SQLException failure) {
        int code = SqliteErrors.primaryCode(failure);
        return code == SqliteErrors.SQLITE_CORRUPT || code == SqliteErrors.SQLITE_NOTADB || code == SqliteErrors.SQLITE_IOERR;
    }
}
