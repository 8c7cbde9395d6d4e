--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v6.sql

-- Version 6: reasoning text and the provider-specific reasoning payloads (JSON, kept as text) of
-- assistant messages.

--changeset hermes:v6-messages-reasoning dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN reasoning text

--changeset hermes:v6-messages-reasoning_details dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN reasoning_details text

--changeset hermes:v6-messages-codex_reasoning_items dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN codex_reasoning_items text

--changeset hermes:v6-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 6
