--liquibase formatted sql logicalFilePath:hermes-state/v2.sql

-- Version 2: messages.finish_reason.

--changeset hermes:v2-messages-finish_reason splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'finish_reason'
ALTER TABLE messages ADD COLUMN finish_reason TEXT

--changeset hermes:v2-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 2
UPDATE schema_version SET version = 2
