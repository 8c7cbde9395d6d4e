--liquibase formatted sql logicalFilePath:hermes-state/windows.sql

-- Not a Hermes schema version: two tables of hermes-state's own, for the chat memories' conversation
-- windows (the list of messages a memory returns, while every message ever saved stays in its
-- session). schema_version is not touched. No foreign keys: the Python agent's delete_session,
-- prune_sessions and clear_messages know nothing of these tables and must never fail because of them;
-- a window row whose message or session is gone is skipped when read (message ids are AUTOINCREMENT,
-- never reused), and a window whose session_started_at is not its session's started_at belongs to an
-- earlier session of that id, deleted and created again by a writer that does not know these tables.
-- The Python agent ignores tables it does not know.

--changeset hermes-state:windows-window-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'hermes_state_window'
CREATE TABLE hermes_state_window (
    session_id TEXT NOT NULL PRIMARY KEY,
    session_started_at REAL NOT NULL,
    saved_at REAL NOT NULL
)

--changeset hermes-state:windows-window-message-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'hermes_state_window_message'
CREATE TABLE hermes_state_window_message (
    session_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (session_id, position)
) WITHOUT ROWID
