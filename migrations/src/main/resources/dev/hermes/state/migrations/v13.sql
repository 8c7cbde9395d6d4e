--liquibase formatted sql logicalFilePath:hermes-state/v13.sql

-- Version 13: messages.observed (a group-chat line the agent saw but was not addressed by).

--changeset hermes:v13-messages-observed splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'observed'
ALTER TABLE "messages" ADD COLUMN "observed" INTEGER DEFAULT 0
