--liquibase formatted sql logicalFilePath:hermes-state/v6.sql

-- Version 6: reasoning text and the provider-specific reasoning payloads (JSON) of assistant messages.

--changeset hermes:v6-messages-reasoning splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'reasoning'
ALTER TABLE messages ADD COLUMN reasoning TEXT

--changeset hermes:v6-messages-reasoning_details splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'reasoning_details'
ALTER TABLE messages ADD COLUMN reasoning_details TEXT

--changeset hermes:v6-messages-codex_reasoning_items splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'codex_reasoning_items'
ALTER TABLE messages ADD COLUMN codex_reasoning_items TEXT

--changeset hermes:v6-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 6
UPDATE schema_version SET version = 6
