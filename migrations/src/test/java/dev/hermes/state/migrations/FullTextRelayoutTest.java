package dev.hermes.state.migrations;

import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Version 11's search layout on the agent's real files: both full-text tables store their own text, index
 * content, tool name and tool calls, and delete by rowid. A file laid out otherwise gets both tables and all
 * six triggers anew, filled from messages, whatever form it had: version 1's external-content table
 * (state-v6.db) and both forms a version-10 file can have: external content (state-v10.db, made at
 * 1fa76607c) and inline tables whose delete and update triggers still send FTS5 the {@code 'delete'}
 * command of the external-content form (what cfcad80ee wrote, built here from a copy of state-v10.db),
 * on which every UPDATE or DELETE of a message fails until the re-layout.
 */
class FullTextRelayoutTest {
    private static final List<String> FULL_TEXT_TABLES = List.of("messages_fts", "messages_fts_trigram");

    /** sqlite_master of version 11's layout, as a new store holds it. */
    private static final Map<String, String> VERSION_11_LAYOUT = Map.of(
            "table messages_fts", "CREATE VIRTUAL TABLE messages_fts USING fts5(\n    content\n)",
            "table messages_fts_trigram", "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(\n    content,\n"
                    + "    tokenize='trigram'\n)");

    /** The text of one message as version 11 indexes it. */
    private static final String INDEXED_TEXT =
            "COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') || ' ' || COALESCE(m.tool_calls, '')";

    /**
     * Every (message, tool name) pair of a file: tool rows by their tool_name, assistant rows by the
     * function names in their tool_calls JSON.
     */
    private static final String TOOL_NAMES = "SELECT id, tool_name FROM messages WHERE tool_name IS NOT NULL"
            + " UNION SELECT m.id, json_extract(call.value, '$.function.name') FROM messages m, json_each(m.tool_calls) call"
            + " WHERE m.tool_calls IS NOT NULL AND json_valid(m.tool_calls) ORDER BY 1, 2";

    @TempDir
    Path dir;

    @Test
    void bothFormsOfVersionTenAreLaidOutAgainAsVersionElevenAndEndTheSame() throws Exception {
        Path external = Fixtures.copy("state-v10.db", Files.createDirectory(dir.resolve("external")));
        Path inline = Fixtures.copy("state-v10.db", Files.createDirectory(dir.resolve("inline")));
        asWrittenAfterCfcad80ee(inline);
        assertTrue(sql(external, "SELECT sql FROM sqlite_master WHERE name = 'messages_fts'").get(0).contains("content=messages"));
        assertEquals(List.of("CREATE VIRTUAL TABLE messages_fts USING fts5(content)"),
                sql(inline, "SELECT sql FROM sqlite_master WHERE name = 'messages_fts'"));
        // the trap of that form: the triggers' 'delete' command is an error on a table that stores its own text
        SQLException trapped = assertThrows(SQLException.class, () -> sql(inline, "DELETE FROM messages WHERE id = 1"));
        assertTrue(trapped.getMessage().contains("SQL logic error"), trapped.getMessage());
        // the external form finds no tool name that is not also in some content
        assertEquals(List.of(), matches(external, "messages_fts", "cronjob"));
        assertEquals(List.of("61", "62"), matches(inline, "messages_fts", "cronjob"));

        for (Path db : List.of(external, inline)) {
            MigrationResult result = Migrator.create().migrate(db);
            assertEquals(10, result.fromVersion());
            assertEquals(17, result.toVersion());
            List<String> executed = result.executed().stream().map(MigrationResult.AppliedChange::id).toList();
            assertTrue(executed.containsAll(List.of("v11-drop-table-messages-fts", "v11-drop-table-messages-fts-trigram",
                    "v11-messages-fts", "v11-messages-fts-trigram", "v11-trigger-messages-fts-delete",
                    "v11-trigger-messages-fts-trigram-update", "v11-backfill-messages-fts",
                    "v11-backfill-messages-fts-trigram")), executed.toString());
            assertInVersion11Layout(db, 134);
        }
        assertEquals(fullTextRows(external), fullTextRows(inline), "the same index, row for row, from either form");

        // and the file works again: a message changed or deleted leaves the index consistent
        for (Path db : List.of(external, inline)) {
            sql(db, "UPDATE messages SET content = 'the zebra crossed' WHERE id = 2", "DELETE FROM messages WHERE id = 3");
            assertEquals(List.of("2"), matches(db, "messages_fts", "zebra"));
            assertEquals(List.of("2"), matches(db, "messages_fts_trigram", "zebra"));
            assertEquals(List.of(), sql(db, "SELECT rowid FROM messages_fts WHERE rowid = 3"));
            assertIntegrityOk(db);
        }
    }

