--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v15.sql

-- Version 15: an index for the range scans over a source's ids (cron runs are named cron_<job>_<time>).

--changeset hermes:v15-idx-sessions-source-id dbms:postgresql splitStatements:false
CREATE INDEX idx_sessions_source_id ON sessions(source, id)
