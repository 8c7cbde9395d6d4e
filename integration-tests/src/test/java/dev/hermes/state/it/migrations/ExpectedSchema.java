package dev.hermes.state.it.migrations;

import dev.hermes.state.it.migrations.SqliteDb.Column;
import dev.hermes.state.it.migrations.SqliteDb.ForeignKey;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The version-6 schema exactly as SPEC section 1 writes it, and the checks that hold a file to it.
 * Tables are compared column by column (column order legitimately differs between fresh and
 * migrated files); indexes, triggers and the FTS table by their SQL, whitespace-normalised.
 */
final class ExpectedSchema {
    /** SPEC section 1, verbatim: the objects whose SQL must read the same in every file. */
    static final Map<String, String> SPEC_SQL = Map.ofEntries(
            Map.entry("index idx_sessions_source", "CREATE INDEX idx_sessions_source  ON sessions(source);"),
            Map.entry("index idx_sessions_parent", "CREATE INDEX idx_sessions_parent  ON sessions(parent_session_id);"),
            Map.entry("index idx_sessions_started", "CREATE INDEX idx_sessions_started ON sessions(started_at DESC);"),
            Map.entry("index idx_messages_session", "CREATE INDEX idx_messages_session ON messages(session_id, timestamp);"),
            Map.entry("index idx_sessions_title_unique",
                    "CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;"),
            Map.entry("table messages_fts",
                    "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id);"),
            Map.entry("trigger messages_fts_insert", """
                    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
                      INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END;"""),
            Map.entry("trigger messages_fts_delete", """
                    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
                      INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content); END;"""),
            Map.entry("trigger messages_fts_update", """
                    CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
                      INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
                      INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END;"""));

    static final Map<String, Column> SCHEMA_VERSION_COLUMNS = columns(
            new Column("version", "INTEGER", true, null, 0));

    static final Map<String, Column> SESSIONS_COLUMNS = columns(
            new Column("id", "TEXT", false, null, 1),
            new Column("source", "TEXT", true, null, 0),
            text("user_id"), text("model"), text("model_config"), text("system_prompt"), text("parent_session_id"),
            new Column("started_at", "REAL", true, null, 0),
            real("ended_at"), text("end_reason"),
            counter("message_count"), counter("tool_call_count"), counter("input_tokens"), counter("output_tokens"),
            counter("cache_read_tokens"), counter("cache_write_tokens"), counter("reasoning_tokens"),
            text("billing_provider"), text("billing_base_url"), text("billing_mode"),
            real("estimated_cost_usd"), real("actual_cost_usd"), text("cost_status"), text("cost_source"),
            text("pricing_version"), text("title"));

    static final Map<String, Column> MESSAGES_COLUMNS = columns(
            new Column("id", "INTEGER", false, null, 1),
            new Column("session_id", "TEXT", true, null, 0),
            new Column("role", "TEXT", true, null, 0),
            text("content"), text("tool_call_id"), text("tool_calls"), text("tool_name"),
            new Column("timestamp", "REAL", true, null, 0),
            new Column("token_count", "INTEGER", false, null, 0),
            text("finish_reason"), text("reasoning"), text("reasoning_details"), text("codex_reasoning_items"));

    /** Columns added after version 1 whose value existing rows get from their DEFAULT. */
    static final Set<String> ZERO_DEFAULT_COLUMNS = Set.of("cache_read_tokens", "cache_write_tokens", "reasoning_tokens");

    /** The objects of a version-6 file besides the SPEC's own: SQLite's and FTS5's internals, Liquibase's bookkeeping. */
    static final Set<String> SUPPORTING_OBJECTS = Set.of("table sqlite_sequence", "index sqlite_autoindex_sessions_1",
            "table messages_fts_config", "table messages_fts_data", "table messages_fts_docsize", "table messages_fts_idx",
            "table DATABASECHANGELOG", "table DATABASECHANGELOGLOCK",
            // hermes-state's own tables (the chat memories' conversation windows)
            "table hermes_state_window", "index sqlite_autoindex_hermes_state_window_1", "table hermes_state_window_message");

