--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v5.sql

-- Version 5: cache and reasoning token counters, billing and cost columns (one column per changeset,
-- as on SQLite).

--changeset hermes:v5-sessions-cache_read_tokens dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN cache_read_tokens bigint DEFAULT 0

--changeset hermes:v5-sessions-cache_write_tokens dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN cache_write_tokens bigint DEFAULT 0

--changeset hermes:v5-sessions-reasoning_tokens dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN reasoning_tokens bigint DEFAULT 0

--changeset hermes:v5-sessions-billing_provider dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN billing_provider text

--changeset hermes:v5-sessions-billing_base_url dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN billing_base_url text

--changeset hermes:v5-sessions-billing_mode dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN billing_mode text

--changeset hermes:v5-sessions-estimated_cost_usd dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN estimated_cost_usd double precision

--changeset hermes:v5-sessions-actual_cost_usd dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN actual_cost_usd double precision

--changeset hermes:v5-sessions-cost_status dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN cost_status text

--changeset hermes:v5-sessions-cost_source dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN cost_source text

--changeset hermes:v5-sessions-pricing_version dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN pricing_version text

--changeset hermes:v5-schema-version dbms:postgresql splitStatements:false
UPDATE schema_version SET version = 5
