--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v16.sql

-- Version 16: the in-place compaction flag (messages.compacted: with active = 0, a turn summarised
-- away, still found by search) and the git workspace of a session. Subagent runs are tagged
-- (model_config._delegate_from = the parent's id) so that listings hide them and deleting the parent
-- deletes them: every child that is neither a /branch (its _branched_from marker, or a parent that ended
-- 'branched' before it started) nor a compression continuation (a parent that ended 'compression'); and
-- a root that looks like an orphaned subagent run (untitled, unbranched, at most 25 messages, a tool
-- message, no children) gets '__orphaned__'. Both only for stores below version 16, as on SQLite.
--
-- model_config is JSON kept as text, and the tagged text must be what SQLite's json_set writes, so that
-- a store reads the same on both engines: the document without its whitespace, every key, string and
-- number exactly as written (escapes, exponents and key order kept, duplicate keys too), the member
-- replaced where it is (at its first occurrence) or else appended last. jsonb would reorder keys and
-- rewrite numbers and escapes, so the functions below read the text token by token instead.

--changeset hermes:v16-messages-compacted dbms:postgresql splitStatements:false
ALTER TABLE messages ADD COLUMN compacted bigint NOT NULL DEFAULT 0

--changeset hermes:v16-sessions-git_branch dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN git_branch text

--changeset hermes:v16-sessions-git_repo_root dbms:postgresql splitStatements:false
ALTER TABLE sessions ADD COLUMN git_repo_root text

--changeset hermes:v16-function-sqlite-json-tokens dbms:postgresql splitStatements:false
-- The tokens of a JSON text without the whitespace between them, as SQLite keeps them; the bare NaN,
-- Infinity and -Infinity that Python's json module writes for such floats become null, 9e999 and
-- -9e999, as SQLite reads them. A text that is not JSON raises 22P02, as SQLite's "malformed JSON"
-- fails its statement; so do the other JSON5 forms SQLite accepts (comments, single quotes, unquoted
-- keys, trailing commas, hexadecimal numbers, raw control characters in strings), which Python's json
-- module never writes.
CREATE FUNCTION sqlite_json_tokens(doc text) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    tokens text[] := '{}';
    token text;
    literal boolean;
    after_literal boolean := false;
    spaced boolean := false;
BEGIN
    -- a string, a structural character, a run of a literal (number, true, false, null), whitespace, or
    -- a quote that opens no string
    FOR token IN SELECT match[1] FROM pg_catalog.regexp_matches(doc,
            '("(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^ \t\n\r{}\[\]:,"]+|[ \t\n\r]+|.)', 'g') AS match LOOP
        IF token ~ '^[ \t\n\r]' THEN
            spaced := true;
            CONTINUE;
        END IF;
        literal := token !~ '^[{}\[\]:,"]';
        -- two literals apart ("tr ue", "1 2") would read as one once the space is gone
        IF token = '"' OR literal AND after_literal AND spaced THEN
            RAISE EXCEPTION 'malformed JSON' USING ERRCODE = 'invalid_text_representation';
        END IF;
        tokens := tokens || CASE token WHEN 'NaN' THEN 'null' WHEN 'Infinity' THEN '9e999'
                                                    WHEN '-Infinity' THEN '-9e999' ELSE token END;
        after_literal := literal;
        spaced := false;
    END LOOP;
    -- the grammar: PostgreSQL's json type checks it and keeps the text as it is
    PERFORM pg_catalog.array_to_string(tokens, '')::json;
    RETURN tokens;
END
$$

--changeset hermes:v16-function-sqlite-json-find dbms:postgresql splitStatements:false
-- The tokens of a JSON text and, when it is an object with the member (its first occurrence: SQLite's
-- json_extract and json_set use that one; a key is compared unescaped), the range of the member's value.
CREATE FUNCTION sqlite_json_find(doc text, member text, OUT tokens text[], OUT value_from integer, OUT value_to integer)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    depth integer := 0;
    expecting_key boolean := false;
    label text;
BEGIN
    tokens := sqlite_json_tokens(doc);
    IF tokens[1] <> '{' THEN
        RETURN;
    END IF;
    FOR i IN 1 .. pg_catalog.array_length(tokens, 1) LOOP
        IF value_from IS NOT NULL THEN
            IF depth = 1 AND tokens[i] IN (',', '}') THEN
                value_to := i - 1;
                RETURN;
            END IF;
        ELSIF expecting_key AND tokens[i] <> '}' THEN
            expecting_key := false;
            IF tokens[i] = pg_catalog.to_json(member)::text THEN
                value_from := i + 2;
            ELSIF pg_catalog.strpos(tokens[i], '\') > 0 THEN
                BEGIN
                    label := tokens[i]::json #>> '{}';
                EXCEPTION WHEN untranslatable_character THEN
                    label := NULL; -- \u0000: no member name holds it
                END;
                IF label = member THEN
                    value_from := i + 2;
                END IF;
            END IF;
        END IF;
        IF tokens[i] IN ('{', '[') THEN
            depth := depth + 1;
        ELSIF tokens[i] IN ('}', ']') THEN
            depth := depth - 1;
        ELSIF tokens[i] = ',' AND depth = 1 THEN
            expecting_key := true;
        END IF;
        IF i = 1 THEN
            expecting_key := true;
        END IF;
    END LOOP;
END
$$

--changeset hermes:v16-function-sqlite-json-member dbms:postgresql splitStatements:false
-- The value of a JSON object's member as JSON text without whitespace; NULL when the text is no object
-- or has no such member. SQLite's json_extract(doc, '$.member') IS NULL is
-- coalesce(sqlite_json_member(doc, 'member'), 'null') = 'null'.
CREATE FUNCTION sqlite_json_member(doc text, member text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.array_to_string(found.tokens[found.value_from:found.value_to], '')
FROM sqlite_json_find(doc, member) AS found
WHERE found.value_from IS NOT NULL
$$

--changeset hermes:v16-function-sqlite-json-set dbms:postgresql splitStatements:false
-- SQLite's json_set(doc, '$.member', value) for a text value, byte for byte: the member's value
-- replaced where it is, or the member appended last; a text that is no object comes back without its
-- whitespace and nothing set.
CREATE FUNCTION sqlite_json_set(doc text, member text, value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE
    WHEN found.tokens[1] <> '{' THEN pg_catalog.array_to_string(found.tokens, '')
    WHEN found.value_from IS NOT NULL THEN pg_catalog.array_to_string(found.tokens[:found.value_from - 1], '')
        || coalesce(pg_catalog.to_json(value)::text, 'null')
        || pg_catalog.array_to_string(found.tokens[found.value_to + 1:], '')
    ELSE pg_catalog.array_to_string(found.tokens[:pg_catalog.array_length(found.tokens, 1) - 1], '')
        || CASE WHEN pg_catalog.array_length(found.tokens, 1) > 2 THEN ',' ELSE '' END
        || pg_catalog.to_json(member)::text || ':'
        || coalesce(pg_catalog.to_json(value)::text, 'null') || '}'
END
FROM sqlite_json_find(doc, member) AS found
$$

--changeset hermes:v16-function-sqlite-json-valid dbms:postgresql splitStatements:false
-- Whether a text is JSON as SQLite's json_valid tells it: the tagging steps below are left out where
-- the agent's own statements would fail on a model_config that is not JSON, as SQLite's are.
CREATE FUNCTION sqlite_json_valid(doc text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    PERFORM sqlite_json_tokens(doc);
    RETURN true;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN false;
END
$$

--changeset hermes:v16-functions-search-path dbms:postgresql splitStatements:false
-- The functions above call each other in their own schema, and read their operators from pg_catalog,
-- from whichever search path they are called.
DO $$
BEGIN
    EXECUTE pg_catalog.format('ALTER FUNCTION sqlite_json_tokens(text) SET search_path = %I',
        pg_catalog.current_schema());
    EXECUTE pg_catalog.format('ALTER FUNCTION sqlite_json_find(text, text) SET search_path = %I',
        pg_catalog.current_schema());
    EXECUTE pg_catalog.format('ALTER FUNCTION sqlite_json_member(text, text) SET search_path = %I',
        pg_catalog.current_schema());
    EXECUTE pg_catalog.format('ALTER FUNCTION sqlite_json_set(text, text, text) SET search_path = %I',
        pg_catalog.current_schema());
    EXECUTE pg_catalog.format('ALTER FUNCTION sqlite_json_valid(text) SET search_path = %I',
        pg_catalog.current_schema());
END
$$

--changeset hermes:v16-tag-delegate-children dbms:postgresql splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT (SELECT count(*) FROM schema_version WHERE version >= 16) + (SELECT count(*) FROM sessions WHERE parent_session_id IS NOT NULL AND NOT sqlite_json_valid(COALESCE(model_config, '{}')))
UPDATE sessions SET model_config = sqlite_json_set(COALESCE(model_config, '{}'), '_delegate_from', parent_session_id)
WHERE parent_session_id IS NOT NULL
  AND COALESCE(sqlite_json_member(COALESCE(model_config, '{}'), '_delegate_from'), 'null') = 'null'
  AND NOT (COALESCE(sqlite_json_member(COALESCE(sessions.model_config, '{}'), '_branched_from'), 'null') <> 'null'
           OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id AND p.end_reason = 'branched'
                      AND sessions.started_at >= p.ended_at))
  AND NOT EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id AND p.end_reason = 'compression')

--changeset hermes:v16-tag-orphaned-delegates dbms:postgresql splitStatements:false
--preconditions onFail:MARK_RAN
--precondition-sql-check expectedResult:0 SELECT (SELECT count(*) FROM schema_version WHERE version >= 16) + (SELECT count(*) FROM sessions WHERE NOT sqlite_json_valid(COALESCE(model_config, '{}')))
UPDATE sessions SET model_config = sqlite_json_set(COALESCE(model_config, '{}'), '_delegate_from', '__orphaned__')
WHERE parent_session_id IS NULL
  AND COALESCE(sqlite_json_member(COALESCE(model_config, '{}'), '_delegate_from'), 'null') = 'null'
  AND COALESCE(sqlite_json_member(COALESCE(model_config, '{}'), '_branched_from'), 'null') = 'null'
  AND title IS NULL
  AND message_count <= 25
  AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id AND m.role = 'tool')
  AND NOT EXISTS (SELECT 1 FROM sessions ch WHERE ch.parent_session_id = sessions.id)
