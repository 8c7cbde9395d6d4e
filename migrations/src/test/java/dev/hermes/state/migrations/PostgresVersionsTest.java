package dev.hermes.state.migrations;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two versions a PostgreSQL store can be brought to: kept at 6 it is the version-6 store as it
 * was before versions 7-17 existed, and the default migrator takes it on to 17 with the data steps of
 * versions 14 and 16 applied as SQLite's migration applies them to the same rows, byte for byte; a
 * migrator kept at 6 refuses a store at 17 and leaves it alone; an up-to-date store at either version
 * opens without Liquibase.
 */
class PostgresVersionsTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @TempDir
    Path dir;

    private final Migrator latest = Migrator.create();
    private final Migrator kept = Migrator.create().toVersion(6);

    /**
     * Sessions beside the fixture's, one per rule of the version-16 step: subagent children (model_config
     * in several JSON forms, none, or a null marker), one already tagged, /branch children by marker and
     * by the parent's end, a compression continuation, and roots that look like orphaned subagent runs
     * or fail one condition each (a title, 26 messages, no tool message, a branch marker).
     */
    private static final List<String> SEEDS = List.of("""
            INSERT INTO sessions (id, source, model_config, parent_session_id, started_at, ended_at, end_reason, title,
                                  message_count) VALUES
             ('seed_parent', 'cli', '{"temperature": 0.2}', NULL, 100.0, 200.0, 'cli_close', 'Seed parent', 1),
             ('seed_delegate', 'cli', '{"model": "claude-sonnet", "temperature": 1E-1, "stop": ["\\u00e9", "\\/"], "nested": {"_delegate_from": null}}', 'seed_parent', 150.0, 160.0, 'delegate_complete', NULL, 2),
             ('seed_delegate_no_config', 'cli', NULL, 'seed_parent', 151.0, NULL, NULL, NULL, 0),
             ('seed_delegate_marker_null', 'cli', '{"_delegate_from": null, "max_tokens": 4096}', 'seed_parent', 152.0, NULL, NULL, NULL, 0),
             ('seed_delegate_tagged', 'cli', '{"_delegate_from": "elsewhere",  "max_tokens": 4096}', 'seed_parent', 153.0, NULL, NULL, NULL, 0),
             ('seed_branch', 'cli', '{"_branched_from": "seed_parent", "temperature": 0.7}', 'seed_parent', 154.0, NULL, NULL, 'Seed parent #2', 0),
             ('seed_branched_root', 'cli', '{}', NULL, 300.0, 400.0, 'branched', 'Branched root', 0),
             ('seed_branch_legacy', 'cli', '{ }', 'seed_branched_root', 410.0, NULL, NULL, NULL, 0),
             ('seed_branch_early', 'cli', '{ }', 'seed_branched_root', 350.0, NULL, NULL, NULL, 0),
             ('seed_compressed_root', 'telegram', '{"temperature": 0.7}', NULL, 500.0, 600.0, 'compression', 'Compressed', 0),
             ('seed_continuation', 'telegram', '{"temperature": 0.7}', 'seed_compressed_root', 600.0, NULL, NULL, 'Compressed #2', 0),
             ('seed_orphan', 'cli', '{"temperature": 0.7, "max_tokens": 8192}', NULL, 700.0, 710.0, 'delegate_complete', NULL, 2),
             ('seed_orphan_no_config', 'cli', NULL, NULL, 701.0, NULL, NULL, NULL, 1),
             ('seed_orphan_array', 'cli', '[1, 2]', NULL, 702.0, NULL, NULL, NULL, 1),
             ('seed_orphan_unicode', 'cli', '{"system": "Résumé ✓ \\u2713", "k": 1.50e+3, "list": [ ], "t": true}', NULL, 703.0, NULL, NULL, NULL, 1),
             ('seed_root_titled', 'cli', '{"temperature": 0.7}', NULL, 704.0, NULL, NULL, 'Has a title', 1),
             ('seed_root_long', 'cli', '{"temperature": 0.7}', NULL, 705.0, NULL, NULL, NULL, 26),
             ('seed_root_no_tool', 'cli', '{"temperature": 0.7}', NULL, 706.0, NULL, NULL, NULL, 1),
             ('seed_root_branched', 'cli', '{"_branched_from": "gone"}', NULL, 707.0, NULL, NULL, NULL, 1)""", """
            INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
             ('seed_parent', 'user', 'delegate the ephemeris', NULL, NULL, NULL, 101.0),
             ('seed_delegate', 'assistant', NULL, NULL, '[{"id": "call_1", "type": "function", "function": {"name": "orrery_lookup", "arguments": "{\\"body\\": \\"Encke\\"}"}}]', NULL, 155.0),
             ('seed_delegate', 'tool', 'perihelion 2026-10-19', 'call_1', NULL, 'orrery_lookup', 156.0),
             ('seed_orphan', 'user', 'run the ledger', NULL, NULL, NULL, 700.5),
             ('seed_orphan', 'tool', '{"rows": 3}', 'call_2', NULL, 'sample_ledger', 700.6),
             ('seed_orphan_no_config', 'tool', 'ok', 'call_3', NULL, 'noop', 701.5),
             ('seed_orphan_array', 'tool', 'ok', 'call_4', NULL, 'noop', 702.5),
             ('seed_orphan_unicode', 'tool', '数据 ok', 'call_5', NULL, '检索工具', 703.5),
             ('seed_root_titled', 'tool', 'ok', 'call_6', NULL, 'noop', 704.5),
             ('seed_root_long', 'tool', 'ok', 'call_7', NULL, 'noop', 705.5),
             ('seed_root_no_tool', 'user', 'just talk', NULL, NULL, NULL, 706.5),
             ('seed_root_branched', 'tool', 'ok', 'call_8', NULL, 'noop', 707.5)""");

    /**
     * What the agent's own v17 open (its version-16 step, on its SQLite) wrote into every session it
     * tagged of state-v6.db plus {@link #SEEDS}: run once with the reference module, copied here.
     */
    private static final Map<String, String> AGENT_TAGGED = agentTagged();

    private static Map<String, String> agentTagged() {
        Map<String, String> tagged = new TreeMap<>();
        String fixtureOrphan = "{\"temperature\":0.7,\"max_tokens\":8192,\"reasoning_effort\":\"medium\","
                + "\"_delegate_from\":\"__orphaned__\"}";
        for (String id : List.of("20260312_165644_c7084c", "20260312_091723_9a58a3", "20260313_113149_7a0ee5",
                "20260313_134515_754d10", "20260313_155941_d69e91", "20260314_082020_73b220")) {
            tagged.put(id, fixtureOrphan);
        }
        tagged.put("seed_delegate", "{\"model\":\"claude-sonnet\",\"temperature\":1E-1,\"stop\":[\"\\u00e9\",\"\\/\"],"
                + "\"nested\":{\"_delegate_from\":null},\"_delegate_from\":\"seed_parent\"}");
        tagged.put("seed_delegate_no_config", "{\"_delegate_from\":\"seed_parent\"}");
        tagged.put("seed_delegate_marker_null", "{\"_delegate_from\":\"seed_parent\",\"max_tokens\":4096}");
        tagged.put("seed_branch_early", "{\"_delegate_from\":\"seed_branched_root\"}");
        tagged.put("seed_orphan", "{\"temperature\":0.7,\"max_tokens\":8192,\"_delegate_from\":\"__orphaned__\"}");
        tagged.put("seed_orphan_no_config", "{\"_delegate_from\":\"__orphaned__\"}");
        tagged.put("seed_orphan_array", "[1,2]");
        tagged.put("seed_orphan_unicode", "{\"system\":\"Résumé ✓ \\u2713\",\"k\":1.50e+3,\"list\":[],\"t\":true,"
                + "\"_delegate_from\":\"__orphaned__\"}");
        return tagged;
    }

    private PostgresLocation location() {
        return PostgresLocation.parse(postgres.url()).withSchema(postgres.schema());
    }

    /**
     * Kept at 6, a new store is the version-6 store of before versions 7-17 (the catalog as it was, every
     * changeset of 1-6 and of hermes-state's own tables recorded, none later); it then takes the fast path
     * at 6 and Liquibase agrees. The default migrator takes it on to 17: the changesets of 7-17, and the
     * same schema as a store created at 17.
     */
    @Test
    void aStoreKeptAtSixIsTheVersionSixStoreAndIsThenMigratedToSeventeen() throws SQLException {
        MigrationResult created = kept.migrate(location());
        assertEquals(6, created.toVersion());
        assertEquals(Changelog.postgresqlChangeSets(6).stream().map(Changelog.ChangeSetRef::id).toList(),
                created.changes().stream().map(MigrationResult.AppliedChange::id).toList());
        try (Connection connection = postgres.connect()) {
            String s = postgres.schema();
            assertEquals(List.of("databasechangelog", "databasechangeloglock", "hermes_state_window",
                    "hermes_state_window_message", "messages", "schema_version", "sessions"),
                    PostgresCatalog.tables(connection, s));
            assertEquals(List.of(
                    "id text NOT NULL", "source text NOT NULL", "user_id text", "model text", "model_config text",
                    "system_prompt text", "parent_session_id text", "started_at double precision NOT NULL",
                    "ended_at double precision", "end_reason text", "message_count bigint DEFAULT 0",
                    "tool_call_count bigint DEFAULT 0", "input_tokens bigint DEFAULT 0", "output_tokens bigint DEFAULT 0",
                    "title text", "cache_read_tokens bigint DEFAULT 0", "cache_write_tokens bigint DEFAULT 0",
                    "reasoning_tokens bigint DEFAULT 0", "billing_provider text", "billing_base_url text", "billing_mode text",
                    "estimated_cost_usd double precision", "actual_cost_usd double precision", "cost_status text",
                    "cost_source text", "pricing_version text", "rowid bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY"),
                    PostgresCatalog.columns(connection, s, "sessions"));
            assertEquals(List.of(
                    "id bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY", "session_id text NOT NULL", "role text NOT NULL",
                    "content text", "tool_call_id text", "tool_calls text", "tool_name text",
                    "timestamp double precision NOT NULL", "token_count bigint",
                    "content_tsv tsvector GENERATED ALWAYS AS (messages_content_tsv(content)) STORED",
                    "finish_reason text", "reasoning text", "reasoning_details text", "codex_reasoning_items text",
                    "content_grams text[] GENERATED ALWAYS AS (messages_cjk_grams(content)) STORED"),
                    PostgresCatalog.columns(connection, s, "messages"));
            assertEquals(List.of(
                    "CREATE UNIQUE INDEX databasechangeloglock_pkey ON databasechangeloglock USING btree (id)",
                    "CREATE UNIQUE INDEX hermes_state_window_message_pkey ON hermes_state_window_message USING btree"
                            + " (session_id, \"position\")",
                    "CREATE UNIQUE INDEX hermes_state_window_pkey ON hermes_state_window USING btree (session_id)",
                    "CREATE INDEX idx_messages_content_grams ON messages USING gin (content_grams)",
                    "CREATE INDEX idx_messages_content_tsv ON messages USING gin (content_tsv)",
                    "CREATE INDEX idx_messages_session ON messages USING btree (session_id, \"timestamp\")",
                    "CREATE INDEX idx_sessions_parent ON sessions USING btree (parent_session_id)",
                    "CREATE UNIQUE INDEX idx_sessions_rowid ON sessions USING btree (rowid)",
                    "CREATE INDEX idx_sessions_source ON sessions USING btree (source)",
                    "CREATE INDEX idx_sessions_started ON sessions USING btree (started_at DESC)",
                    "CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions USING btree (title) WHERE (title IS NOT NULL)",
                    "CREATE UNIQUE INDEX messages_pkey ON messages USING btree (id)",
                    "CREATE UNIQUE INDEX sessions_pkey ON sessions USING btree (id)"),
                    PostgresCatalog.indexes(connection, s));
            assertEquals(List.of("messages_cjk_grams", "messages_content_tsv", "messages_search_query",
                    "messages_search_tokens"), PostgresCatalog.strings(connection,
                    "SELECT proname FROM pg_proc WHERE pronamespace = ?::regnamespace ORDER BY proname", s));
            assertEquals(List.of("6"), PostgresCatalog.strings(connection, "SELECT version FROM " + s + ".schema_version"));
            assertEquals(Changelog.postgresqlChangeSets(6).stream().map(c -> c.author() + ":" + c.id()).sorted().toList(),
                    PostgresCatalog.strings(connection, "SELECT author || ':' || id FROM " + s
                            + ".databasechangelog ORDER BY 1"));
            SchemaInspection inspection = SchemaInspection.of(connection, s);
            assertTrue(inspection.isUpToDate(6));
            assertFalse(inspection.isUpToDate(17));
            assertEquals(List.of("table state_meta", "table compression_locks"),
                    inspection.missingObjects(17).stream().filter(m -> m.startsWith("table ")).toList());
        }

        assertTrue(kept.migrate(location()).fastPath());
        assertTrue(kept.dryRun(location()).fastPath());
        assertEquals(List.of(), kept.checkWithLiquibase(location()).changes());
        MigrationResult dryRun = latest.dryRun(location());
        assertEquals(6, dryRun.toVersion(), "a dry run changes nothing");

        MigrationResult migrated = latest.migrate(location());
        assertEquals(6, migrated.fromVersion());
        assertEquals(17, migrated.toVersion());
        List<String> later = Changelog.postgresqlChangeSets().stream().filter(c -> c.version() > 6)
                .map(Changelog.ChangeSetRef::id).toList();
        assertEquals(later, migrated.executed().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(later, dryRun.changes().stream().map(MigrationResult.AppliedChange::id).toList());
        assertTrue(latest.migrate(location()).fastPath());

        PostgresLocation fresh = location().withSchema(postgres.schema() + "_new");
        try (Connection connection = postgres.connect()) {
            latest.migrate(fresh);
            Map<String, List<String>> migratedSchema = PostgresCatalog.describe(connection, postgres.schema());
            Map<String, List<String>> newSchema = PostgresCatalog.describe(connection, fresh.schema());
            assertEquals(newSchema, migratedSchema);
        } finally {
            dropSchema(fresh.schema());
        }
    }

    /**
     * The fixture state-v6.db and the {@link #SEEDS} on PostgreSQL kept at 6 and in the SQLite file, then
     * both migrated to 17: the same sessions tagged, with the same model_config text byte for byte, and
     * that text is what the agent's own open wrote; every other row unchanged.
     */
    @Test
    void theVersionSixteenStepTagsWhatSqlitesTagsByteForByte() throws Exception {
        Path sqlite = Fixtures.copy("state-v6.db", dir);
        sqliteExecute(sqlite, SEEDS);
        Map<String, String> before = sqliteModelConfigs(sqlite);
        kept.migrate(location());
        copyStore(sqlite, postgres.schema());
        assertEquals(before, postgresModelConfigs(postgres.schema()));

        assertEquals(17, latest.migrate(sqlite).toVersion());
        MigrationResult migrated = latest.migrate(location());
        assertEquals(17, migrated.toVersion());
        assertTrue(migrated.executed().stream().anyMatch(c -> c.id().equals("v16-tag-orphaned-delegates")));

        Map<String, String> onSqlite = sqliteModelConfigs(sqlite);
        Map<String, String> onPostgresql = postgresModelConfigs(postgres.schema());
        assertEquals(onSqlite, onPostgresql);
        Map<String, String> changed = new TreeMap<>();
        onPostgresql.forEach((id, config) -> {
            if (!Objects.equals(config, before.get(id))) {
                changed.put(id, config);
            }
        });
        assertEquals(AGENT_TAGGED, changed);
        assertEquals(before.get("seed_delegate_tagged"), onPostgresql.get("seed_delegate_tagged"),
                "a row the step does not tag keeps its text, spaces and all");
        try (Connection connection = postgres.connect()) {
            assertEquals(List.of("0"), PostgresCatalog.strings(connection, "SELECT count(*) FROM " + postgres.schema()
                    + ".messages WHERE active IS DISTINCT FROM 1 OR compacted IS DISTINCT FROM 0"));
        }
    }

    /**
     * A model_config that is not JSON leaves out the tagging steps the agent's own statements would fail
     * in, on both engines alike, and the migration reaches 17: among the children, both steps; among the
     * roots only (a titled root, which neither step would tag), the second, so the children are tagged.
     */
    @Test
    void aModelConfigThatIsNotJsonLeavesOutTheSameTaggingOnBothEngines() throws Exception {
        for (boolean amongChildren : List.of(true, false)) {
            Path sqlite = Files.createDirectories(dir.resolve(amongChildren ? "children" : "roots")).resolve("state.db");
            kept.migrate(sqlite);
            String schema = postgres.schema() + (amongChildren ? "_c" : "_r");
            PostgresLocation store = PostgresLocation.parse(postgres.url()).withSchema(schema);
            kept.migrate(store);
            List<String> rows = List.of(
                    "INSERT INTO sessions (id, source, started_at) VALUES ('parent', 'cli', 1)",
                    "INSERT INTO sessions (id, source, started_at, parent_session_id, model_config) VALUES ('child', 'cli', 2,"
                            + " 'parent', '{\"temperature\": 0.7}')",
                    "INSERT INTO sessions (id, source, started_at, title, parent_session_id, model_config)"
                            + " VALUES ('not_json', 'cli', 3, 'A title', " + (amongChildren ? "'parent'" : "NULL")
                            + ", '{\"temperature\": 0.7')");
            sqliteExecute(sqlite, rows);
            try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
                statement.execute("SET search_path TO " + schema);
                for (String row : rows) {
                    statement.execute(row);
                }
            }
            assertEquals(17, latest.migrate(sqlite).toVersion());
            assertEquals(17, latest.migrate(store).toVersion());
            String child = amongChildren ? "{\"temperature\": 0.7}" : "{\"temperature\":0.7,\"_delegate_from\":\"parent\"}";
            assertEquals(child, sqliteModelConfig(sqlite, "child"));
            try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
                statement.execute("SET search_path TO " + schema);
                try (var found = statement.executeQuery("SELECT model_config FROM sessions WHERE id = 'child'")) {
                    found.next();
                    assertEquals(child, found.getString(1));
                }
                try (var found = statement.executeQuery("SELECT model_config FROM sessions WHERE id = 'not_json'")) {
                    found.next();
                    assertEquals("{\"temperature\": 0.7", found.getString(1), "the malformed text kept");
                }
                statement.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    private static String sqliteModelConfig(Path file, String id) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(file);
             var statement = connection.prepareStatement("SELECT model_config FROM sessions WHERE id = ?")) {
            statement.setString(1, id);
            try (var found = statement.executeQuery()) {
                found.next();
                return found.getString(1);
            }
        }
    }

    /** A migrator kept at 6 refuses a store at 17 (migrate and dry run, the command line too) and changes nothing. */
    @Test
    void aStoreAtSeventeenIsRefusedWhenKeptAtSixAndLeftUnchanged() throws Exception {
        latest.migrate(location());
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO " + postgres.schema());
            statement.execute("INSERT INTO sessions (id, source, started_at, session_key) VALUES ('s1', 'cli', 1, 'agent:main')");
            statement.execute("INSERT INTO state_meta (key, value) VALUES ('last_auto_prune', '1796159096.9897132')");
        }
        Map<String, List<String>> before = describeWithRows(postgres.schema());

        SchemaTooNewException refused = assertThrows(SchemaTooNewException.class, () -> kept.migrate(location()));
        assertEquals(17, refused.fileVersion());
        assertEquals(6, refused.supportedVersion());
        assertThrows(SchemaTooNewException.class, () -> kept.dryRun(location()));
        try (Connection connection = postgres.connect()) {
            assertThrows(SchemaTooNewException.class, () -> kept.migrate(connection, postgres.schema()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, MigrateCommand.run(new String[] {"--db", postgres.url(), "--schema", postgres.schema(), "--to", "6"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("hermes-state-migrate: " + refused.getMessage() + "\n", err.toString(StandardCharsets.UTF_8));
        assertEquals(before, describeWithRows(postgres.schema()));
        assertTrue(latest.migrate(location()).fastPath());
    }

    /**
     * An up-to-date store, at 17 or kept at 6, opens without starting Liquibase (the JVM's class-loading
     * log of a migration-only run); the run that created it is the control, where Liquibase shows.
     */
    @Test
    void anUpToDateStoreOpensWithoutLiquibaseAtEitherVersion() throws Exception {
        String keptSchema = postgres.schema() + "_six";
        try {
            for (String[] store : List.of(new String[] {postgres.schema(), "17"}, new String[] {keptSchema, "6"})) {
                String created = migrateInChild(store[0], store[1], "create");
                assertTrue(created.contains(": created at schema version " + store[1] + " ("), created);
                assertTrue(liquibaseStarted("create"), "control: creating the store runs Liquibase");
                String again = migrateInChild(store[0], store[1], "again");
                assertTrue(again.endsWith(": up to date at schema version " + store[1]), again);
                assertFalse(liquibaseStarted("again"), "an up-to-date store at " + store[1] + " must not start Liquibase");
            }
        } finally {
            dropSchema(keptSchema);
        }
    }

    /**
     * sqlite_json_set and sqlite_json_member give what SQLite's json_set and json_extract give, byte for
     * byte, on every JSON text Python's json module can write (and on the edges of the grammar: nesting,
     * escapes, duplicate and escaped keys, numbers as written, texts that are no object, NaN and
     * Infinity), and fail where SQLite fails. The JSON5 forms SQLite also reads fail here instead.
     */
    @Test
    void theJsonFunctionsGiveWhatSqlitesJsonSetGives() throws SQLException {
        kept.migrate(location());
        latest.migrate(location());
        List<String> documents = List.of(
                "{\"temperature\": 0.7, \"max_tokens\": 8192}", "{}", "{ }", " \t{\"a\":1}\r\n",
                "{\"a\": 1E5, \"b\": \"\\u00e9\\/x\\\"\", \"c\": [1, 2, {\"d\": -0.0}], \"e\": 1.50, \"f\": 1e-7, \"g\": 10000000000000000000000}",
                "{\"_delegate_from\": null, \"a\": 1}", "{\"a\": 1, \"_delegate_from\": null}",
                "{\"a\": {\"_delegate_from\": null}}", "{\"a\": {\"_delegate_from\": \"q\"}, \"b\": [{\"_delegate_from\": 1}]}",
                "{\"_delegate_from\": null, \"_delegate_from\": \"x\"}", "{\"_delegate_from\": \"x\", \"_delegate_from\": null}",
                "{\"\\u005fdelegate_from\": null}", "{\"\\u005fdelegate_from\": \"y\"}",
                "{\"_delegate_from\": {\"x\": [1, {\"y\": null}]}, \"z\": 2}", "{\"_delegate_from\": [], \"z\": 2}",
                "{\"_delegate_from\": false}", "{\"_delegate_from\": 0}", "{\"_delegate_from\": \"\"}",
                "[1, 2]", "[ ]", "null", "\"str\"", "\"{\\\"_delegate_from\\\": null}\"", "5", "true",
                "{\"a\": NaN}", "{\"a\": Infinity, \"b\": -Infinity}", "[NaN, Infinity]",
                "{\"é\": \"ü\", \"emoji\": \"🎉\", \"k\\u00e9\": \"\\ud83d\\ude00\"}", "{\"a\": \"x\\\\y\", \"b\": \"\\\\\"}",
                "{\"a\": \"\\u0000\"}", "{\"\\u0000\": 1}", "{\"a\": \"\\uD83D\"}", "{\"a\" :1 , \"b\" : [ 1 , 2 ] }",
                "{\"a\": [1, 2, [3, [4]]], \"b\": {\"c\": {\"d\": {}}}}", "{\"a\": true, \"b\": false, \"c\": null}",
                "{\"a\": -1}",
                // not JSON: both fail
                "", " ", "not json", "{\"a\": tr ue}", "{\"a\": 1\"}", "{\"a\": \"b}", "{\"a\": 1 2}", "{\"a\": - 1}",
                "{\"a\": 01}", "{\"a\":1}{\"b\":2}", "{\"a\":1}}", "{\"a\":1", "-NaN");
        List<String> json5 = List.of("{'a': 1}", "{a: 1}", "{\"a\": 1,}", "{\"a\": 0x1F}", "{\"a\": \"tab\traw\"}",
                "{\"a\": .5}", "{\"a\": 1.}", "{\"a\": +1}", "{\"a\": nan}", "{\"a\": 1} // note");
        String value = "p\"x\u0001é";
        int failedOnBoth = 0;
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:");
             Connection server = postgres.connect()) {
            try (Statement statement = server.createStatement()) {
                statement.execute("SET search_path TO " + postgres.schema());
            }
            for (String document : documents) {
                for (String member : List.of("_delegate_from", "a")) {
                    String expected = answer(sqlite, "SELECT json_set(?, '$.' || ?, ?), json_extract(?, '$.' || ?) IS NULL",
                            document, member, value);
                    String actual = answer(server, "SELECT sqlite_json_set(?, ?, ?),"
                            + " coalesce(sqlite_json_member(?, ?), 'null') = 'null'", document, member, value);
                    assertEquals(expected, actual, document + " / " + member);
                    failedOnBoth += expected.startsWith("fails") ? 1 : 0;
                }
            }
            for (String document : json5) {
                assertFalse(answer(sqlite, "SELECT json_set(?, '$.' || ?, ?), json_extract(?, '$.' || ?) IS NULL",
                        document, "a", value).startsWith("fails"), document);
                assertEquals("fails", answer(server, "SELECT sqlite_json_set(?, ?, ?),"
                        + " coalesce(sqlite_json_member(?, ?), 'null') = 'null'", document, "a", value), document);
            }
        }
        assertEquals(26, failedOnBoth);
    }

    /**
     * json_set's text and json_extract's IS NULL as "text | true", or "fails" where SQLite says malformed
     * JSON and PostgreSQL raises 22P02 (invalid text representation); any other failure is the test's.
     */
    private static String answer(Connection connection, String sql, String document, String member, String value)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, document);
            statement.setString(2, member);
            statement.setString(3, value);
            statement.setString(4, document);
            statement.setString(5, member);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getString(1) + " | " + row.getBoolean(2);
            }
        } catch (SQLException failure) {
            boolean sqlite = connection.getMetaData().getDatabaseProductName().equals("SQLite");
            if (sqlite ? !failure.getMessage().contains("malformed JSON") : !"22P02".equals(failure.getSQLState())) {
                throw failure;
            }
            return "fails";
        }
    }

    /** Runs the migration-only command in its own JVM with class loading logged to {@code log}.log; returns its output. */
    private String migrateInChild(String schema, String version, String log) throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + dir.resolve(log + ".log"), "-cp", System.getProperty("java.class.path"),
                MigrateCommand.class.getName(), "--db", postgres.url(), "--schema", schema, "--to", version)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.waitFor(), output);
        return output;
    }

    /** Classes that exist only once Liquibase runs (a few interfaces load earlier, when the migrator is verified). */
    private boolean liquibaseStarted(String log) throws Exception {
        String classes = Files.readString(dir.resolve(log + ".log"));
        assertTrue(classes.contains(" dev.hermes.state.migrations.MigrateCommand "), "the log lists loaded classes");
        return classes.contains(" liquibase.Liquibase ") || classes.contains(" liquibase.Scope ");
    }

    /** The schema's catalog and the rows of its tables, Liquibase's records included. */
    private Map<String, List<String>> describeWithRows(String schema) throws SQLException {
        try (Connection connection = postgres.connect()) {
            Map<String, List<String>> description = new LinkedHashMap<>(PostgresCatalog.describe(connection, schema));
            for (String table : PostgresCatalog.tables(connection, schema)) {
                description.put("rows of " + table, PostgresCatalog.rows(connection, schema, table));
            }
            return description;
        }
    }

    /**
     * Copies the sessions and messages of a SQLite store at 6 into the PostgreSQL store at 6, every column
     * of theirs as it is (ids too, then the identity moved past them), parents after their children's rows
     * exist (the foreign key) in SQLite's rowid order.
     */
    private void copyStore(Path sqlite, String schema) throws SQLException {
        try (Connection from = SqliteFiles.readWrite(sqlite);
             Connection to = postgres.connect()) {
            to.setAutoCommit(false);
            try (Statement statement = to.createStatement()) {
                statement.execute("SET search_path TO " + schema);
            }
            copyTable(from, to, "sessions", "rowid");
            try (Statement read = from.createStatement();
                 ResultSet parents = read.executeQuery("SELECT id, parent_session_id FROM sessions WHERE parent_session_id IS NOT NULL");
                 PreparedStatement link = to.prepareStatement("UPDATE sessions SET parent_session_id = ? WHERE id = ?")) {
                while (parents.next()) {
                    link.setString(1, parents.getString(2));
                    link.setString(2, parents.getString(1));
                    link.executeUpdate();
                }
            }
            copyTable(from, to, "messages", "id");
            try (Statement statement = to.createStatement()) {
                statement.execute("SELECT setval(pg_get_serial_sequence('messages', 'id'), (SELECT max(id) FROM messages))");
            }
            to.commit();
        }
    }

    private static void copyTable(Connection from, Connection to, String table, String order) throws SQLException {
        List<String> columns = PostgresCatalog.strings(from, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid");
        String insert = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", columns.stream().map(column -> "?").toList()) + ")";
        try (Statement read = from.createStatement();
             ResultSet rows = read.executeQuery("SELECT * FROM " + table + " ORDER BY " + order);
             PreparedStatement write = to.prepareStatement(insert)) {
            while (rows.next()) {
                for (int i = 1; i <= columns.size(); i++) {
                    Object value = columns.get(i - 1).equals("parent_session_id") ? null : rows.getObject(i);
                    write.setObject(i, value);
                }
                write.executeUpdate();
            }
        }
    }

    private static void sqliteExecute(Path file, List<String> statements) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(file);
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static Map<String, String> sqliteModelConfigs(Path file) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(file)) {
            return modelConfigs(connection, "sessions");
        }
    }

    private Map<String, String> postgresModelConfigs(String schema) throws SQLException {
        try (Connection connection = postgres.connect()) {
            return modelConfigs(connection, schema + ".sessions");
        }
    }

    private static Map<String, String> modelConfigs(Connection connection, String table) throws SQLException {
        Map<String, String> configs = new TreeMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, model_config FROM " + table)) {
            while (rows.next()) {
                configs.put(rows.getString(1), rows.getString(2));
            }
        }
        assertNotEquals(0, configs.size());
        return configs;
    }

    private void dropSchema(String schema) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
