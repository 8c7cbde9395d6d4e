--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v8.sql

-- Version 8: sessions.api_call_count (provider calls made by a session).

--changeset hermes:v8-sessions-api_call_count dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN api_call_count bigint DEFAULT 0
