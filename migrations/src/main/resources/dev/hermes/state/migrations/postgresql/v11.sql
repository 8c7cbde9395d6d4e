--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v11.sql

-- Version 11: search matches tool names and tool-call arguments too. SQLite's full-text tables now index
-- content || ' ' || tool_name || ' ' || tool_calls (each NULL as ''); on PostgreSQL both search columns,
-- the words and the CJK characters, are computed over that same text, with version 6's functions
-- (FTS5's tokens, Hermes' CJK ranges). Also the handoff of a session to another platform
-- (sessions.handoff_state: NULL, pending, running, completed, failed). The Telegram topic tables are not
-- created: the agent makes them only when a chat turns topics on.

--changeset hermes:v11-search-messages-columns dbms:postgresql splitStatements:false
-- A generated column's expression cannot be changed in place: both are dropped (their indexes with
-- them) and added again in one statement, so the table is rewritten once and every message computed
-- anew.
ALTER TABLE messages
    DROP COLUMN content_tsv,
    DROP COLUMN content_grams,
    ADD COLUMN content_tsv tsvector GENERATED ALWAYS AS
        (messages_content_tsv(COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, ''))) STORED,
    ADD COLUMN content_grams text[] GENERATED ALWAYS AS
        (messages_cjk_grams(COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, ''))) STORED

--changeset hermes:v11-search-idx-messages-content-tsv dbms:postgresql splitStatements:false
CREATE INDEX idx_messages_content_tsv ON messages USING gin (content_tsv)

--changeset hermes:v11-search-idx-messages-content-grams dbms:postgresql splitStatements:false
CREATE INDEX idx_messages_content_grams ON messages USING gin (content_grams)

--changeset hermes:v11-sessions-handoff_state dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN handoff_state text

--changeset hermes:v11-sessions-handoff_platform dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN handoff_platform text

--changeset hermes:v11-sessions-handoff_error dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN handoff_error text
