--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v13.sql

-- Version 13: messages.observed (a group-chat line the agent saw but was not addressed by).

--changeset hermes:v13-messages-observed dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN observed bigint DEFAULT 0
