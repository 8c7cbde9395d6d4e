--liquibase formatted sql logicalFilePath:hermes-state/v15.sql

-- Version 15: an index for the range scans over a source's ids (cron runs are named cron_<job>_<time>).

--changeset hermes:v15-idx-sessions-source-id splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_source_id'
CREATE INDEX idx_sessions_source_id ON sessions(source, id)
