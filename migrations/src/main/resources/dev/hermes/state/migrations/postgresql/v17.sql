--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v17.sql

-- Version 17: the gateway's routing peer of a session (session_key, or source, user, chat, chat type and
-- thread) with its indexes, the compression back-off that survives a resume, and the index of pending
-- handoffs. Then the number: every store reaching this point holds the whole version-17 schema.

--changeset hermes:v17-sessions-session_key dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN session_key text

--changeset hermes:v17-sessions-chat_id dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN chat_id text

--changeset hermes:v17-sessions-chat_type dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN chat_type text

--changeset hermes:v17-sessions-thread_id dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN thread_id text

--changeset hermes:v17-idx-sessions-session-key dbms:postgresql splitStatements:false
CREATE INDEX idx_sessions_session_key ON sessions(session_key, started_at DESC)

--changeset hermes:v17-idx-sessions-gateway-peer dbms:postgresql splitStatements:false
CREATE INDEX idx_sessions_gateway_peer ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC)

--changeset hermes:v17-sessions-compression_failure_cooldown_until dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN compression_failure_cooldown_until double precision

--changeset hermes:v17-sessions-compression_failure_error dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN compression_failure_error text

--changeset hermes:v17-idx-sessions-handoff-state dbms:postgresql splitStatements:false
CREATE INDEX idx_sessions_handoff_state ON sessions(handoff_state, started_at)

--changeset hermes:v17-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 17
