--liquibase formatted sql logicalFilePath:hermes-state/v10.sql

-- Version 10 added the trigram index (messages_fts_trigram) for Chinese, Japanese and Korean substrings,
-- first over messages' content (external content), soon inline. A store migrated past 10 gets it in its
-- final form from version 11's re-layout, as the agent does when its target is past 10 (building the
-- index twice would only cost time and log space). A file the agent left at 10, in either form, is
-- re-laid out by version 11.
