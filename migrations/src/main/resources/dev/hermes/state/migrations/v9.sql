--liquibase formatted sql logicalFilePath:hermes-state/v9.sql

-- Version 9: messages.codex_message_items (a Codex reply's message items, JSON).

--changeset hermes:v9-messages-codex_message_items splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'codex_message_items'
ALTER TABLE "messages" ADD COLUMN "codex_message_items" TEXT
