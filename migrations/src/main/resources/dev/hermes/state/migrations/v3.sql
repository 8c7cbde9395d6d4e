--liquibase formatted sql logicalFilePath:hermes-state/v3.sql

-- Version 3: sessions.title.

--changeset hermes:v3-sessions-title splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'title'
ALTER TABLE sessions ADD COLUMN title TEXT

--changeset hermes:v3-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 3
UPDATE schema_version SET version = 3
