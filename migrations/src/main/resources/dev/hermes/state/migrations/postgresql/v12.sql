--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v12.sql

-- Version 12: messages.platform_message_id (the platform's own id of a message, to drop a retried
-- delivery) and its index.

--changeset hermes:v12-messages-platform_message_id dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN platform_message_id text

--changeset hermes:v12-idx-messages-platform-msg-id dbms:postgresql splitStatements:false
CREATE INDEX idx_messages_platform_msg_id ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL
