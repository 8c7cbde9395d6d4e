package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.testsupport.Fixtures;
import org.sqlite.SQLiteConfig;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Reads what a database file really holds, on read-only connections opened independently of the
 * code under test (plain sqlite-jdbc, nothing from hermes-state).
 */
final class SqliteDb {
    /** One column of {@code pragma_table_info}: how SQLite itself describes a table's column. */
    record Column(String name, String type, boolean notNull, String defaultValue, int primaryKey) {
    }

    /** One row of {@code pragma_foreign_key_list}. */
    record ForeignKey(String from, String table, String to) {
    }

    /** One DATABASECHANGELOG row, without the columns that legitimately differ per run (dates, deployment id). */
    record ChangelogRow(String id, String author, String filename, String md5sum, String execType, int orderExecuted,
                        String description) {
    }

    private SqliteDb() {
    }

    static long count(Path db, String table) throws SQLException {
        return ((Number) SqliteFiles.single(db, "SELECT count(*) FROM \"" + table + "\"")).longValue();
    }

    /** Every named object: "type name" → its SQL (null for SQLite's automatic indexes). */
    static Map<String, String> master(Path db) throws SQLException {
        Map<String, String> objects = new TreeMap<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT type, name, sql FROM sqlite_master")) {
            objects.put(row.get(0) + " " + row.get(1), (String) row.get(2));
        }
        return objects;
    }

    static Map<String, Column> columns(Path db, String table) throws SQLException {
        Map<String, Column> columns = new TreeMap<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", table)) {
            columns.put((String) row.get(0), new Column((String) row.get(0), (String) row.get(1),
                    ((Number) row.get(2)).intValue() == 1, (String) row.get(3), ((Number) row.get(4)).intValue()));
        }
        return columns;
    }

    static List<ForeignKey> foreignKeys(Path db, String table) throws SQLException {
        List<ForeignKey> keys = new ArrayList<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY \"from\"", table)) {
            keys.add(new ForeignKey((String) row.get(0), (String) row.get(1), (String) row.get(2)));
        }
        return keys;
    }

    static List<ChangelogRow> changelog(Path db) throws SQLException {
        List<ChangelogRow> result = new ArrayList<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT ID, AUTHOR, FILENAME, MD5SUM, EXECTYPE, ORDEREXECUTED, DESCRIPTION"
                + " FROM DATABASECHANGELOG ORDER BY ORDEREXECUTED")) {
            result.add(new ChangelogRow((String) row.get(0), (String) row.get(1), (String) row.get(2), (String) row.get(3),
                    (String) row.get(4), ((Number) row.get(5)).intValue(), (String) row.get(6)));
        }
        return result;
    }

    /**
     * Every row of every real table (FTS5 shadow tables and bookkeeping included, the FTS virtual
     * table itself excluded since its rows are the messages'), as text: compares two states of a file.
     */
    static Map<String, List<String>> dump(Path db) throws SQLException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        try (Connection connection = SqliteFiles.readOnly(db)) {
            for (List<Object> table : SqliteFiles.query(connection, "SELECT name FROM sqlite_master WHERE type = 'table'"
                    + " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")) {
                List<String> lines = new ArrayList<>();
                for (List<Object> row : SqliteFiles.query(connection, "SELECT * FROM \"" + table.get(0) + "\" ORDER BY 1")) {
                    lines.add(row.toString());
                }
                tables.put((String) table.get(0), lines);
            }
        }
        return tables;
    }

    /** The tables hermes-state adds to a file (Liquibase's and its own): the agent's own files never hold them. */
    static final Set<String> OWN_TABLES = Set.of("DATABASECHANGELOG", "DATABASECHANGELOGLOCK", "hermes_state_window",
            "hermes_state_window_message");

    /**
     * sha256 of every row of FTS5's shadow tables (those of messages_fts and messages_fts_trigram): equal
     * digests mean the two files hold the same index, block for block. See {@link #digest}.
     */
    static String fullTextDigest(Path db) throws SQLException {
        return digest(db, true);
    }

    /**
     * sha256 of every row of every other table of the agent's (sessions, messages, schema_version, state_meta,
     * compression_locks, sqlite_sequence, and another application's): not hermes-state's own. See {@link #digest}.
     */
    static String rowsDigest(Path db) throws SQLException {
        return digest(db, false);
    }

    /**
     * The digest of some tables' rows, independent of column order and row order and exact for every
     * value: per table (by name) its column names (sorted) and its rows, each value with its SQLite storage
     * class (a REAL by its bits, a BLOB in hex, TEXT length-prefixed), the rows sorted.
     */
    private static String digest(Path db, boolean fullText) throws SQLException {
        StringBuilder canonical = new StringBuilder();
        try (Connection connection = SqliteFiles.readOnly(db)) {
            for (List<Object> table : SqliteFiles.query(connection, "SELECT name FROM sqlite_master WHERE type = 'table'"
                    + " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")) {
                String name = (String) table.get(0);
                if (OWN_TABLES.contains(name) || name.startsWith("messages_fts_") != fullText) {
                    continue;
                }
                List<String> columns = new ArrayList<>();
                for (List<Object> column : SqliteFiles.query(connection, "SELECT name FROM pragma_table_info(?) ORDER BY name", name)) {
                    columns.add((String) column.get(0));
                }
                String list = columns.stream().map(c -> '"' + c + '"').collect(Collectors.joining(", "));
                List<String> rows = new ArrayList<>();
                try (Statement statement = connection.createStatement();
                     ResultSet result = statement.executeQuery("SELECT " + list + " FROM \"" + name + "\"")) {
                    while (result.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int c = 1; c <= columns.size(); c++) {
                            row.append(canonical(result.getObject(c))).append('|');
                        }
                        rows.add(row.toString());
                    }
                }
                Collections.sort(rows);
                canonical.append("table ").append(name).append(' ').append(columns).append('\n');
                rows.forEach(row -> canonical.append(row).append('\n'));
            }
        }
        return Fixtures.sha256(canonical.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String canonical(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Integer || value instanceof Long) {
            return "i" + ((Number) value).longValue();
        }
        if (value instanceof Double real) {
            return "r" + Long.toHexString(Double.doubleToLongBits(real));
        }
        if (value instanceof byte[] bytes) {
            return "b" + HexFormat.of().formatHex(bytes);
        }
        String text = (String) value;
        return "t" + text.length() + ":" + text;
    }

    /** Message ids and session ids matching an FTS5 query, the MANIFEST's "Raw FTS5" statement. */
    static List<String> ftsMatches(Path db, String query) throws SQLException {
        List<String> matches = new ArrayList<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT m.id, m.session_id FROM messages_fts JOIN messages m"
                + " ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? ORDER BY m.id", query)) {
            matches.add(row.get(0) + " (" + row.get(1) + ")");
        }
        return matches;
    }
}