    /**
     * The Python agent's start-up statements at version 6: SPEC section 1 with IF NOT EXISTS, in three
     * scripts as the agent runs them (tables and plain indexes, the title index, then FTS).
     */
    static final String AGENT_STARTUP_SCRIPT = """
            CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);

            CREATE TABLE IF NOT EXISTS sessions (
              id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT,
              system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
              message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
              input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
              cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0,
              billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT,
              estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT,
              title TEXT,
              FOREIGN KEY (parent_session_id) REFERENCES sessions(id));

            CREATE TABLE IF NOT EXISTS messages (
              id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
              role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
              timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
              reasoning TEXT, reasoning_details TEXT, codex_reasoning_items TEXT);

            CREATE INDEX IF NOT EXISTS idx_sessions_source  ON sessions(source);
            CREATE INDEX IF NOT EXISTS idx_sessions_parent  ON sessions(parent_session_id);
            CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
            CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
            """;
    static final String AGENT_TITLE_INDEX =
            "CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL";
    static final String AGENT_FTS_SCRIPT = """
            CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(content, content=messages, content_rowid=id);
            CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
              INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
              INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content); END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE ON messages BEGIN
              INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
              INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END;
            """;

    private ExpectedSchema() {
    }

    /**
     * Asserts that {@code db} holds exactly the SPEC's version-6 schema, plus {@code extraObjects}
     * (another application's tables an adopted file legitimately keeps).
     */
    static void assertVersion6(Path db, Set<String> extraObjects) throws SQLException {
        Map<String, String> master = SqliteDb.master(db);
        Set<String> expectedNames = new TreeSet<>(SPEC_SQL.keySet());
        expectedNames.addAll(Set.of("table schema_version", "table sessions", "table messages"));
        expectedNames.addAll(SUPPORTING_OBJECTS);
        expectedNames.addAll(extraObjects);
        assertEquals(expectedNames, master.keySet(), "the objects of " + db.getFileName());

        for (Map.Entry<String, String> expected : SPEC_SQL.entrySet()) {
            assertEquals(normalise(expected.getValue()), normalise(master.get(expected.getKey())),
                    expected.getKey() + " in " + db.getFileName());
        }
        assertEquals(SCHEMA_VERSION_COLUMNS, SqliteDb.columns(db, "schema_version"));
        assertEquals(SESSIONS_COLUMNS, SqliteDb.columns(db, "sessions"));
        assertEquals(MESSAGES_COLUMNS, SqliteDb.columns(db, "messages"));
        assertEquals(List.of(new ForeignKey("parent_session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "sessions"));
        assertEquals(List.of(new ForeignKey("session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "messages"));
        assertEquals(List.of(), SqliteDb.foreignKeys(db, "schema_version"));
        // pragma_table_info cannot show AUTOINCREMENT: message ids are never reused (Hermes relies on it)
        assertTrue(master.get("table messages").contains("id INTEGER PRIMARY KEY AUTOINCREMENT"), master.get("table messages"));
        assertEquals(List.of(List.of(6)), SqliteDb.rows(db, "SELECT version FROM schema_version"), "one schema_version row, 6");
    }

    /** Whitespace-insensitive form of a statement: runs of blanks collapsed, none around punctuation, no final ';'. */
    static String normalise(String sql) {
        if (sql == null) {
            return null;
        }
        String collapsed = sql.strip().replaceAll("\\s+", " ").replaceAll(" ?([(),;]) ?", "$1");
        return collapsed.endsWith(";") ? collapsed.substring(0, collapsed.length() - 1) : collapsed;
    }

    private static Column text(String name) {
        return new Column(name, "TEXT", false, null, 0);
    }

    private static Column real(String name) {
        return new Column(name, "REAL", false, null, 0);
    }

    private static Column counter(String name) {
        return new Column(name, "INTEGER", false, "0", 0);
    }

    private static Map<String, Column> columns(Column... columns) {
        Map<String, Column> byName = new TreeMap<>();
        for (Column column : columns) {
            byName.put(column.name(), column);
        }
        return byName;
    }
}
