--liquibase formatted sql logicalFilePath:hermes-state/v14.sql

-- Version 14: compression_locks (one compression at a time per session, as a lease), sessions.cwd,
-- the rewind flags (messages.active: 0 hides a row from the transcript; sessions.rewind_count) with the
-- index the active filter uses, and sessions.archived (hidden from listings and counts). Rows from
-- before the active column are live: the agent's own step for files below version 12.

--changeset hermes:v14-compression-locks-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'compression_locks'
CREATE TABLE compression_locks (
    session_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    acquired_at REAL NOT NULL,
    expires_at REAL NOT NULL
)

--changeset hermes:v14-idx-compression-locks-expires splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_compression_locks_expires'
CREATE INDEX idx_compression_locks_expires ON compression_locks(expires_at)

--changeset hermes:v14-sessions-cwd splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'cwd'
ALTER TABLE "sessions" ADD COLUMN "cwd" TEXT

--changeset hermes:v14-messages-active splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'active'
ALTER TABLE "messages" ADD COLUMN "active" INTEGER NOT NULL DEFAULT 1

--changeset hermes:v14-sessions-rewind_count splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'rewind_count'
ALTER TABLE "sessions" ADD COLUMN "rewind_count" INTEGER NOT NULL DEFAULT 0

--changeset hermes:v14-idx-messages-session-active splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_messages_session_active'
CREATE INDEX idx_messages_session_active
    ON messages(session_id, active, timestamp)

--changeset hermes:v14-sessions-archived splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'archived'
ALTER TABLE "sessions" ADD COLUMN "archived" INTEGER NOT NULL DEFAULT 0

--changeset hermes:v14-messages-active-backfill splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 12
UPDATE messages SET active = 1 WHERE active IS NULL
