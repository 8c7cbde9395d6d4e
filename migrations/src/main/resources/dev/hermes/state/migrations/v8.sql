--liquibase formatted sql logicalFilePath:hermes-state/v8.sql

-- Version 8: sessions.api_call_count (provider calls made by a session).

--changeset hermes:v8-sessions-api_call_count splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'api_call_count'
ALTER TABLE "sessions" ADD COLUMN "api_call_count" INTEGER DEFAULT 0
