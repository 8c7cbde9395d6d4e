--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v14.sql

-- Version 14: compression_locks (one compression at a time per session, as a lease), sessions.cwd,
-- the rewind flags (messages.active: 0 hides a row from the transcript; sessions.rewind_count) with the
-- index the active filter uses, and sessions.archived (hidden from listings and counts). Rows from
-- before the active column are live: the agent's own step for stores below version 12 (on PostgreSQL
-- the column's default already fills them; the step is kept so that both engines run the same steps).

--changeset hermes:v14-compression-locks-table dbms:postgresql splitStatements:false
CREATE TABLE compression_locks (
    session_id text PRIMARY KEY,
    holder text NOT NULL,
    acquired_at double precision NOT NULL,
    expires_at double precision NOT NULL
)

--changeset hermes:v14-idx-compression-locks-expires dbms:postgresql splitStatements:false
CREATE INDEX idx_compression_locks_expires ON compression_locks(expires_at)

--changeset hermes:v14-sessions-cwd dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN cwd text

--changeset hermes:v14-messages-active dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN active bigint NOT NULL DEFAULT 1

--changeset hermes:v14-sessions-rewind_count dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN rewind_count bigint NOT NULL DEFAULT 0

--changeset hermes:v14-idx-messages-session-active dbms:postgresql splitStatements:false
CREATE INDEX idx_messages_session_active ON messages(session_id, active, timestamp)

--changeset hermes:v14-sessions-archived dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN archived bigint NOT NULL DEFAULT 0

--changeset hermes:v14-messages-active-backfill dbms:postgresql splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 12
UPDATE messages SET active = 1 WHERE active IS NULL
