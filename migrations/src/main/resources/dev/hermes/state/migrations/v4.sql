--liquibase formatted sql logicalFilePath:hermes-state/v4.sql

-- Version 4: titles are unique (NULL titles are not).

--changeset hermes:v4-idx-sessions-title-unique splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_sessions_title_unique'
CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL

--changeset hermes:v4-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 4
UPDATE schema_version SET version = 4
