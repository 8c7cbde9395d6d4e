package dev.hermes.state.migrations;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a file really contains, read with plain queries (no writes, no Liquibase): its objects, the
 * columns of the two Hermes tables, the version it claims and the changesets it has recorded.
 * Migration decisions are made from this, not from the version number alone.
 */
record FileInspection(
        Set<String> tables,
        Set<String> indexes,
        Set<String> triggers,
        Set<String> sessionColumns,
        Set<String> messageColumns,
        int schemaVersion,
        Map<String, String> recordedChangeSets,
        boolean liquibaseLockHeld,
        String journalMode) {

    static final String CHANGELOG_TABLE = "DATABASECHANGELOG";
    static final String LOCK_TABLE = "DATABASECHANGELOGLOCK";

    /** The columns a version-6 file has (SPEC section 1); a read-only open needs at least these. */
    static final List<String> V6_SESSION_COLUMNS = List.of("id", "source", "user_id", "model", "model_config",
            "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason", "message_count",
            "tool_call_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
            "reasoning_tokens", "billing_provider", "billing_base_url", "billing_mode", "estimated_cost_usd",
            "actual_cost_usd", "cost_status", "cost_source", "pricing_version", "title");
    static final List<String> V6_MESSAGE_COLUMNS = List.of("id", "session_id", "role", "content", "tool_call_id",
            "tool_calls", "tool_name", "timestamp", "token_count", "finish_reason", "reasoning", "reasoning_details",
            "codex_reasoning_items");
    /** Columns every Hermes sessions table has had since version 1: they tell it from other "sessions" tables. */
    static final List<String> HERMES_KEY_SESSION_COLUMNS = List.of("id", "source", "started_at", "parent_session_id");
    static final List<String> V6_INDEXES = List.of("idx_sessions_source", "idx_sessions_parent",
            "idx_sessions_started", "idx_messages_session", "idx_sessions_title_unique");
    static final List<String> V6_TRIGGERS = List.of("messages_fts_insert", "messages_fts_delete", "messages_fts_update");
    /**
     * hermes-state's own tables (windows.sql): not part of Hermes' schema, so a read-only open never
     * needs them, but a read-write open creates them.
     */
    static final List<String> OWN_TABLES = List.of("hermes_state_window", "hermes_state_window_message");
    /** The author of the changesets that create {@link #OWN_TABLES}. */
    static final String OWN_AUTHOR = "hermes-state";

    static FileInspection of(Connection connection) throws SQLException {
        Set<String> tables = new TreeSet<>();
        Set<String> indexes = new TreeSet<>();
        Set<String> triggers = new TreeSet<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT type, name FROM sqlite_master")) {
            while (rows.next()) {
                switch (rows.getString(1)) {
                    case "table" -> tables.add(rows.getString(2));
                    case "index" -> indexes.add(rows.getString(2));
                    case "trigger" -> triggers.add(rows.getString(2));
                    default -> { }
                }
            }
        }
        // another application's schema_version table may have no version column
        int version = columns(connection, "schema_version").contains("version")
                ? queryInt(connection, "SELECT COALESCE(MAX(version), 0) FROM schema_version") : 0;
        Map<String, String> recorded = new HashMap<>();
        if (tables.contains(CHANGELOG_TABLE)) {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT AUTHOR, ID, FILENAME, EXECTYPE FROM " + CHANGELOG_TABLE)) {
                while (rows.next()) {
                    recorded.put(key(rows.getString(1), rows.getString(2), rows.getString(3)), rows.getString(4));
                }
            }
        }
        boolean lockHeld = tables.contains(LOCK_TABLE)
                && queryInt(connection, "SELECT count(*) FROM " + LOCK_TABLE + " WHERE LOCKED <> 0") > 0;
        String journalMode;
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA journal_mode")) {
            journalMode = rows.next() ? rows.getString(1) : "unknown";
        }
        return new FileInspection(tables, indexes, triggers, columns(connection, "sessions"),
                columns(connection, "messages"), version, recorded, lockHeld, journalMode);
    }

    static String key(String author, String id, String file) {
        return author + ":" + id + ":" + file;
    }

    /** No table of its own yet (only SQLite's or Liquibase's): a new store. */
    boolean isBlank() {
        return userTables().isEmpty();
    }

    /**
     * The file is a Hermes store, possibly old, newer or half-created: it has a {@code sessions} table
     * with Hermes' key columns, or it is blank, or it holds nothing but {@code schema_version} (the
     * Python agent creates that table first). Another application's database, even one with a
     * {@code schema_version} table of its own, is not.
     */
    boolean isHermes() {
        if (isBlank()) {
            return true;
        }
        if (tables.contains("sessions")) {
            return sessionColumns.containsAll(HERMES_KEY_SESSION_COLUMNS);
        }
        return userTables().equals(Set.of("schema_version"));
    }

    Set<String> userTables() {
        Set<String> user = new TreeSet<>();
        for (String table : tables) {
            String lower = table.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("sqlite_") && !lower.startsWith("databasechangelog")) {
                user.add(table);
            }
        }
        return user;
    }

    /** The objects and columns of the version-6 schema this file lacks, by name. */
    List<String> missingV6Objects() {
        List<String> missing = new ArrayList<>();
        for (String table : List.of("schema_version", "sessions", "messages", "messages_fts")) {
            if (!tables.contains(table)) {
                missing.add("table " + table);
            }
        }
        V6_SESSION_COLUMNS.stream().filter(c -> !sessionColumns.contains(c)).forEach(c -> missing.add("sessions." + c));
        V6_MESSAGE_COLUMNS.stream().filter(c -> !messageColumns.contains(c)).forEach(c -> missing.add("messages." + c));
        V6_INDEXES.stream().filter(i -> !indexes.contains(i)).forEach(i -> missing.add("index " + i));
        V6_TRIGGERS.stream().filter(t -> !triggers.contains(t)).forEach(t -> missing.add("trigger " + t));
        return missing;
    }

    /** hermes-state's own tables this file lacks. */
    List<String> missingOwnTables() {
        return OWN_TABLES.stream().filter(table -> !tables.contains(table)).map(table -> "table " + table).toList();
    }

    /** What a read-write open must leave: the version-6 schema and hermes-state's own tables. */
    List<String> missingObjects() {
        List<String> missing = new ArrayList<>(missingV6Objects());
        missing.addAll(missingOwnTables());
        return missing;
    }

    /**
     * hermes-state's own tables are recorded as created but one is missing (dropped by hand, or the
     * file was rebuilt from Hermes' tables only): their records must go, so that the migration creates
     * them again instead of trusting the records.
     */
    boolean ownTablesLost() {
        if (missingOwnTables().isEmpty()) {
            return false;
        }
        return recordedChangeSets.keySet().stream().anyMatch(key -> key.startsWith(OWN_AUTHOR + ":"));
    }

    /** Readable as a version-6 store: the columns exist (a newer file may have more). */
    boolean hasV6Columns() {
        return sessionColumns.containsAll(V6_SESSION_COLUMNS) && messageColumns.containsAll(V6_MESSAGE_COLUMNS);
    }

    /** Every changeset of the changelog is recorded as executed or marked ran. */
    boolean hasRecorded(List<Changelog.ChangeSetRef> changeSets) {
        for (Changelog.ChangeSetRef changeSet : changeSets) {
            if (!recordedChangeSets.containsKey(key(changeSet.author(), changeSet.id(), changeSet.logicalFile()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The schema needs no change: every object is present (the version number is not trusted) and
     * every changeset recorded, so Liquibase would find nothing to do.
     */
    boolean isSchemaUpToDate(List<Changelog.ChangeSetRef> changeSets, int latestVersion) {
        return schemaVersion == latestVersion && missingObjects().isEmpty() && hasRecorded(changeSets);
    }

    /** Nothing to do at all, WAL included: the fast path. */
    boolean isUpToDate(List<Changelog.ChangeSetRef> changeSets, int latestVersion) {
        return isSchemaUpToDate(changeSets, latestVersion) && "wal".equalsIgnoreCase(journalMode);
    }

    /** The number of rows of {@code table} (one of this file's tables, else 0), read on {@code connection}. */
    long rowCount(Connection connection, String table) throws SQLException {
        if (!tables.contains(table)) {
            return 0;
        }
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM \"" + table + "\"")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    private static Set<String> columns(Connection connection, String table) throws SQLException {
        Set<String> columns = new HashSet<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT name FROM pragma_table_info('" + table + "')")) {
            while (rows.next()) {
                columns.add(rows.getString(1));
            }
        }
        return columns;
    }

    private static int queryInt(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }
}
