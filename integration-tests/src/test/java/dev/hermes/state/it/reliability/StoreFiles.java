package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.testsupport.Fixtures;
import org.sqlite.SQLiteConfig;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a state.db really holds, read with plain sqlite-jdbc connections opened independently of the
 * code under test: the integrity checks, the session counters recomputed from the message rows, and
 * a logical dump to compare two states of a file.
 */
final class StoreFiles {
    /**
     * What Hermes adds to tool_call_count for one stored row: tool results count nothing; otherwise a
     * JSON array counts its elements and any other JSON value counts 1. (An empty map also counts 1
     * but is stored as NULL, so the suite's writers never send one.)
     */
    private static final String TOOL_CALLS_OF_ROW = "CASE WHEN m.tool_calls IS NULL THEN 0"
            + " WHEN json_type(m.tool_calls) = 'array' THEN json_array_length(m.tool_calls) ELSE 1 END";
    /** The v6 rule (docs/behaviour.md#append-message): a tool result's tool_calls are not counted (today's agent counts every row's). */
    private static final String TOOL_CALLS_OF_ROW_V6 = "CASE WHEN m.role = 'tool' THEN 0 ELSE " + TOOL_CALLS_OF_ROW + " END";

    /** The tables whose rows make up a store's content (FTS5 shadow tables included, Liquibase's excluded). */
    private static final String CONTENT_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table'"
            + " AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'DATABASECHANGELOG%' ORDER BY name";
    /** The same without the FTS5 index's own storage, whose layout an 'optimize' may rewrite without changing what it says. */
    private static final String CONTENT_TABLES_WITHOUT_INDEX = "SELECT name FROM sqlite_master WHERE type = 'table'"
            + " AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'DATABASECHANGELOG%'"
            + " AND name NOT LIKE 'messages\\_fts\\_%' ESCAPE '\\' ORDER BY name";

    private StoreFiles() {
    }

    /** {@code PRAGMA integrity_check}: "ok", or the list of problems. */
    static String integrityCheck(Connection connection) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (List<Object> row : SqliteFiles.query(connection, "PRAGMA integrity_check")) {
            problems.add(String.valueOf(row.get(0)));
        }
        return String.join("\n", problems);
    }

    /**
     * FTS5's own check with rank 1: the index is consistent and matches the messages table it
     * indexes (an index row for every message, none for a deleted one). Null when it passes,
     * otherwise SQLite's message.
     */
    static String ftsIntegrityProblem(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)");
            return null;
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    /**
     * Sessions whose message_count or tool_call_count differ from what their rows say (by the rules of
     * the file's version), as readable lines.
     */
    static List<String> counterMismatches(Connection connection) throws SQLException {
        return counterMismatches(connection, (int) number(SqliteFiles.query(connection, "SELECT max(version) FROM schema_version")
                .get(0).get(0)));
    }

    /** {@link #counterMismatches(Connection)} for rows counted by the agent of {@code countedAtVersion}. */
    static List<String> counterMismatches(Connection connection, int countedAtVersion) throws SQLException {
        List<String> mismatches = new ArrayList<>();
        String toolCallsOfRow = countedAtVersion >= 7 ? TOOL_CALLS_OF_ROW : TOOL_CALLS_OF_ROW_V6;
        for (List<Object> row : SqliteFiles.query(connection, "SELECT s.id, s.message_count, s.tool_call_count,"
                + " (SELECT count(*) FROM messages m WHERE m.session_id = s.id),"
                + " (SELECT coalesce(sum(" + toolCallsOfRow + "), 0) FROM messages m WHERE m.session_id = s.id)"
                + " FROM sessions s ORDER BY s.id")) {
            long messageCount = number(row.get(1));
            long toolCallCount = number(row.get(2));
            long rows = number(row.get(3));
            long toolCalls = number(row.get(4));
            if (messageCount != rows || toolCallCount != toolCalls) {
                mismatches.add(row.get(0) + ": message_count " + messageCount + " vs " + rows + " rows, tool_call_count "
                        + toolCallCount + " vs " + toolCalls + " in its rows");
            }
        }
        return mismatches;
    }

    /** message id → session id of every message. */
    static Map<Long, String> messageSessions(Connection connection) throws SQLException {
        Map<Long, String> sessions = new HashMap<>();
        for (List<Object> row : SqliteFiles.query(connection, "SELECT id, session_id FROM messages")) {
            sessions.put(number(row.get(0)), (String) row.get(1));
        }
        return sessions;
    }

    /** Row count of every content table (the FTS index's shadow tables included). */
    static Map<String, Long> rowCounts(Path db) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = SqliteFiles.readOnly(db)) {
            for (List<Object> table : SqliteFiles.query(connection, CONTENT_TABLES)) {
                String name = (String) table.get(0);
                counts.put(name, number(SqliteFiles.query(connection, "SELECT count(*) FROM \"" + name + "\"").get(0).get(0)));
            }
        }
        return counts;
    }

    /**
     * sha256 over the schema (every object's SQL) and every row of every content table in a fixed
     * order: equal before and after a call means the call changed nothing a reader could see.
     */
    static String logicalDumpSha256(Path db) throws SQLException {
        return logicalDumpSha256(db, true);
    }

    /**
     * As {@link #logicalDumpSha256(Path)}; without {@code withIndexStorage} the FTS5 index's shadow
     * tables are left out (check the index with {@link #ftsIntegrityProblem} instead).
     */
    static String logicalDumpSha256(Path db, boolean withIndexStorage) throws SQLException {
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        try (Connection connection = SqliteFiles.readOnly(db)) {
            for (List<Object> object : SqliteFiles.query(connection, "SELECT type, name, tbl_name, sql FROM sqlite_master"
                    + " WHERE name NOT LIKE 'DATABASECHANGELOG%' ORDER BY type, name")) {
                dump.writeBytes((object + "\n").getBytes(StandardCharsets.UTF_8));
            }
            for (List<Object> table : SqliteFiles.query(connection, withIndexStorage ? CONTENT_TABLES : CONTENT_TABLES_WITHOUT_INDEX)) {
                String name = (String) table.get(0);
                dump.writeBytes(("== " + name + "\n").getBytes(StandardCharsets.UTF_8));
                for (List<Object> row : SqliteFiles.query(connection, "SELECT * FROM \"" + name + "\" ORDER BY " + allColumns(connection, name))) {
                    dump.writeBytes((row + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return Fixtures.sha256(dump.toByteArray());
    }

    /** "1, 2, ..., n" for a table of n columns: a total order for rows without a single-column key. */
    private static String allColumns(Connection connection, String table) throws SQLException {
        long columns = number(SqliteFiles.query(connection, "SELECT count(*) FROM pragma_table_info(?)", table).get(0).get(0));
        StringBuilder order = new StringBuilder("1");
        for (int c = 2; c <= columns; c++) {
            order.append(", ").append(c);
        }
        return order.toString();
    }

    static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
