package dev.hermes.state.core;

import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A store opened on a file that claims version 10 but whose sessions table lacks columns of Hermes'
 * first version (built by hand, with the external-content full-text tables of that time): the open
 * adds them as the agent's column reconciliation does, migrates to 17 and finds the tool fields.
 */
class ReconciledColumnsTest {
    private static final String COLUMNS = "SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || ifnull(dflt_value, '-')"
            + " || ' ' || pk FROM pragma_table_info('%s') ORDER BY name";

    @TempDir
    Path dir;

    @Test
    void openingAVersionTenFileWithoutOriginalSessionColumnsAddsThemAndIndexesToolFields() throws Exception {
        Path fresh = dir.resolve("fresh.db");
        StateRepository.open(fresh).close();
        Path db = dir.resolve("legacy.db");
        buildVersionTenFile(db, """
                CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
                  role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
                  token_count INTEGER, finish_reason TEXT, reasoning TEXT, reasoning_details TEXT,
                  codex_reasoning_items TEXT, reasoning_content TEXT, codex_message_items TEXT)""");
        SqliteFiles.execute(db, "INSERT INTO messages (session_id, timestamp, role, content, tool_name, tool_calls) VALUES ('s1',"
                + " 1700000001.25, 'assistant', '', 'LEGACYNAME', '{\"function\":{\"name\":\"web_search\",\"arguments\":"
                + "\"{\\\"q\\\":\\\"LEGACYTOKEN\\\"}\"}}')");

        try (StateRepository store = StateRepository.open(db)) {
            List<SearchHit> byArgument = store.searchMessages(SearchQuery.of("LEGACYTOKEN"));
            assertEquals(List.of(1L), byArgument.stream().map(SearchHit::id).toList());
            assertEquals(List.of("s1"), byArgument.stream().map(SearchHit::sessionId).toList());
            assertEquals(List.of("LEGACYNAME"), byArgument.stream().map(SearchHit::toolName).toList());
            assertEquals(List.of(1L), store.searchMessages(SearchQuery.of("LEGACYNAME")).stream().map(SearchHit::id).toList());
        }

        for (String table : List.of("sessions", "messages")) {
            assertEquals(SqliteFiles.column(fresh, COLUMNS.formatted(table)), SqliteFiles.column(db, COLUMNS.formatted(table)), table);
        }
        assertEquals(List.of("17"), SqliteFiles.column(db, "SELECT group_concat(version) FROM schema_version"));
        assertEquals(List.of("s1|cli|1700000000.5|0|0|0|0|0|-"), SqliteFiles.column(db, "SELECT id || '|' || source || '|' || started_at"
                + " || '|' || input_tokens || '|' || output_tokens || '|' || message_count || '|' || tool_call_count"
                + " || '|' || api_call_count || '|' || ifnull(user_id, '-') FROM sessions"));
        assertEquals(List.of("1|assistant||LEGACYNAME|{\"function\":{\"name\":\"web_search\",\"arguments\":"
                + "\"{\\\"q\\\":\\\"LEGACYTOKEN\\\"}\"}}"), SqliteFiles.column(db, "SELECT id || '|' || role || '|' || content || '|'"
                + " || tool_name || '|' || tool_calls FROM messages"));
    }

    @Test
    void aMessagesTableWithoutItsRoleIsStillRefusedAndLeftUnchanged() throws Exception {
        Path db = dir.resolve("no-role.db");
        buildVersionTenFile(db, "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                + " timestamp REAL NOT NULL, content TEXT)");
        String before = Fixtures.sha256(db);

        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> StateRepository.open(db));

        assertEquals(true, e.getMessage().contains("(missing [messages.role]); it was left unchanged"), e.getMessage());
        assertEquals(before, Fixtures.sha256(db));
    }

    /** schema_version at 10, a sessions table with only some of Hermes' columns and one session, and {@code messages}. */
    private static void buildVersionTenFile(Path db, String messages) throws SQLException {
        SqliteFiles.execute(db, "CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version (version) VALUES (10)",
                """
                CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL,
                  title TEXT, parent_session_id TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
                  api_call_count INTEGER DEFAULT 0)""",
                messages,
                "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id)",
                "CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN"
                        + " INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content); END",
                "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, content=messages, content_rowid=id,"
                        + " tokenize='trigram')",
                "CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN"
                        + " INSERT INTO messages_fts_trigram(rowid, content) VALUES (new.id, new.content); END",
                "INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1700000000.5)");
    }
}
