--liquibase formatted sql logicalFilePath:hermes-state/v17.sql

-- Version 17: the gateway's routing peer of a session (session_key, or source, user, chat, chat type and
-- thread) with its indexes, the compression back-off that survives a resume, and the index of pending
-- handoffs. Then the number: every file reaching this point holds the whole version-17 schema.

--changeset hermes:v17-sessions-session_key splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'session_key'
ALTER TABLE "sessions" ADD COLUMN "session_key" TEXT

--changeset hermes:v17-sessions-chat_id splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'chat_id'
ALTER TABLE "sessions" ADD COLUMN "chat_id" TEXT

--changeset hermes:v17-sessions-chat_type splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'chat_type'
ALTER TABLE "sessions" ADD COLUMN "chat_type" TEXT

--changeset hermes:v17-sessions-thread_id splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'thread_id'
ALTER TABLE "sessions" ADD COLUMN "thread_id" TEXT

--changeset hermes:v17-idx-sessions-session-key splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_session_key'
CREATE INDEX idx_sessions_session_key
    ON sessions(session_key, started_at DESC)

--changeset hermes:v17-idx-sessions-gateway-peer splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_gateway_peer'
CREATE INDEX idx_sessions_gateway_peer
    ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC)

--changeset hermes:v17-sessions-compression_failure_cooldown_until splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'compression_failure_cooldown_until'
ALTER TABLE "sessions" ADD COLUMN "compression_failure_cooldown_until" REAL

--changeset hermes:v17-sessions-compression_failure_error splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'compression_failure_error'
ALTER TABLE "sessions" ADD COLUMN "compression_failure_error" TEXT

--changeset hermes:v17-idx-sessions-handoff-state splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_handoff_state'
CREATE INDEX idx_sessions_handoff_state
    ON sessions(handoff_state, started_at)

--changeset hermes:v17-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 17
UPDATE schema_version SET version = 17
