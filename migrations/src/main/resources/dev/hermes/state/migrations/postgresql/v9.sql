--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v9.sql

-- Version 9: messages.codex_message_items (a Codex reply's message items, JSON kept as text).

--changeset hermes:v9-messages-codex_message_items dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN codex_message_items text
