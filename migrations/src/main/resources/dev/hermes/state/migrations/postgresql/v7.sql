--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v7.sql

-- Version 7: messages.reasoning_content (the provider's reasoning text kept apart from reasoning, to be
-- replayed to the provider as it was) and state_meta, the agent's key/value table. From version 7 on,
-- the schema number is not bumped per version: a store reaches 17 in one step at the end of v17.sql, as
-- on SQLite.

--changeset hermes:v7-messages-reasoning_content dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN reasoning_content text

--changeset hermes:v7-state-meta-table dbms:postgresql splitStatements:false
CREATE TABLE state_meta (
    key text PRIMARY KEY,
    value text
)
