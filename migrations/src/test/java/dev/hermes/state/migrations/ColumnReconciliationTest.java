package dev.hermes.state.migrations;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Files that claim a Hermes version but lack columns of version 1's tables: the agent (from version 10
 * on) adds every declared column a live table lacks on each open, so a migration to 17 does too, in its
 * one transaction; a column SQLite cannot add, or a migration kept at 6 (whose agent did not reconcile),
 * still refuses the file and leaves it unchanged.
 */
class ColumnReconciliationTest {
    /** A version-10 file whose sessions table has only some of Hermes' columns; messages has version 10's. */
    private static final List<String> V10_SHORT_SESSIONS = List.of(
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            "INSERT INTO schema_version (version) VALUES (10)",
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL,
              title TEXT, parent_session_id TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
              api_call_count INTEGER DEFAULT 0)""",
            """
            CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
              role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
              token_count INTEGER, finish_reason TEXT, reasoning TEXT, reasoning_details TEXT, codex_reasoning_items TEXT,
              reasoning_content TEXT, codex_message_items TEXT)""",
            "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)",
            "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN"
                    + " INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
            "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content=messages, content_rowid=id,"
                    + " tokenize='trigram')",
            "CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN"
                    + " INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id, new.content); END",
            "INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1700000000.5)",
            "INSERT INTO messages (session_id, timestamp, role, content, tool_name, tool_calls) VALUES ('s1', 1700000001.25,"
                    + " 'assistant', '', 'OLDTOOLNAME', '{\"function\":{\"name\":\"web_search\",\"arguments\":"
                    + "\"{\\\"q\\\":\\\"OLDTOOLARG\\\"}\"}}')");

    private static final String COLUMNS = "SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || ifnull(dflt_value, '-')"
            + " || ' ' || pk FROM pragma_table_info('%s') ORDER BY name";

    @TempDir
    Path dir;

    @Test
    void aVersionTenFileLackingOriginalSessionColumnsGetsThemAsAFreshFileHasThem() throws Exception {
        Path fresh = dir.resolve("fresh.db");
        Migrator.create().migrate(fresh);
        Path db = dir.resolve("legacy.db");
        SqliteFiles.execute(db, V10_SHORT_SESSIONS.toArray(String[]::new));
        assertEquals(List.of(), SqliteFiles.column(db, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'OLDTOOLARG'"));

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(10, result.fromVersion());
        assertEquals(17, result.toVersion());
        for (String table : List.of("sessions", "messages")) {
            List<String> expected = SqliteFiles.column(fresh, COLUMNS.formatted(table));
            assertEquals(expected, SqliteFiles.column(db, COLUMNS.formatted(table)), table);
        }
        assertEquals(List.of("user_id TEXT 0 - 0", "model TEXT 0 - 0", "model_config TEXT 0 - 0",
                        "system_prompt TEXT 0 - 0", "end_reason TEXT 0 - 0", "input_tokens INTEGER 0 0 0",
                        "output_tokens INTEGER 0 0 0"),
                SqliteFiles.column(db, "SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || ifnull(dflt_value, '-') || ' ' || pk"
                        + " FROM pragma_table_info('sessions') WHERE name IN ('user_id', 'model', 'model_config',"
                        + " 'system_prompt', 'end_reason', 'input_tokens', 'output_tokens') ORDER BY cid"));
        assertEquals(List.of("s1|cli|1700000000.5||||||0|0|0|0|0"), SqliteFiles.column(db, "SELECT id || '|' || source || '|' || started_at"
                + " || '|' || ifnull(user_id, '') || '|' || ifnull(model, '') || '|' || ifnull(model_config, '')"
                + " || '|' || ifnull(system_prompt, '') || '|' || ifnull(end_reason, '') || '|' || input_tokens"
                + " || '|' || output_tokens || '|' || message_count || '|' || tool_call_count || '|' || api_call_count"
                + " FROM sessions"));
        assertEquals(List.of("1|s1|assistant||OLDTOOLNAME|1700000001.25|1"), SqliteFiles.column(db, "SELECT id || '|' || session_id"
                + " || '|' || role || '|' || content || '|' || tool_name || '|' || timestamp || '|' || active FROM messages"));
        assertEquals(List.of("{\"function\":{\"name\":\"web_search\",\"arguments\":\"{\\\"q\\\":\\\"OLDTOOLARG\\\"}\"}}"),
                SqliteFiles.column(db, "SELECT tool_calls FROM messages"));
        assertEquals(List.of("1"), SqliteFiles.column(db, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'OLDTOOLARG'"));
        assertEquals(List.of("1"), SqliteFiles.column(db, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'OLDTOOLNAME'"));
        assertEquals(List.of("1"), SqliteFiles.column(db, "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH 'OLDTOOLARG'"));
        assertEquals(List.of(), Migrator.create().migrate(db).changes(), "the next open finds it up to date");
        assertEquals(true, Migrator.create().migrate(db).fastPath());
    }

    @Test
    void aColumnSqliteCannotAddStillRefusesTheFileUnchanged() throws Exception {
        Path db = dir.resolve("no-role.db");
        List<String> statements = new ArrayList<>(V10_SHORT_SESSIONS.subList(0, 3));
        statements.add("CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                + " timestamp REAL NOT NULL, tool_calls TEXT)");
        SqliteFiles.execute(db, statements.toArray(String[]::new));
        String before = Fixtures.sha256(db);

        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> Migrator.create().migrate(db));

        assertEquals(db + " could not be brought to schema version 17: its tables differ from Hermes' (missing"
                + " [messages.role]); it was left unchanged", e.getMessage());
        assertEquals(before, Fixtures.sha256(db));
    }

    @Test
    void aStoreKeptAtSixIsNotReconciledAsTheAgentOfThatTimeDidNot() throws Exception {
        Path db = dir.resolve("v3-short.db");
        SqliteFiles.execute(db, "CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version (version) VALUES (3)",
                "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL,"
                        + " parent_session_id TEXT, message_count INTEGER DEFAULT 0)",
                "INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1.5)");
        String before = Fixtures.sha256(db);

        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class,
                () -> Migrator.create().toVersion(6).migrate(db));

        assertEquals(db + " could not be brought to schema version 6: its tables differ from Hermes' (missing"
                + " [sessions.user_id, sessions.model, sessions.model_config, sessions.system_prompt, sessions.ended_at,"
                + " sessions.end_reason, sessions.tool_call_count, sessions.input_tokens, sessions.output_tokens]);"
                + " it was left unchanged", e.getMessage());
        assertEquals(before, Fixtures.sha256(db));
        assertEquals(17, Migrator.create().migrate(db).toVersion());
        assertEquals(List.of("s1|cli|0|0|0"), SqliteFiles.column(db, "SELECT id || '|' || source || '|' || message_count || '|'"
                + " || tool_call_count || '|' || input_tokens FROM sessions"));
    }
}
