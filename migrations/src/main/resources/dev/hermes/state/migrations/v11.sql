--liquibase formatted sql logicalFilePath:hermes-state/v11.sql

-- Version 11: search matches tool names and tool-call arguments too. Both full-text tables store their
-- own text (inline, no longer content=messages) and index content || tool_name || tool_calls; their
-- delete and update triggers delete by rowid. A file laid out otherwise (version 1-10, either form of
-- version 10, or triggers a runtime without FTS5 dropped) has both tables and all six triggers dropped,
-- created again and filled from messages; a file already laid out so is left alone. Also the handoff
-- of a session to another platform (sessions.handoff_state: NULL, pending, running, completed, failed).
-- The Telegram topic tables are not created: the agent makes them only when a chat turns topics on.

--changeset hermes:v11-drop-trigger-messages-fts-insert splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_insert

--changeset hermes:v11-drop-trigger-messages-fts-delete splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_delete

--changeset hermes:v11-drop-trigger-messages-fts-update splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_update

--changeset hermes:v11-drop-trigger-messages-fts-trigram-insert splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_trigram_insert

--changeset hermes:v11-drop-trigger-messages-fts-trigram-delete splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_trigram_delete

--changeset hermes:v11-drop-trigger-messages-fts-trigram-update splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TRIGGER IF EXISTS messages_fts_trigram_update

--changeset hermes:v11-drop-table-messages-fts splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TABLE IF EXISTS messages_fts

--changeset hermes:v11-drop-table-messages-fts-trigram splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT ((SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts' AND sql NOT LIKE '%content=%' AND sql NOT LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update' AND sql LIKE '%DELETE FROM messages_fts WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram' AND sql NOT LIKE '%content=%' AND sql LIKE '%trigram%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert' AND sql LIKE '%new.tool_calls%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%') + (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update' AND sql LIKE '%DELETE FROM messages_fts_trigram WHERE rowid = old.id%' AND sql LIKE '%new.tool_calls%')) = 8
DROP TABLE IF EXISTS messages_fts_trigram

--changeset hermes:v11-messages-fts splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'
CREATE VIRTUAL TABLE messages_fts USING fts5(
    content
)

--changeset hermes:v11-messages-fts-trigram splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts_trigram'
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(
    content,
    tokenize='trigram'
)

--changeset hermes:v11-trigger-messages-fts-insert splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert'
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (
        new.id,
        COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
    );
END

--changeset hermes:v11-trigger-messages-fts-delete splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_delete'
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
END

--changeset hermes:v11-trigger-messages-fts-update splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_update'
CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    INSERT INTO messages_fts(rowid, content) VALUES (
        new.id,
        COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
    );
END

--changeset hermes:v11-trigger-messages-fts-trigram-insert splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_insert'
CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (
        new.id,
        COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
    );
END

--changeset hermes:v11-trigger-messages-fts-trigram-delete splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_delete'
CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts_trigram WHERE rowid = old.id;
END

--changeset hermes:v11-trigger-messages-fts-trigram-update splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_trigram_update'
CREATE TRIGGER messages_fts_trigram_update AFTER UPDATE ON messages BEGIN
    DELETE FROM messages_fts_trigram WHERE rowid = old.id;
    INSERT INTO messages_fts_trigram(rowid, content) VALUES (
        new.id,
        COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, '')
    );
END

--changeset hermes:v11-backfill-messages-fts splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM messages_fts
INSERT INTO messages_fts(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages

--changeset hermes:v11-backfill-messages-fts-trigram splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM messages_fts_trigram
INSERT INTO messages_fts_trigram(rowid, content) SELECT id, COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '') FROM messages

--changeset hermes:v11-sessions-handoff_state splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'handoff_state'
ALTER TABLE "sessions" ADD COLUMN "handoff_state" TEXT

--changeset hermes:v11-sessions-handoff_platform splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'handoff_platform'
ALTER TABLE "sessions" ADD COLUMN "handoff_platform" TEXT

--changeset hermes:v11-sessions-handoff_error splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'handoff_error'
ALTER TABLE "sessions" ADD COLUMN "handoff_error" TEXT
