package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Telegram topic tables on SQLite are the agent's statement for statement: {@code sqlite_master}
 * keeps each statement's text, and these are the texts the agent's v17 module leaves there (on a
 * fresh file, and after it rebuilt a bindings table of the topic schema's first version).
 */
class TelegramTopicDdlTest {
    /** sqlite_master (type|name|sql) after the agent's apply_telegram_topic_migration on a fresh file. */
    private static final List<String> AGENT_FRESH = List.of(
            "index|idx_telegram_dm_topic_bindings_session|CREATE UNIQUE INDEX idx_telegram_dm_topic_bindings_session\n                ON telegram_dm_topic_bindings(session_id)",
            "index|idx_telegram_dm_topic_bindings_user|CREATE INDEX idx_telegram_dm_topic_bindings_user\n                ON telegram_dm_topic_bindings(user_id, chat_id)",
            "table|telegram_dm_topic_bindings|CREATE TABLE telegram_dm_topic_bindings (\n                    chat_id TEXT NOT NULL,\n                    thread_id TEXT NOT NULL,\n                    user_id TEXT NOT NULL,\n                    session_key TEXT NOT NULL,\n                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,\n                    managed_mode TEXT NOT NULL DEFAULT 'auto',\n                    linked_at REAL NOT NULL,\n                    updated_at REAL NOT NULL,\n                    PRIMARY KEY (chat_id, thread_id)\n                )",
            "table|telegram_dm_topic_mode|CREATE TABLE telegram_dm_topic_mode (\n                    chat_id TEXT PRIMARY KEY,\n                    user_id TEXT NOT NULL,\n                    enabled INTEGER NOT NULL DEFAULT 1,\n                    activated_at REAL NOT NULL,\n                    updated_at REAL NOT NULL,\n                    has_topics_enabled INTEGER,\n                    allows_users_to_create_topics INTEGER,\n                    capability_checked_at REAL,\n                    intro_message_id TEXT,\n                    pinned_message_id TEXT\n                )");

    /** The same after it found a first-version bindings table (no ON DELETE CASCADE) and rebuilt it. */
    private static final List<String> AGENT_UPGRADED = List.of(
            "index|idx_telegram_dm_topic_bindings_session|CREATE UNIQUE INDEX idx_telegram_dm_topic_bindings_session\n                            ON telegram_dm_topic_bindings(session_id)",
            "index|idx_telegram_dm_topic_bindings_user|CREATE INDEX idx_telegram_dm_topic_bindings_user\n                            ON telegram_dm_topic_bindings(user_id, chat_id)",
            "table|telegram_dm_topic_bindings|CREATE TABLE \"telegram_dm_topic_bindings\" (\n                            chat_id TEXT NOT NULL,\n                            thread_id TEXT NOT NULL,\n                            user_id TEXT NOT NULL,\n                            session_key TEXT NOT NULL,\n                            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,\n                            managed_mode TEXT NOT NULL DEFAULT 'auto',\n                            linked_at REAL NOT NULL,\n                            updated_at REAL NOT NULL,\n                            PRIMARY KEY (chat_id, thread_id)\n                        )",
            "table|telegram_dm_topic_mode|CREATE TABLE telegram_dm_topic_mode (\n                    chat_id TEXT PRIMARY KEY,\n                    user_id TEXT NOT NULL,\n                    enabled INTEGER NOT NULL DEFAULT 1,\n                    activated_at REAL NOT NULL,\n                    updated_at REAL NOT NULL,\n                    has_topics_enabled INTEGER,\n                    allows_users_to_create_topics INTEGER,\n                    capability_checked_at REAL,\n                    intro_message_id TEXT,\n                    pinned_message_id TEXT\n                )");

    @TempDir
    Path dir;

    @Test
    void theTablesAreTheAgentsOnAFreshFile() throws Exception {
        Path file;
        try (StateRepository store = TestStores.fresh(dir, new TestStores.TickingClock(TestStores.EPOCH, java.time.Duration.ofMillis(1)), 17)) {
            store.telegramTopics().applyMigration();
            store.telegramTopics().applyMigration();
            file = store.path().orElseThrow();
        }
        assertEquals(AGENT_FRESH, master(file));
    }

    @Test
    void aFirstVersionBindingsTableIsRebuiltWithTheCascadeAndKeepsItsRows() throws Exception {
        Path file;
        try (StateRepository store = TestStores.fresh(dir, new TestStores.TickingClock(TestStores.EPOCH, java.time.Duration.ofMillis(1)), 17)) {
            store.createSession("s", "telegram");
            file = store.path().orElseThrow();
            SqliteFiles.execute(file, "CREATE TABLE telegram_dm_topic_bindings (chat_id TEXT NOT NULL, thread_id TEXT NOT NULL,"
                    + " user_id TEXT NOT NULL, session_key TEXT NOT NULL, session_id TEXT NOT NULL REFERENCES sessions(id),"
                    + " managed_mode TEXT NOT NULL DEFAULT 'auto', linked_at REAL NOT NULL, updated_at REAL NOT NULL,"
                    + " PRIMARY KEY (chat_id, thread_id))",
                    "INSERT INTO telegram_dm_topic_bindings VALUES ('1', '2', 'u', 'k', 's', 'auto', 1.0, 2.0)");
            store.telegramTopics().applyMigration();
            assertEquals(AGENT_UPGRADED, master(file));
            assertEquals("1|2|u|k|s|auto|1.0|2.0", SqliteFiles.text(file, "SELECT chat_id || '|' || thread_id || '|' || user_id"
                    + " || '|' || session_key || '|' || session_id || '|' || managed_mode || '|' || printf('%.1f', linked_at)"
                    + " || '|' || printf('%.1f', updated_at) FROM telegram_dm_topic_bindings"));
            store.deleteSession("s");
            assertEquals(0, SqliteFiles.number(file, "SELECT count(*) FROM telegram_dm_topic_bindings"));
            store.telegramTopics().applyMigration();
        }
        assertEquals(AGENT_UPGRADED, master(file), "a second opt-in changes nothing");
    }

    private static List<String> master(Path file) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT type, name, sql FROM sqlite_master"
                     + " WHERE name LIKE '%telegram%' AND sql IS NOT NULL ORDER BY name")) {
            while (result.next()) {
                rows.add(result.getString(1) + "|" + result.getString(2) + "|" + result.getString(3));
            }
        }
        return rows;
    }
}