    /**
     * The version-6 file has one external-content table indexing content only: after the re-layout both
     * tables index every message's content, tool name and tool calls, so a tool that appears in no content
     * is found; the text each row holds is exactly that concatenation.
     */
    @ParameterizedTest
    @ValueSource(strings = {"state-v1.db", "state-v6.db", "state-v8.db"})
    void theBackfilledTablesFindEveryMessageByItsToolNames(String fixture) throws Exception {
        Path db = Fixtures.copy(fixture, dir);
        assertEquals(List.of(), matches(db, "messages_fts", "cronjob"), "in a tool name and tool_calls only");
        long messages = Long.parseLong(sql(db, "SELECT count(*) FROM messages").get(0));

        Migrator.create().migrate(db);

        assertInVersion11Layout(db, messages);
        assertEquals(List.of("61", "62"), matches(db, "messages_fts", "cronjob"));
        assertEquals(List.of("61", "62"), matches(db, "messages_fts_trigram", "cronjob"));
        // the v1-v6 data set's CJK rows, through the trigram table (three characters or more)
        assertEquals(List.of("20", "21", "91", "92"), matches(db, "messages_fts_trigram", "\"数据库\""));
    }

    /** Both tables in version 11's form with one row per message, each holding its indexed text; every tool name finds its rows. */
    private static void assertInVersion11Layout(Path db, long messages) throws SQLException {
        Map<String, String> layout = new TreeMap<>();
        for (String table : FULL_TEXT_TABLES) {
            layout.put("table " + table, sql(db, "SELECT sql FROM sqlite_master WHERE name = '" + table + "'").get(0));
            assertEquals(List.of(String.valueOf(messages)), sql(db, "SELECT count(*) FROM " + table));
            assertEquals(List.of("0"), sql(db, "SELECT count(*) FROM messages m LEFT JOIN " + table + " f ON f.rowid = m.id"
                    + " WHERE f.content IS NOT " + INDEXED_TEXT), table + " holds each message's indexed text");
            for (String event : List.of("insert", "delete", "update")) {
                String trigger = sql(db, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = '"
                        + table + "_" + event + "'").get(0);
                assertEquals(!event.equals("delete"), trigger.contains("COALESCE(new.tool_calls, '')"), trigger);
                assertEquals(!event.equals("insert"), trigger.contains("DELETE FROM " + table + " WHERE rowid = old.id;"), trigger);
                assertTrue(!trigger.contains("'delete'"), trigger);
            }
        }
        assertEquals(VERSION_11_LAYOUT, layout);
        assertEquals(List.of("17"), sql(db, "SELECT version FROM schema_version"));
        List<String[]> toolNames = new ArrayList<>();
        for (String pair : sql(db, "SELECT id || ' ' || tool_name FROM (" + TOOL_NAMES + ")")) {
            toolNames.add(pair.split(" "));
        }
        assertTrue(toolNames.size() >= 20, "the data set's tool rows and calls: " + toolNames.size());
        for (String[] pair : toolNames) {
            for (String table : FULL_TEXT_TABLES) {
                assertTrue(matches(db, table, "\"" + pair[1] + "\"").contains(pair[0]),
                        "message " + pair[0] + " found by its tool " + pair[1] + " in " + table);
            }
        }
        assertIntegrityOk(db);
    }

