--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v2.sql

-- Version 2: messages.finish_reason.

--changeset hermes:v2-messages-finish_reason dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN finish_reason text

--changeset hermes:v2-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 2
