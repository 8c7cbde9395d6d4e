package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
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
 * The two schemas a migrated file can hold, and the checks that hold a file to them: version 17, as the
 * agent's own files state-v17.db (a fresh file) and state-v17-upgraded.db (its upgrade of state-v6.db) hold
 * it, and version 6 exactly as the version-6 agent writes it (docs/behaviour.md#file-and-schema) (the store kept at 6). Tables are compared column
 * by column (column order legitimately differs between fresh and migrated files); indexes, triggers and
 * the FTS tables by their SQL, whitespace-normalised.
 */
final class ExpectedSchema {
    /**
     * Version 17's objects whose SQL must read the same in every file, as SQLite stores it in state-v17.db
     * (state-v17-upgraded.db stores the same text): the named indexes, the two full-text tables with the
     * shadow tables FTS5 makes for them, and the six triggers.
     */
    static final Map<String, String> V17_SQL = Map.ofEntries(
            Map.entry("index idx_compression_locks_expires",
                    "CREATE INDEX idx_compression_locks_expires ON compression_locks(expires_at)"),
            Map.entry("index idx_messages_platform_msg_id", "CREATE INDEX idx_messages_platform_msg_id"
                    + " ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL"),
            Map.entry("index idx_messages_session", "CREATE INDEX idx_messages_session ON messages(session_id, timestamp)"),
            Map.entry("index idx_messages_session_active",
                    "CREATE INDEX idx_messages_session_active\n    ON messages(session_id, active, timestamp)"),
            Map.entry("index idx_sessions_gateway_peer", "CREATE INDEX idx_sessions_gateway_peer\n"
                    + "    ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC)"),
            Map.entry("index idx_sessions_handoff_state",
                    "CREATE INDEX idx_sessions_handoff_state\n    ON sessions(handoff_state, started_at)"),
            Map.entry("index idx_sessions_parent", "CREATE INDEX idx_sessions_parent ON sessions(parent_session_id)"),
            Map.entry("index idx_sessions_session_key",
                    "CREATE INDEX idx_sessions_session_key\n    ON sessions(session_key, started_at DESC)"),
            Map.entry("index idx_sessions_source", "CREATE INDEX idx_sessions_source ON sessions(source)"),
            Map.entry("index idx_sessions_source_id", "CREATE INDEX idx_sessions_source_id ON sessions(source, id)"),
            Map.entry("index idx_sessions_started", "CREATE INDEX idx_sessions_started ON sessions(started_at DESC)"),
            Map.entry("index idx_sessions_title_unique",
                    "CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL"),
            Map.entry("table messages_fts", "CREATE VIRTUAL TABLE messages_fts USING fts5(\n    content\n)"),
            Map.entry("table messages_fts_trigram",
                    "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(\n    content,\n    tokenize='trigram'\n)"),
            Map.entry("table messages_fts_config", "CREATE TABLE 'messages_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID"),
            Map.entry("table messages_fts_content", "CREATE TABLE 'messages_fts_content'(id INTEGER PRIMARY KEY, c0)"),
            Map.entry("table messages_fts_data", "CREATE TABLE 'messages_fts_data'(id INTEGER PRIMARY KEY, block BLOB)"),
            Map.entry("table messages_fts_docsize", "CREATE TABLE 'messages_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB)"),
            Map.entry("table messages_fts_idx",
                    "CREATE TABLE 'messages_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID"),
            Map.entry("table messages_fts_trigram_config",
                    "CREATE TABLE 'messages_fts_trigram_config'(k PRIMARY KEY, v) WITHOUT ROWID"),
            Map.entry("table messages_fts_trigram_content",
                    "CREATE TABLE 'messages_fts_trigram_content'(id INTEGER PRIMARY KEY, c0)"),
            Map.entry("table messages_fts_trigram_data",
                    "CREATE TABLE 'messages_fts_trigram_data'(id INTEGER PRIMARY KEY, block BLOB)"),
            Map.entry("table messages_fts_trigram_docsize",
                    "CREATE TABLE 'messages_fts_trigram_docsize'(id INTEGER PRIMARY KEY, sz BLOB)"),
            Map.entry("table messages_fts_trigram_idx",
                    "CREATE TABLE 'messages_fts_trigram_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID"),
            Map.entry("table sqlite_sequence", "CREATE TABLE sqlite_sequence(name,seq)"),
            Map.entry("trigger messages_fts_insert", """
                    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
                        INSERT INTO messages_fts(rowid, content) VALUES (
                            new.id,
                            COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
                        );
                    END"""),
            Map.entry("trigger messages_fts_delete", """
                    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
                        DELETE FROM messages_fts WHERE rowid = old.id;
                    END"""),
            Map.entry("trigger messages_fts_update", """
                    CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
                        DELETE FROM messages_fts WHERE rowid = old.id;
                        INSERT INTO messages_fts(rowid, content) VALUES (
                            new.id,
                            COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
                        );
                    END"""),
            Map.entry("trigger messages_fts_trigram_insert", """
                    CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN
                        INSERT INTO messages_fts_trigram(rowid, content) VALUES (
                            new.id,
                            COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
                        );
                    END"""),
            Map.entry("trigger messages_fts_trigram_delete", """
                    CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages BEGIN
                        DELETE FROM messages_fts_trigram WHERE rowid = old.id;
                    END"""),
            Map.entry("trigger messages_fts_trigram_update", """
                    CREATE TRIGGER messages_fts_trigram_update AFTER UPDATE ON messages BEGIN
                        DELETE FROM messages_fts_trigram WHERE rowid = old.id;
                        INSERT INTO messages_fts_trigram(rowid, content) VALUES (
                            new.id,
                            COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
                        );
                    END"""));

    /** Version 17's sessions columns (41): version 6's and the 15 later ones. */
    static final Map<String, Column> V17_SESSIONS_COLUMNS = columns(
            new Column("id", "TEXT", false, null, 1),
            new Column("source", "TEXT", true, null, 0),
            text("user_id"), text("session_key"), text("chat_id"), text("chat_type"), text("thread_id"),
            text("model"), text("model_config"), text("system_prompt"), text("parent_session_id"),
            new Column("started_at", "REAL", true, null, 0),
            real("ended_at"), text("end_reason"),
            counter("message_count"), counter("tool_call_count"), counter("input_tokens"), counter("output_tokens"),
            counter("cache_read_tokens"), counter("cache_write_tokens"), counter("reasoning_tokens"),
            text("cwd"), text("git_branch"), text("git_repo_root"),
            text("billing_provider"), text("billing_base_url"), text("billing_mode"),
            real("estimated_cost_usd"), real("actual_cost_usd"), text("cost_status"), text("cost_source"),
            text("pricing_version"), text("title"), counter("api_call_count"),
            text("handoff_state"), text("handoff_platform"), text("handoff_error"),
            real("compression_failure_cooldown_until"), text("compression_failure_error"),
            new Column("rewind_count", "INTEGER", true, "0", 0),
            new Column("archived", "INTEGER", true, "0", 0));

    /** Version 17's messages columns (19): version 6's and the 6 later ones. */
    static final Map<String, Column> V17_MESSAGES_COLUMNS = columns(
            new Column("id", "INTEGER", false, null, 1),
            new Column("session_id", "TEXT", true, null, 0),
            new Column("role", "TEXT", true, null, 0),
            text("content"), text("tool_call_id"), text("tool_calls"), text("tool_name"),
            new Column("timestamp", "REAL", true, null, 0),
            new Column("token_count", "INTEGER", false, null, 0),
            text("finish_reason"), text("reasoning"), text("reasoning_content"), text("reasoning_details"),
            text("codex_reasoning_items"), text("codex_message_items"), text("platform_message_id"),
            counter("observed"),
            new Column("active", "INTEGER", true, "1", 0),
            new Column("compacted", "INTEGER", true, "0", 0));

    static final Map<String, Column> STATE_META_COLUMNS = columns(
            new Column("key", "TEXT", false, null, 1), text("value"));

    static final Map<String, Column> COMPRESSION_LOCKS_COLUMNS = columns(
            new Column("session_id", "TEXT", false, null, 1),
            new Column("holder", "TEXT", true, null, 0),
            new Column("acquired_at", "REAL", true, null, 0),
            new Column("expires_at", "REAL", true, null, 0));

    /** Version 17's tables compared column by column. */
    static final Map<String, Map<String, Column>> V17_TABLES = Map.of("schema_version", columns(
                    new Column("version", "INTEGER", true, null, 0)),
            "sessions", V17_SESSIONS_COLUMNS, "messages", V17_MESSAGES_COLUMNS,
            "state_meta", STATE_META_COLUMNS, "compression_locks", COMPRESSION_LOCKS_COLUMNS);

    /** SQLite's automatic indexes of version 17's keys. */
    static final Set<String> V17_AUTOMATIC_INDEXES = Set.of("index sqlite_autoindex_sessions_1",
            "index sqlite_autoindex_state_meta_1", "index sqlite_autoindex_compression_locks_1");

    /** What hermes-state adds to any file it migrates: Liquibase's bookkeeping and its own tables. */
    static final Set<String> OWN_OBJECTS = Set.of("table DATABASECHANGELOG", "table DATABASECHANGELOGLOCK",
            // the chat memories' conversation windows
            "table hermes_state_window", "index sqlite_autoindex_hermes_state_window_1", "table hermes_state_window_message");

    /** Columns added after version 1 that existing rows fill from a non-NULL DEFAULT (every other added column reads NULL). */
    static final Map<String, String> NON_NULL_DEFAULTS = Map.of("cache_read_tokens", "0", "cache_write_tokens", "0",
            "reasoning_tokens", "0", "api_call_count", "0", "rewind_count", "0", "archived", "0", "observed", "0",
            "active", "1", "compacted", "0");

    /** The version-6 agent's SQL, verbatim (docs/behaviour.md#file-and-schema): the objects whose SQL must read the same in every file kept at version 6. */
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

    static final Map<String, Column> V6_SCHEMA_VERSION_COLUMNS = columns(
            new Column("version", "INTEGER", true, null, 0));

    static final Map<String, Column> V6_SESSIONS_COLUMNS = columns(
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

    static final Map<String, Column> V6_MESSAGES_COLUMNS = columns(
            new Column("id", "INTEGER", false, null, 1),
            new Column("session_id", "TEXT", true, null, 0),
            new Column("role", "TEXT", true, null, 0),
            text("content"), text("tool_call_id"), text("tool_calls"), text("tool_name"),
            new Column("timestamp", "REAL", true, null, 0),
            new Column("token_count", "INTEGER", false, null, 0),
            text("finish_reason"), text("reasoning"), text("reasoning_details"), text("codex_reasoning_items"));

    /** The objects of a version-6 file besides the agent's own: SQLite's and FTS5's internals, Liquibase's bookkeeping. */
    static final Set<String> SUPPORTING_OBJECTS = Set.of("table sqlite_sequence", "index sqlite_autoindex_sessions_1",
            "table messages_fts_config", "table messages_fts_data", "table messages_fts_docsize", "table messages_fts_idx",
            "table DATABASECHANGELOG", "table DATABASECHANGELOGLOCK",
            // hermes-state's own tables (the chat memories' conversation windows)
            "table hermes_state_window", "index sqlite_autoindex_hermes_state_window_1", "table hermes_state_window_message");

    /**
     * The version-17 agent's start-up statements, version 17's schema with IF NOT EXISTS written from the
     * schema above, in the order the agent runs them: the tables; then it adds every column of its schema
     * a table lacks ({@link #V17_COLUMN_DECLARATIONS}); the indexes; the full-text tables and triggers.
     */
    static final String AGENT_V17_TABLES = """
            CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);

            CREATE TABLE IF NOT EXISTS sessions (
              id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT,
              session_key TEXT, chat_id TEXT, chat_type TEXT, thread_id TEXT,
              model TEXT, model_config TEXT, system_prompt TEXT, parent_session_id TEXT,
              started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
              message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
              input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
              cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0,
              cwd TEXT, git_branch TEXT, git_repo_root TEXT,
              billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT,
              estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT,
              title TEXT, api_call_count INTEGER DEFAULT 0,
              handoff_state TEXT, handoff_platform TEXT, handoff_error TEXT,
              compression_failure_cooldown_until REAL, compression_failure_error TEXT,
              rewind_count INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
              FOREIGN KEY (parent_session_id) REFERENCES sessions(id));

            CREATE TABLE IF NOT EXISTS messages (
              id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
              role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
              timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
              reasoning TEXT, reasoning_content TEXT, reasoning_details TEXT, codex_reasoning_items TEXT,
              codex_message_items TEXT, platform_message_id TEXT, observed INTEGER DEFAULT 0,
              active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);

            CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT);

            CREATE TABLE IF NOT EXISTS compression_locks (
              session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at REAL NOT NULL, expires_at REAL NOT NULL);
            """;
    static final String AGENT_V17_INDEXES = """
            CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source);
            CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
            CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
            CREATE INDEX IF NOT EXISTS idx_sessions_source_id ON sessions(source, id);
            CREATE INDEX IF NOT EXISTS idx_sessions_session_key ON sessions(session_key, started_at DESC);
            CREATE INDEX IF NOT EXISTS idx_sessions_gateway_peer
              ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC);
            CREATE INDEX IF NOT EXISTS idx_sessions_handoff_state ON sessions(handoff_state, started_at);
            CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
            CREATE INDEX IF NOT EXISTS idx_messages_session_active ON messages(session_id, active, timestamp);
            CREATE INDEX IF NOT EXISTS idx_messages_platform_msg_id
              ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL;
            CREATE INDEX IF NOT EXISTS idx_compression_locks_expires ON compression_locks(expires_at);
            CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
            """;
    static final String AGENT_V17_FULL_TEXT = """
            CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(content);
            CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts_trigram USING fts5(content, tokenize='trigram');
            CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
              INSERT INTO messages_fts(rowid, content)
                VALUES (new.id, COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, ''));
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
              DELETE FROM messages_fts WHERE rowid = old.id;
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE ON messages BEGIN
              DELETE FROM messages_fts WHERE rowid = old.id;
              INSERT INTO messages_fts(rowid, content)
                VALUES (new.id, COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, ''));
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_insert AFTER INSERT ON messages BEGIN
              INSERT INTO messages_fts_trigram(rowid, content)
                VALUES (new.id, COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, ''));
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_delete AFTER DELETE ON messages BEGIN
              DELETE FROM messages_fts_trigram WHERE rowid = old.id;
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_update AFTER UPDATE ON messages BEGIN
              DELETE FROM messages_fts_trigram WHERE rowid = old.id;
              INSERT INTO messages_fts_trigram(rowid, content)
                VALUES (new.id, COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, ''));
            END;
            """;

    /**
     * Each version-17 column with its declaration, as the agent adds a missing one
     * ({@code ALTER TABLE t ADD COLUMN "name" declaration}), one "table column declaration" per line.
     */
    static final String V17_COLUMN_DECLARATIONS = columnDeclarations();

    /**
     * The Python agent's start-up statements at version 6: that SQL with IF NOT EXISTS, in three
     * scripts as the agent runs them (tables and plain indexes, the title index, then FTS).
     */
    static final String AGENT_V6_STARTUP_SCRIPT = """
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
    static final String AGENT_V6_TITLE_INDEX =
            "CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL";
    static final String AGENT_V6_FTS_SCRIPT = """
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
     * Asserts that {@code db} holds exactly version 17's schema, hermes-state's own objects when
     * {@code migratedByUs}, and {@code extraObjects} (another application's tables an adopted file
     * legitimately keeps).
     */
    static void assertVersion17(Path db, Set<String> extraObjects, boolean migratedByUs) throws SQLException {
        Map<String, String> master = SqliteDb.master(db);
        Set<String> expectedNames = new TreeSet<>(V17_SQL.keySet());
        V17_TABLES.keySet().forEach(table -> expectedNames.add("table " + table));
        expectedNames.addAll(V17_AUTOMATIC_INDEXES);
        if (migratedByUs) {
            expectedNames.addAll(OWN_OBJECTS);
        }
        expectedNames.addAll(extraObjects);
        assertEquals(expectedNames, master.keySet(), "the objects of " + db.getFileName());

        for (Map.Entry<String, String> expected : V17_SQL.entrySet()) {
            assertEquals(normalise(expected.getValue()), normalise(master.get(expected.getKey())),
                    expected.getKey() + " in " + db.getFileName());
        }
        for (Map.Entry<String, Map<String, Column>> table : V17_TABLES.entrySet()) {
            assertEquals(table.getValue(), SqliteDb.columns(db, table.getKey()), "table " + table.getKey());
        }
        assertEquals(List.of(new ForeignKey("parent_session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "sessions"));
        assertEquals(List.of(new ForeignKey("session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "messages"));
        for (String table : List.of("schema_version", "state_meta", "compression_locks")) {
            assertEquals(List.of(), SqliteDb.foreignKeys(db, table), table);
        }
        // pragma_table_info cannot show AUTOINCREMENT: message ids are never reused (Hermes relies on it)
        assertTrue(master.get("table messages").contains("id INTEGER PRIMARY KEY AUTOINCREMENT"), master.get("table messages"));
        assertEquals(List.of(List.of(17)), SqliteFiles.rows(db, "SELECT version FROM schema_version"), "one schema_version row, 17");
    }

    /**
     * Asserts that {@code db} holds exactly the agent's version-6 schema, plus {@code extraObjects}
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
        assertEquals(V6_SCHEMA_VERSION_COLUMNS, SqliteDb.columns(db, "schema_version"));
        assertEquals(V6_SESSIONS_COLUMNS, SqliteDb.columns(db, "sessions"));
        assertEquals(V6_MESSAGES_COLUMNS, SqliteDb.columns(db, "messages"));
        assertEquals(List.of(new ForeignKey("parent_session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "sessions"));
        assertEquals(List.of(new ForeignKey("session_id", "sessions", "id")), SqliteDb.foreignKeys(db, "messages"));
        assertEquals(List.of(), SqliteDb.foreignKeys(db, "schema_version"));
        // pragma_table_info cannot show AUTOINCREMENT: message ids are never reused (Hermes relies on it)
        assertTrue(master.get("table messages").contains("id INTEGER PRIMARY KEY AUTOINCREMENT"), master.get("table messages"));
        assertEquals(List.of(List.of(6)), SqliteFiles.rows(db, "SELECT version FROM schema_version"), "one schema_version row, 6");
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

    private static String columnDeclarations() {
        StringBuilder lines = new StringBuilder();
        for (String table : List.of("sessions", "messages")) {
            for (Column column : (table.equals("sessions") ? V17_SESSIONS_COLUMNS : V17_MESSAGES_COLUMNS).values()) {
                if (column.primaryKey() == 1) {
                    continue; // a table without its key is not one the agent adds columns to
                }
                lines.append(table).append(' ').append(column.name()).append(' ').append(column.type())
                        .append(column.notNull() ? " NOT NULL" : "")
                        .append(column.defaultValue() == null ? "" : " DEFAULT " + column.defaultValue()).append('\n');
            }
        }
        return lines.toString();
    }

    private static Map<String, Column> columns(Column... columns) {
        Map<String, Column> byName = new TreeMap<>();
        for (Column column : columns) {
            byName.put(column.name(), column);
        }
        return byName;
    }
}
