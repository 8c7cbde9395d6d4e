--liquibase formatted sql logicalFilePath:hermes-state/postgresql/windows.sql

-- Not a Hermes schema version: hermes-state's own tables for the chat memories' conversation windows,
-- as in SQLite's windows.sql one folder up (no foreign keys there either: a window row whose message
-- or session is gone is skipped when read, and so is a window of an earlier session of the same id).
-- schema_version is not touched.

--changeset hermes-state:windows-window-table dbms:postgresql splitStatements:false
CREATE TABLE hermes_state_window (
    session_id text PRIMARY KEY,
    session_started_at double precision NOT NULL,
    saved_at double precision NOT NULL
)

--changeset hermes-state:windows-window-message-table dbms:postgresql splitStatements:false
CREATE TABLE hermes_state_window_message (
    session_id text NOT NULL,
    position bigint NOT NULL,
    message_id bigint NOT NULL,
    PRIMARY KEY (session_id, position)
)
