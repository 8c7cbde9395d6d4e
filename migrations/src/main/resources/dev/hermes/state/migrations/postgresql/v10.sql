--liquibase formatted sql logicalFilePath:hermes-state/postgresql/v10.sql

-- Version 10 added SQLite's trigram table for Chinese, Japanese and Korean substrings. PostgreSQL has had
-- its own index for them since version 6 (content_grams), so nothing changes here; version 11 changes
-- what both search columns are computed over.
