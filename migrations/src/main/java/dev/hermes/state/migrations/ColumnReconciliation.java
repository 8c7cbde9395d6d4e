package dev.hermes.state.migrations;

import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's column reconciliation, for the columns no changeset adds: from its version 10 on, every
 * open of the Python agent compares the live {@code sessions} and {@code messages} tables with the
 * columns its schema declares and adds each missing one with its declared type, {@code NOT NULL} and
 * {@code DEFAULT}, whatever number the file claims. Columns of versions 2 on are added by their own
 * changesets (each guarded on {@code pragma_table_info}); the columns of version 1's {@code CREATE TABLE}
 * are not, so a file that lacks some of them is reconciled here, in the migration's transaction.
 *
 * <p>A column SQLite cannot add ({@code PRIMARY KEY}, or {@code NOT NULL} without a default: the agent's
 * {@code ALTER} fails on it and its later statements fail too) is not added: a table lacking one is not a
 * Hermes table, and the migration refuses the file as before.
 */
final class ColumnReconciliation {
    /** The first schema version whose agent reconciles columns on every open. */
    static final int FIRST_VERSION = 10;

    /** Version 1's columns by table ({@code "sessions"}, {@code "messages"}): the declaration to add, null if none can be added. */
    private static final Map<String, Map<String, @Nullable String>> ORIGINAL = originalDeclarations();

    private ColumnReconciliation() {
    }

    /** Whether a migration to {@code version} reconciles columns, as the agent of that version does. */
    static boolean appliesTo(int version) {
        return version >= FIRST_VERSION;
    }

    /** The entries of {@code missing} ({@code "table.column"}, version 1's columns) that SQLite cannot add. */
    static List<String> notAddable(List<String> missing) {
        return missing.stream().filter(entry -> declaration(entry) == null).toList();
    }

    /** Adds each of {@code missing} ({@code "table.column"}, all addable) with version 1's declaration. */
    static void add(Connection connection, List<String> missing) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String entry : missing) {
                String declaration = declaration(entry);
                if (declaration == null) {
                    throw new IllegalArgumentException("column " + entry + " cannot be added");
                }
                int dot = entry.indexOf('.');
                statement.execute("ALTER TABLE \"" + entry.substring(0, dot) + "\" ADD COLUMN \""
                        + entry.substring(dot + 1) + "\"" + (declaration.isEmpty() ? "" : " " + declaration));
            }
        }
    }

    private static @Nullable String declaration(String entry) {
        int dot = entry.indexOf('.');
        Map<String, @Nullable String> columns = ORIGINAL.getOrDefault(entry.substring(0, dot), Map.of());
        return columns.get(entry.substring(dot + 1));
    }

    /**
     * Version 1's {@code CREATE TABLE} statements (the changelog's own text), run in an empty in-memory
     * database: SQLite's {@code table_info} then gives each column's type, {@code NOT NULL} and default.
     */
    private static Map<String, Map<String, @Nullable String>> originalDeclarations() {
        Map<String, Map<String, @Nullable String>> tables = new HashMap<>();
        try (Connection memory = DriverManager.getConnection("jdbc:sqlite::memory:");
             Statement statement = memory.createStatement()) {
            for (String table : List.of("sessions", "messages")) {
                statement.execute(SchemaDefinitions.create(1, table)
                        .orElseThrow(() -> new IllegalStateException("version 1 creates no table " + table)));
            }
            for (String table : List.of("sessions", "messages")) {
                Map<String, @Nullable String> columns = new LinkedHashMap<>();
                try (ResultSet rows = statement.executeQuery(
                        "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('" + table + "')")) {
                    while (rows.next()) {
                        String type = rows.getString(2);
                        boolean notNull = rows.getInt(3) != 0;
                        String defaultValue = rows.getString(4);
                        boolean primaryKey = rows.getInt(5) != 0;
                        if (primaryKey || (notNull && defaultValue == null)) {
                            columns.put(rows.getString(1), null);
                            continue;
                        }
                        List<String> parts = new ArrayList<>();
                        if (type != null && !type.isEmpty()) {
                            parts.add(type);
                        }
                        if (notNull) {
                            parts.add("NOT NULL");
                        }
                        if (defaultValue != null) {
                            parts.add("DEFAULT " + defaultValue);
                        }
                        columns.put(rows.getString(1), String.join(" ", parts));
                    }
                }
                tables.put(table, Collections.unmodifiableMap(columns));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read version 1's column declarations", e);
        }
        return Map.copyOf(tables);
    }
}
