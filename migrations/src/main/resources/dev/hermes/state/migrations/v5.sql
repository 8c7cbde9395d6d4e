--liquibase formatted sql logicalFilePath:hermes-state/v5.sql

-- Version 5: cache and reasoning token counters, billing and cost columns. One column per changeset,
-- so a file left half-migrated by a crashed Python migration gets exactly the missing ones.

--changeset hermes:v5-sessions-cache_read_tokens splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'cache_read_tokens'
ALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER DEFAULT 0

--changeset hermes:v5-sessions-cache_write_tokens splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'cache_write_tokens'
ALTER TABLE sessions ADD COLUMN cache_write_tokens INTEGER DEFAULT 0

--changeset hermes:v5-sessions-reasoning_tokens splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'reasoning_tokens'
ALTER TABLE sessions ADD COLUMN reasoning_tokens INTEGER DEFAULT 0

--changeset hermes:v5-sessions-billing_provider splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'billing_provider'
ALTER TABLE sessions ADD COLUMN billing_provider TEXT

--changeset hermes:v5-sessions-billing_base_url splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'billing_base_url'
ALTER TABLE sessions ADD COLUMN billing_base_url TEXT

--changeset hermes:v5-sessions-billing_mode splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'billing_mode'
ALTER TABLE sessions ADD COLUMN billing_mode TEXT

--changeset hermes:v5-sessions-estimated_cost_usd splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'estimated_cost_usd'
ALTER TABLE sessions ADD COLUMN estimated_cost_usd REAL

--changeset hermes:v5-sessions-actual_cost_usd splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'actual_cost_usd'
ALTER TABLE sessions ADD COLUMN actual_cost_usd REAL

--changeset hermes:v5-sessions-cost_status splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'cost_status'
ALTER TABLE sessions ADD COLUMN cost_status TEXT

--changeset hermes:v5-sessions-cost_source splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'cost_source'
ALTER TABLE sessions ADD COLUMN cost_source TEXT

--changeset hermes:v5-sessions-pricing_version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'pricing_version'
ALTER TABLE sessions ADD COLUMN pricing_version TEXT

--changeset hermes:v5-schema-version splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM schema_version WHERE version >= 5
UPDATE schema_version SET version = 5
