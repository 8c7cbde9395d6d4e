--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v3.sql

-- Version 3: sessions.title.

--changeset hermes:v3-sessions-title dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN title text

--changeset hermes:v3-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 3
