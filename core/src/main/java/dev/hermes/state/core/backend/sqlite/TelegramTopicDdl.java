package dev.hermes.state.core.backend.sqlite;

import java.util.List;

/**
 * The Telegram DM topic tables as the agent creates them on SQLite, statement for statement and
 * space for space: SQLite keeps each statement's text in {@code sqlite_master}, so a file whose tables
 * we created reads the same to the agent as one whose tables it created.
 */
final class TelegramTopicDdl {
    /** The tables and indexes, each only when missing. */
    static final List<String> CREATE = List.of(
            "CREATE TABLE IF NOT EXISTS telegram_dm_topic_mode (" + "\n"
                    + "                    chat_id TEXT PRIMARY KEY," + "\n"
                    + "                    user_id TEXT NOT NULL," + "\n"
                    + "                    enabled INTEGER NOT NULL DEFAULT 1," + "\n"
                    + "                    activated_at REAL NOT NULL," + "\n"
                    + "                    updated_at REAL NOT NULL," + "\n"
                    + "                    has_topics_enabled INTEGER," + "\n"
                    + "                    allows_users_to_create_topics INTEGER," + "\n"
                    + "                    capability_checked_at REAL," + "\n"
                    + "                    intro_message_id TEXT," + "\n"
                    + "                    pinned_message_id TEXT" + "\n"
                    + "                )",
            "CREATE TABLE IF NOT EXISTS telegram_dm_topic_bindings (" + "\n"
                    + "                    chat_id TEXT NOT NULL," + "\n"
                    + "                    thread_id TEXT NOT NULL," + "\n"
                    + "                    user_id TEXT NOT NULL," + "\n"
                    + "                    session_key TEXT NOT NULL," + "\n"
                    + "                    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE," + "\n"
                    + "                    managed_mode TEXT NOT NULL DEFAULT 'auto'," + "\n"
                    + "                    linked_at REAL NOT NULL," + "\n"
                    + "                    updated_at REAL NOT NULL," + "\n"
                    + "                    PRIMARY KEY (chat_id, thread_id)" + "\n"
                    + "                )",
            "CREATE UNIQUE INDEX IF NOT EXISTS idx_telegram_dm_topic_bindings_session" + "\n"
                    + "                ON telegram_dm_topic_bindings(session_id)",
            "CREATE INDEX IF NOT EXISTS idx_telegram_dm_topic_bindings_user" + "\n"
                    + "                ON telegram_dm_topic_bindings(user_id, chat_id)");

    /** Rebuilds a bindings table of the first topic schema with its session reference cascading deletes. */
    static final List<String> REBUILD_BINDINGS = List.of(
            "CREATE TABLE telegram_dm_topic_bindings_new (" + "\n"
                    + "                            chat_id TEXT NOT NULL," + "\n"
                    + "                            thread_id TEXT NOT NULL," + "\n"
                    + "                            user_id TEXT NOT NULL," + "\n"
                    + "                            session_key TEXT NOT NULL," + "\n"
                    + "                            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE," + "\n"
                    + "                            managed_mode TEXT NOT NULL DEFAULT 'auto'," + "\n"
                    + "                            linked_at REAL NOT NULL," + "\n"
                    + "                            updated_at REAL NOT NULL," + "\n"
                    + "                            PRIMARY KEY (chat_id, thread_id)" + "\n"
                    + "                        )",
            "INSERT INTO telegram_dm_topic_bindings_new" + "\n"
                    + "                            SELECT chat_id, thread_id, user_id, session_key," + "\n"
                    + "                                   session_id, managed_mode, linked_at, updated_at" + "\n"
                    + "                            FROM telegram_dm_topic_bindings",
            "DROP TABLE telegram_dm_topic_bindings",
            "ALTER TABLE telegram_dm_topic_bindings_new" + "\n"
                    + "                            RENAME TO telegram_dm_topic_bindings",
            "CREATE UNIQUE INDEX idx_telegram_dm_topic_bindings_session" + "\n"
                    + "                            ON telegram_dm_topic_bindings(session_id)",
            "CREATE INDEX idx_telegram_dm_topic_bindings_user" + "\n"
                    + "                            ON telegram_dm_topic_bindings(user_id, chat_id)");

    private TelegramTopicDdl() {
    }
}