    private static void assertIntegrityOk(Path db) throws SQLException {
        assertEquals(List.of("ok"), sql(db, "PRAGMA integrity_check"));
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            for (String table : FULL_TEXT_TABLES) {
                // FTS5 reports a damaged index by failing this command
                statement.execute("INSERT INTO " + table + "(" + table + ") VALUES ('integrity-check')");
            }
        }
    }

    /**
     * The layout cfcad80ee gave new files while they still said version 10: inline tables whose insert
     * triggers index content, tool name and tool calls, and whose delete and update triggers send the
     * external-content form's 'delete' command; the rows hold what those insert triggers indexed.
     */
    private static void asWrittenAfterCfcad80ee(Path db) throws SQLException {
        String indexed = "COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')";
        List<String> statements = new ArrayList<>();
        for (String table : FULL_TEXT_TABLES) {
            for (String event : List.of("insert", "delete", "update")) {
                statements.add("DROP TRIGGER " + table + "_" + event);
            }
            statements.add("DROP TABLE " + table);
        }
        statements.add("CREATE VIRTUAL TABLE messages_fts USING fts5(content)");
        statements.add("CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram')");
        for (String table : FULL_TEXT_TABLES) {
            String delete = "INSERT INTO " + table + "(" + table + ", rowid, content) VALUES ('delete', old.id, old.content);";
            String insert = "INSERT INTO " + table + "(rowid, content) VALUES (new.id, " + indexed + ");";
            statements.add("CREATE TRIGGER " + table + "_insert AFTER INSERT ON messages BEGIN " + insert + " END");
            statements.add("CREATE TRIGGER " + table + "_delete AFTER DELETE ON messages BEGIN " + delete + " END");
            statements.add("CREATE TRIGGER " + table + "_update AFTER UPDATE ON messages BEGIN " + delete + " " + insert + " END");
            statements.add("INSERT INTO " + table + "(rowid, content) SELECT id, " + INDEXED_TEXT + " FROM messages m");
        }
        String before = Fixtures.sha256(db);
        sql(db, statements.toArray(String[]::new));
        assertNotEquals(before, Fixtures.sha256(db));
        assertEquals(List.of("10"), sql(db, "SELECT version FROM schema_version"));
    }

    /** Every row of the full-text tables' shadow tables, blobs as hex. */
    private static Map<String, List<String>> fullTextRows(Path db) throws SQLException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        for (String table : sql(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'messages_fts_*'"
                + " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")) {
            List<String> rows = new ArrayList<>();
            try (Connection connection = SqliteFiles.readWrite(db);
                 Statement statement = connection.createStatement();
                 ResultSet result = statement.executeQuery("SELECT * FROM " + table + " ORDER BY 1, 2")) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int c = 1; c <= columns; c++) {
                        Object value = result.getObject(c);
                        row.append(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value).append('|');
                    }
                    rows.add(row.toString());
                }
            }
            tables.put(table, rows);
        }
        assertEquals(10, tables.size(), tables.keySet().toString());
        return tables;
    }

    /** Message ids (as text) matching an FTS5 query on {@code table}, in id order. */
    private static List<String> matches(Path db, String table, String query) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             PreparedStatement statement = connection.prepareStatement("SELECT m.id FROM " + table
                     + " JOIN messages m ON m.id = " + table + ".rowid WHERE " + table + " MATCH ? ORDER BY m.id")) {
            statement.setString(1, query);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    /** Runs statements in one transaction, or, for a single query, returns its first column as text. */
    private static List<String> sql(Path db, String... statements) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            if (statements.length == 1 && statements[0].matches("(?is)^\\s*(SELECT|PRAGMA).*")) {
                try (ResultSet result = statement.executeQuery(statements[0])) {
                    while (result.next()) {
                        rows.add(result.getString(1));
                    }
                }
                return rows;
            }
            connection.setAutoCommit(false);
            for (String sql : statements) {
                statement.execute(sql);
            }
            connection.commit();
        }
        return rows;
    }
}
