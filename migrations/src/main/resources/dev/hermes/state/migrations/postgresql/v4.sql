--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v4.sql

-- Version 4: titles are unique (NULL titles are not).

--changeset hermes:v4-idx-sessions-title-unique dbms:postgresql splitStatements:false
CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL

--changeset hermes:v4-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 4
