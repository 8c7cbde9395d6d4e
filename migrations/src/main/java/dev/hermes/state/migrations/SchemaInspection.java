package dev.hermes.state.migrations;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a PostgreSQL schema really contains, read from the catalog without writing: the same facts
 * {@link FileInspection} reads from a SQLite file (so the same rules tell a Hermes store from another
 * application's tables), plus whether the schema exists. Names are PostgreSQL's lower-case ones,
 * Liquibase's tables included.
 *
 * @param exists           the schema exists
 * @param contents         its tables, indexes, the columns of the two Hermes tables, the version it claims
 *                         and the changesets it has recorded (no triggers, no journal mode on PostgreSQL)
 * @param searchExpressions what each of messages' generated search columns is computed from, by column
 */
record SchemaInspection(boolean exists, FileInspection contents, Map<String, String> searchExpressions) {
    static final String CHANGELOG_TABLE = "databasechangelog";
    static final String LOCK_TABLE = "databasechangeloglock";
    /**
     * The columns and indexes that hold PostgreSQL's full-text search (in place of SQLite's FTS5 table
     * and triggers: the words and the CJK characters of each message) and sessions' insertion order
     * (SQLite's implicit rowid).
     */
    static final List<String> SEARCH_COLUMNS = List.of("messages.content_tsv", "messages.content_grams", "sessions.rowid");
    static final List<String> SEARCH_INDEXES = List.of("idx_messages_content_tsv", "idx_messages_content_grams",
            "idx_sessions_rowid");
    /** SQLite's FTS5 tables: on PostgreSQL, the search columns above hold what they index. */
    static final Set<String> FULL_TEXT_TABLES = Set.of("messages_fts", "messages_fts_trigram");

    SchemaInspection {
        searchExpressions = Map.copyOf(searchExpressions);
    }

    static SchemaInspection of(Connection connection, String schema) throws SQLException {
        boolean exists;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
            statement.setString(1, schema);
            exists = queryInt(statement) > 0;
        }
        Set<String> tables = new TreeSet<>();
        Set<String> indexes = new TreeSet<>();
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT c.relname, c.relkind IN ('i', 'I') FROM pg_catalog.pg_class c
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'i', 'I')""")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    (rows.getBoolean(2) ? indexes : tables).add(rows.getString(1));
                }
            }
        }
        Map<String, Set<String>> columns = new HashMap<>(Map.of("sessions", new HashSet<>(),
                "messages", new HashSet<>(), "schema_version", new HashSet<>()));
        Map<String, String> searchExpressions = new HashMap<>();
        boolean numericVersion = false;
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT c.relname, a.attname, a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype),
                       CASE WHEN a.attgenerated <> '' THEN pg_catalog.pg_get_expr(d.adbin, d.adrelid) END
                FROM pg_catalog.pg_attribute a
                JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE n.nspname = ? AND c.relname IN ('sessions', 'messages', 'schema_version')
                  AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped""")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.computeIfAbsent(rows.getString(1), table -> new HashSet<>()).add(rows.getString(2));
                    numericVersion |= rows.getString(1).equals("schema_version") && rows.getString(2).equals("version")
                            && rows.getBoolean(3);
                    if (rows.getString(1).equals("messages") && rows.getString(4) != null) {
                        searchExpressions.put(rows.getString(2), rows.getString(4));
                    }
                }
            }
        }
        String qualified = PostgresMigration.quote(schema) + ".";
        // another application's schema_version table may have no version column, or one of another type
        int version = numericVersion
                ? queryInt(connection, "SELECT COALESCE(MAX(version), 0) FROM " + qualified + "schema_version") : 0;
        Map<String, String> recorded = new HashMap<>();
        if (tables.contains(CHANGELOG_TABLE)) {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT author, id, filename, exectype FROM " + qualified
                         + CHANGELOG_TABLE)) {
                while (rows.next()) {
                    recorded.put(FileInspection.key(rows.getString(1), rows.getString(2), rows.getString(3)),
                            rows.getString(4));
                }
            }
        }
        boolean lockHeld = tables.contains(LOCK_TABLE)
                && queryInt(connection, "SELECT count(*) FROM " + qualified + LOCK_TABLE + " WHERE locked") > 0;
        return new SchemaInspection(exists, new FileInspection(tables, indexes, Set.of(), Map.of(),
                columns.getOrDefault("sessions", Set.of()), columns.getOrDefault("messages", Set.of()), version, recorded,
                lockHeld, "postgresql"), searchExpressions);
    }

    /**
     * The objects and columns of Hermes' schema at {@code version} (SQLite's full-text tables and triggers
     * aside), the search columns and indexes, and hermes-state's own tables this schema lacks, by name.
     * From version 11 on, a search column that is not computed over content, tool name and tool calls
     * counts as missing, as SQLite's full-text tables of an earlier form do.
     */
    List<String> missingObjects(int version) {
        HermesSchema.Objects schema = HermesSchema.at(version);
        List<String> missing = new ArrayList<>(missingForReading());
        schema.tables().stream().filter(t -> !FULL_TEXT_TABLES.contains(t) && !contents.tables().contains(t))
                .forEach(t -> missing.add("table " + t));
        schema.sessionColumns().stream().filter(c -> !contents.sessionColumns().contains(c))
                .forEach(c -> missing.add("sessions." + c));
        schema.messageColumns().stream().filter(c -> !contents.messageColumns().contains(c))
                .forEach(c -> missing.add("messages." + c));
        schema.indexes().stream().filter(i -> !contents.indexes().contains(i)).forEach(i -> missing.add("index " + i));
        if (schema.inlineFullText()) {
            for (String column : List.of("content_tsv", "content_grams")) {
                String expression = searchExpressions.get(column);
                if (expression != null && !(expression.contains("tool_name") && expression.contains("tool_calls"))) {
                    missing.add("messages." + column + " in version " + HermesSchema.INLINE_FULL_TEXT + "'s form");
                }
            }
        }
        // a PostgreSQL store is only ever built whole by hermes-state: its own tables belong to it
        missing.addAll(contents.missingOwnTables());
        return missing.stream().distinct().toList();
    }

    /**
     * What a read-only store needs and this schema lacks: the version-6 tables and columns with the
     * search columns and indexes. hermes-state's own tables may be missing (read as empty), as in a file.
     */
    List<String> missingForReading() {
        List<String> missing = new ArrayList<>();
        for (String table : List.of("schema_version", "sessions", "messages")) {
            if (!contents.tables().contains(table)) {
                missing.add("table " + table);
            }
        }
        FileInspection.V6_SESSION_COLUMNS.stream().filter(c -> !contents.sessionColumns().contains(c))
                .forEach(c -> missing.add("sessions." + c));
        FileInspection.V6_MESSAGE_COLUMNS.stream().filter(c -> !contents.messageColumns().contains(c))
                .forEach(c -> missing.add("messages." + c));
        for (String column : SEARCH_COLUMNS) {
            String name = column.substring(column.indexOf('.') + 1);
            boolean present = column.startsWith("messages.") ? contents.messageColumns().contains(name)
                    : contents.sessionColumns().contains(name);
            if (!present) {
                missing.add(column);
            }
        }
        for (String index : FileInspection.V6_INDEXES) {
            if (!contents.indexes().contains(index)) {
                missing.add("index " + index);
            }
        }
        for (String index : SEARCH_INDEXES) {
            if (!contents.indexes().contains(index)) {
                missing.add("index " + index);
            }
        }
        return missing;
    }

    /** Nothing to do: the version, every object and every changeset of PostgreSQL's changelog for {@code version} are there. */
    boolean isUpToDate(int version) {
        return contents.schemaVersion() == version && missingObjects(version).isEmpty()
                && contents.hasRecorded(Changelog.postgresqlChangeSets(version));
    }

    private static int queryInt(PreparedStatement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    private static int queryInt(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }
}
