--liquibase formatted sql logicalFilePath:hermes-state/v12.sql

-- Version 12: messages.platform_message_id (the platform's own id of a message, to drop a retried
-- delivery) and its index.

--changeset hermes:v12-messages-platform_message_id splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'platform_message_id'
ALTER TABLE "messages" ADD COLUMN "platform_message_id" TEXT

--changeset hermes:v12-idx-messages-platform-msg-id splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_messages_platform_msg_id'
CREATE INDEX idx_messages_platform_msg_id ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL
