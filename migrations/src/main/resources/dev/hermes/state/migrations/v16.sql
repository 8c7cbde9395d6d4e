--liquibase formatted sql logicalFilePath:hermes-state/v16.sql

-- Version 16: subagent runs are tagged (model_config._delegate_from = the parent's id) so that listings
-- hide them and deleting the parent deletes them: every child that is neither a /branch (its
-- _branched_from marker, or a parent that ended 'branched' before it started) nor a compression
-- continuation (a parent that ended 'compression'); and a root that looks like an orphaned subagent run
-- (untitled, unbranched, at most 25 messages, a tool message, no children) gets '__orphaned__'. Both only
-- for files below version 16, as the agent does. The agent runs the two statements as one step and ignores
-- its failure: a model_config that is not JSON among the children fails the first (neither runs), among
-- the roots the second (the children are tagged). Such a step is recorded here as done without running,
-- as the agent records version 17 without it. Also the in-place compaction flag (messages.compacted:
-- with active = 0, a turn summarised away, still found by search) and the git workspace of a session.

--changeset hermes:v16-messages-compacted splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'compacted'
ALTER TABLE "messages" ADD COLUMN "compacted" INTEGER NOT NULL DEFAULT 0

--changeset hermes:v16-sessions-git_branch splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'git_branch'
ALTER TABLE "sessions" ADD COLUMN "git_branch" TEXT

--changeset hermes:v16-sessions-git_repo_root splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'git_repo_root'
ALTER TABLE "sessions" ADD COLUMN "git_repo_root" TEXT

--changeset hermes:v16-tag-delegate-children splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT (SELECT count(*) FROM schema_version WHERE version >= 16) + (SELECT count(*) FROM sessions WHERE parent_session_id IS NOT NULL AND NOT json_valid(COALESCE(model_config, '{}')))
UPDATE sessions SET model_config = json_set(COALESCE(model_config, '{}'), '$._delegate_from', parent_session_id)
WHERE parent_session_id IS NOT NULL
  AND json_extract(COALESCE(model_config, '{}'), '$._delegate_from') IS NULL
  AND NOT (json_extract(COALESCE(sessions.model_config, '{}'), '$._branched_from') IS NOT NULL
           OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id AND p.end_reason = 'branched'
                      AND sessions.started_at >= p.ended_at))
  AND NOT EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id AND p.end_reason = 'compression')

--changeset hermes:v16-tag-orphaned-delegates splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT (SELECT count(*) FROM schema_version WHERE version >= 16) + (SELECT count(*) FROM sessions WHERE NOT json_valid(COALESCE(model_config, '{}')))
UPDATE sessions SET model_config = json_set(COALESCE(model_config, '{}'), '$._delegate_from', '__orphaned__')
WHERE parent_session_id IS NULL
  AND json_extract(COALESCE(model_config, '{}'), '$._delegate_from') IS NULL
  AND json_extract(COALESCE(model_config, '{}'), '$._branched_from') IS NULL
  AND title IS NULL
  AND message_count <= 25
  AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id AND m.role = 'tool')
  AND NOT EXISTS (SELECT 1 FROM sessions ch WHERE ch.parent_session_id = sessions.id)
