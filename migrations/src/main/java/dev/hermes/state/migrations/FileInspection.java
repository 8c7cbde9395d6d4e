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
        Map<String, String> fullTextSql,
        Set<String> sessionColumns,
        Set<String> messageColumns,
        int schemaVersion,
        Map<String, String> recordedChangeSets,
        boolean liquibaseLockHeld,
        String journalMode) {

    static final String CHANGELOG_TABLE = "DATABASECHANGELOG";
    static final String LOCK_TABLE = "DATABASECHANGELOGLOCK";

    /** The columns a version-6 file has (docs/behaviour.md#file-and-schema); a read-only open needs at least these. */
    static final List<String> V6_SESSION_COLUMNS = HermesSchema.at(6).sessionColumns();
    static final List<String> V6_MESSAGE_COLUMNS = HermesSchema.at(6).messageColumns();
    /** Columns every Hermes sessions table has had since version 1: they tell it from other "sessions" tables. */
    static final List<String> HERMES_KEY_SESSION_COLUMNS = List.of("id", "source", "started_at", "parent_session_id");
    static final List<String> V6_INDEXES = HermesSchema.at(6).indexes();
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
        Map<String, String> fullTextSql = new HashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT type, name, sql FROM sqlite_master")) {
            while (rows.next()) {
                String name = rows.getString(2);
                switch (rows.getString(1)) {
                    case "table" -> tables.add(name);
                    case "index" -> indexes.add(name);
                    case "trigger" -> triggers.add(name);
                    default -> { }
                }
                if (name.startsWith("messages_fts") && rows.getString(3) != null) {
                    fullTextSql.put(name, rows.getString(3));
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
        return new FileInspection(tables, indexes, triggers, fullTextSql, columns(connection, "sessions"),
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

    /**
     * The objects and columns of Hermes' schema at {@code version} this file lacks, by name; from
     * version 11 on, a full-text table or trigger in an earlier form counts as missing.
     */
    List<String> missingHermesObjects(int version) {
        HermesSchema.Objects schema = HermesSchema.at(version);
        List<String> missing = new ArrayList<>();
        schema.tables().stream().filter(t -> !tables.contains(t)).forEach(t -> missing.add("table " + t));
        schema.sessionColumns().stream().filter(c -> !sessionColumns.contains(c)).forEach(c -> missing.add("sessions." + c));
        schema.messageColumns().stream().filter(c -> !messageColumns.contains(c)).forEach(c -> missing.add("messages." + c));
        schema.indexes().stream().filter(i -> !indexes.contains(i)).forEach(i -> missing.add("index " + i));
        schema.triggers().stream().filter(t -> !triggers.contains(t)).forEach(t -> missing.add("trigger " + t));
        if (schema.inlineFullText()) {
            for (String name : List.of("messages_fts", "messages_fts_trigram")) {
                if (tables.contains(name) && !inlineTable(name)) {
                    missing.add("table " + name + " in version " + HermesSchema.INLINE_FULL_TEXT + "'s form");
                }
                for (String event : List.of("insert", "delete", "update")) {
                    String trigger = name + "_" + event;
                    if (triggers.contains(trigger) && !inlineTrigger(name, event)) {
                        missing.add("trigger " + trigger + " in version " + HermesSchema.INLINE_FULL_TEXT + "'s form");
                    }
                }
            }
        }
        return missing;
    }

    /** The full-text table stores its own text (no {@code content=} option) with its tokenizer. */
    private boolean inlineTable(String name) {
        String sql = fullTextSql.getOrDefault(name, "");
        return !sql.contains("content=") && sql.contains("trigram") == name.endsWith("_trigram");
    }

    /** The trigger indexes content, tool name and tool calls, and removes a row by its rowid. */
    private boolean inlineTrigger(String table, String event) {
        String sql = fullTextSql.getOrDefault(table + "_" + event, "");
        boolean indexes = sql.contains("new.tool_calls");
        boolean deletes = sql.contains("DELETE FROM " + table + " WHERE rowid = old.id");
        return switch (event) {
            case "insert" -> indexes;
            case "delete" -> deletes;
            default -> indexes && deletes;
        };
    }

    /**
     * The columns of Hermes' first version that its {@code sessions} or {@code messages} table lacks:
     * they were part of the table from its creation, so no changeset adds them. A migration to a version
     * whose agent reconciles columns adds those SQLite can add ({@link ColumnReconciliation}); a table
     * lacking any other is another application's.
     */
    List<String> missingOriginalColumns() {
        HermesSchema.Objects first = HermesSchema.at(1);
        List<String> missing = new ArrayList<>();
        if (tables.contains("sessions")) {
            first.sessionColumns().stream().filter(c -> !sessionColumns.contains(c)).forEach(c -> missing.add("sessions." + c));
        }
        if (tables.contains("messages")) {
            first.messageColumns().stream().filter(c -> !messageColumns.contains(c)).forEach(c -> missing.add("messages." + c));
        }
        return missing;
    }

    /** hermes-state's own tables this file lacks. */
    List<String> missingOwnTables() {
        return OWN_TABLES.stream().filter(table -> !tables.contains(table)).map(table -> "table " + table).toList();
    }

    /** What a read-write open at {@code version} must leave: Hermes' schema at that version and hermes-state's own tables. */
    List<String> missingObjects(int version) {
        List<String> missing = new ArrayList<>(missingHermesObjects(version));
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

    /**
     * Hermes changesets of {@code changeSets} recorded as done although they belong to versions above the
     * number the file claims. Only another writer lowers the number (hand repair, a tool that resets it to
     * re-run an upgrade); the Python agent then runs every step gated on that number again, while the records
     * alone would make Liquibase skip those steps for ever, leave the number where it is and fail the
     * migration. Forgetting the records lets them run again, each guarded by its precondition on what the
     * file holds. hermes-state's own changesets are not numbered steps and keep theirs.
     */
    List<Changelog.ChangeSetRef> recordedAboveVersion(List<Changelog.ChangeSetRef> changeSets) {
        return changeSets.stream()
                .filter(changeSet -> changeSet.version() > schemaVersion && !OWN_AUTHOR.equals(changeSet.author()))
                .filter(changeSet -> recordedChangeSets.containsKey(key(changeSet.author(), changeSet.id(),
                        changeSet.logicalFile())))
                .toList();
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
     * The schema needs no change to be at {@code version}: every object is present (the version number is
     * not trusted) and every changeset of that version's changelog recorded, so Liquibase would find nothing to do.
     */
    boolean isSchemaUpToDate(int version) {
        return schemaVersion == version && missingObjects(version).isEmpty() && hasRecorded(Changelog.changeSets(version));
    }

    /** Nothing to do at all, WAL included: the fast path. */
    boolean isUpToDate(int version) {
        return isSchemaUpToDate(version) && "wal".equalsIgnoreCase(journalMode);
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
