--liquibase formatted sql logicalFilePath:hermes-state/v1.sql

-- Version 1: the original Hermes schema. The DDL text is the Python agent's own, so sqlite_master
-- reads the same whichever program created the file.

--changeset hermes:v1-schema-version-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'
CREATE TABLE schema_version (
    version INTEGER NOT NULL
)

--changeset hermes:v1-sessions-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sessions'
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
)

--changeset hermes:v1-messages-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages'
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER
)

--changeset hermes:v1-idx-sessions-source splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_source'
CREATE INDEX idx_sessions_source ON sessions(source)

--changeset hermes:v1-idx-sessions-parent splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_parent'
CREATE INDEX idx_sessions_parent ON sessions(parent_session_id)

--changeset hermes:v1-idx-sessions-started splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_started'
CREATE INDEX idx_sessions_started ON sessions(started_at DESC)

--changeset hermes:v1-idx-messages-session splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_messages_session'
CREATE INDEX idx_messages_session ON messages(session_id, timestamp)

--changeset hermes:v1-messages-fts splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'
CREATE VIRTUAL TABLE messages_fts USING fts5(
    content,
    content=messages,
    content_rowid=id
)

--changeset hermes:v1-trigger-fts-insert splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert'
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END

--changeset hermes:v1-trigger-fts-delete splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete'
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
END

--changeset hermes:v1-trigger-fts-update splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update'
CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END

--changeset hermes:v1-schema-version-row splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version
INSERT INTO schema_version (version) VALUES (1)
