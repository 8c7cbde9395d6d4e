--liquibase formatted sql logicalFilePath:hermes-state/v7.sql

-- Version 7: messages.reasoning_content (the provider's reasoning text kept apart from reasoning, for
-- replaying it to the provider as it was) and state_meta, the agent's key/value table (the last
-- auto-prune, one-off repairs, goals). From version 7 on, a column is added under a quoted name, as the
-- agent's own start-up adds every column it misses.

--changeset hermes:v7-messages-reasoning_content splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'reasoning_content'
ALTER TABLE "messages" ADD COLUMN "reasoning_content" TEXT

--changeset hermes:v7-state-meta-table splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'state_meta'
CREATE TABLE state_meta (
    key TEXT PRIMARY KEY,
    value TEXT
)
