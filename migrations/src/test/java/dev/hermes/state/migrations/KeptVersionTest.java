package dev.hermes.state.migrations;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store kept at version 6 ({@code Migrator.toVersion(6)}, the migrate jar's {@code --to 6}) for teams
 * still running an agent of that time: it is exactly what hermes-state made before it knew version 7,
 * so that agent and every earlier hermes-state keep using it, and the default migrator takes it on to
 * 17 later. A file already past 6 is refused, and no other version can be chosen.
 */
class KeptVersionTest {
    /**
     * DATABASECHANGELOG of a new file made by the version-6 migrator (commit 1b25731, the last before
     * version 7): id, author, file and checksum of each changeset, in the order run.
     */
    private static final List<String> VERSION_SIX_CHANGELOG = List.of(
            "v1-schema-version-table hermes hermes-state/v1.sql 9:ba3001ea768a75b870fb60b2550786db",
            "v1-sessions-table hermes hermes-state/v1.sql 9:2696e528183f431a4f90ef5479965f7c",
            "v1-messages-table hermes hermes-state/v1.sql 9:4ff3eb716b143de6f39b627def8d5f0b",
            "v1-idx-sessions-source hermes hermes-state/v1.sql 9:ed31d928dae48172952112157eb35a31",
            "v1-idx-sessions-parent hermes hermes-state/v1.sql 9:94b94e8df91c0de21208bfd7cca07770",
            "v1-idx-sessions-started hermes hermes-state/v1.sql 9:645184935dad47a1dee58307f153b721",
            "v1-idx-messages-session hermes hermes-state/v1.sql 9:72d12bf5d1b22f604c386d3f25300f17",
            "v1-messages-fts hermes hermes-state/v1.sql 9:79e0ac3c3956cac16f4a460a4e9eb326",
            "v1-trigger-fts-insert hermes hermes-state/v1.sql 9:7e5f9342fcab869e0f4206dc6617565b",
            "v1-trigger-fts-delete hermes hermes-state/v1.sql 9:770dfb60c07b07a2ee2ee91f94df717a",
            "v1-trigger-fts-update hermes hermes-state/v1.sql 9:9b5f7b26fd7c67f5e0226c0559d09b7e",
            "v1-schema-version-row hermes hermes-state/v1.sql 9:15d235dd8178ab6678761cb3068f461b",
            "v2-messages-finish_reason hermes hermes-state/v2.sql 9:8da677a8a2cee2c1c50713dd86458a49",
            "v2-schema-version hermes hermes-state/v2.sql 9:0217edcb8e20c3d1bbb472facda53ae3",
            "v3-sessions-title hermes hermes-state/v3.sql 9:edcc5499ac36bec446b81ae5dbbd5ae4",
            "v3-schema-version hermes hermes-state/v3.sql 9:54bb6dbddead1153db4e7350b42a9f88",
            "v4-idx-sessions-title-unique hermes hermes-state/v4.sql 9:df11f2868130058476ed89e8a2ef9cd8",
            "v4-schema-version hermes hermes-state/v4.sql 9:be6108976dd8dfe0f2154aad5a3b8860",
            "v5-sessions-cache_read_tokens hermes hermes-state/v5.sql 9:6e114d67896dbf181be319e5ea6c4b6a",
            "v5-sessions-cache_write_tokens hermes hermes-state/v5.sql 9:ec3245e27210fc4be738c81e975e21d3",
            "v5-sessions-reasoning_tokens hermes hermes-state/v5.sql 9:e481433b1a34bc627f10f1e6da9982ed",
            "v5-sessions-billing_provider hermes hermes-state/v5.sql 9:372e309ed135cb8ee81cc7f6d31eb638",
            "v5-sessions-billing_base_url hermes hermes-state/v5.sql 9:b470573955b4f339b8089d1c4a6498d0",
            "v5-sessions-billing_mode hermes hermes-state/v5.sql 9:7cd1d402c13dccfdc8cb627f8a7b6403",
            "v5-sessions-estimated_cost_usd hermes hermes-state/v5.sql 9:09ef5cbfdbe86b14c789e5f1b50ed5b1",
            "v5-sessions-actual_cost_usd hermes hermes-state/v5.sql 9:a8488ab88e0038d52ea1a13db59fdbf1",
            "v5-sessions-cost_status hermes hermes-state/v5.sql 9:0ef655ba13944c269146db73510ca035",
            "v5-sessions-cost_source hermes hermes-state/v5.sql 9:4bde3c3f0a67953ec0b9062742fcbc7a",
            "v5-sessions-pricing_version hermes hermes-state/v5.sql 9:d416443bade1044af2c81e9fc20f466e",
            "v5-schema-version hermes hermes-state/v5.sql 9:9164e2bcbee396b6166c1ae83969e0e0",
            "v6-messages-reasoning hermes hermes-state/v6.sql 9:280f0d5b0bb5fda5732f997a7dcaa970",
            "v6-messages-reasoning_details hermes hermes-state/v6.sql 9:5044598e1d941a4718b45313e16ae036",
            "v6-messages-codex_reasoning_items hermes hermes-state/v6.sql 9:e61fd40f7b2262f3f55451cf6e0e2a0c",
            "v6-schema-version hermes hermes-state/v6.sql 9:8613ba7c577b5678aeeac59c6968dd4e",
            "windows-window-table hermes-state hermes-state/windows.sql 9:13669f88d7e0f38f7070bc28f15ccefc",
            "windows-window-message-table hermes-state hermes-state/windows.sql 9:66e4e889d2c5ecab2f5a9ef34b63d52f");

    /** sqlite_master of that same file, "type name" to its SQL exactly as SQLite stored it. */
    private static final Map<String, String> VERSION_SIX_OBJECTS = versionSixObjects();

    @TempDir
    Path dir;

    private final Migrator keptAtSix = Migrator.create().toVersion(6);

    @Test
    void aNewFileKeptAtSixIsWhatTheVersionSixMigratorMade() throws Exception {
        Path db = dir.resolve("state.db");
        MigrationResult result = keptAtSix.migrate(db);
        assertTrue(result.created());
        assertEquals(0, result.fromVersion());
        assertEquals(6, result.toVersion());
        assertEquals(36, result.executed().size());
        assertEquals(VERSION_SIX_CHANGELOG, query(db, "SELECT ID || ' ' || AUTHOR || ' ' || FILENAME || ' ' || MD5SUM"
                + " FROM DATABASECHANGELOG WHERE EXECTYPE = 'EXECUTED' ORDER BY ORDEREXECUTED"));
        assertEquals(List.of("36"), query(db, "SELECT count(*) FROM DATABASECHANGELOG"));
        assertEquals(VERSION_SIX_OBJECTS, master(db));
        assertEquals(List.of("6"), query(db, "SELECT group_concat(version) FROM schema_version"));
        assertEquals(List.of("wal"), query(db, "PRAGMA journal_mode"));

        String sha = Fixtures.sha256(db);
        MigrationResult again = keptAtSix.migrate(db);
        assertTrue(again.fastPath());
        assertEquals(6, again.toVersion());
        assertEquals(List.of(), keptAtSix.checkWithLiquibase(db).changes(), "Liquibase agrees nothing is left to do at 6");
        assertEquals(sha, Fixtures.sha256(db));
    }

    /** The agent's own version-6 file stays at 6: its rows untouched, only hermes-state's own tables added. */
    @Test
    void aVersionSixFileStaysAtSixAndTheDefaultMigratorTakesItOnLater() throws Exception {
        Path db = Fixtures.copy("state-v6.db", dir);
        Map<String, String> objectsBefore = master(db);
        Map<String, List<List<Object>>> rowsBefore = rows(db);

        MigrationResult result = keptAtSix.migrate(db);
        assertEquals(6, result.fromVersion());
        assertEquals(6, result.toVersion());
        assertEquals(List.of("windows-window-table", "windows-window-message-table"), ids(result.executed()));
        assertEquals(34, result.adopted().size());
        Map<String, String> expectedObjects = new TreeMap<>(objectsBefore);
        for (String own : List.of("table DATABASECHANGELOG", "table DATABASECHANGELOGLOCK", "table hermes_state_window",
                "index sqlite_autoindex_hermes_state_window_1", "table hermes_state_window_message")) {
            expectedObjects.put(own, VERSION_SIX_OBJECTS.get(own));
        }
        assertEquals(expectedObjects, master(db));
        Map<String, List<List<Object>>> rowsAfter = rows(db);
        for (String table : rowsBefore.keySet()) {
            assertEquals(rowsBefore.get(table), rowsAfter.get(table), table);
        }
        assertTrue(keptAtSix.migrate(db).fastPath());

        MigrationResult onward = Migrator.create().migrate(db);
        assertEquals(6, onward.fromVersion());
        assertEquals(17, onward.toVersion());
        assertEquals(52, onward.executed().size(), "every changeset of 7 to 17, none of the 36 already recorded");
        assertEquals(List.of(), onward.adopted());
        assertEquals(List.of("88"), query(db, "SELECT count(*) FROM DATABASECHANGELOG"));
        assertEquals(List.of(), Migrator.create().checkWithLiquibase(db).changes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v8.db", "state-v17.db"})
    void aFilePastSixIsRefusedNamingBothVersionsAndLeftByteForByteUnchanged(String fixture) throws Exception {
        Path db = Fixtures.copy(fixture, dir);
        int version = Integer.parseInt(fixture.replaceAll("\\D", ""));
        String sha = Fixtures.sha256(db);
        for (var attempt : List.<org.junit.jupiter.api.function.Executable>of(() -> keptAtSix.migrate(db),
                () -> keptAtSix.dryRun(db))) {
            SchemaTooNewException e = assertThrows(SchemaTooNewException.class, attempt);
            assertEquals(version, e.fileVersion());
            assertEquals(6, e.supportedVersion());
            assertTrue(e.getMessage().startsWith("Schema version " + version + " is newer than version 6"), e.getMessage());
            assertEquals(sha, Fixtures.sha256(db));
        }
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(db), listing.toList(), "no -wal, -shm or -journal was left beside it");
        }
    }

    @Test
    void onlySixAndSeventeenCanBeChosen() {
        assertEquals(17, Migrator.create().targetVersion());
        assertEquals(6, Migrator.create().toVersion(6).targetVersion());
        assertEquals(17, Migrator.create().toVersion(6).toVersion(17).targetVersion());
        for (int version : new int[] {5, 0, -1, 1, 7, 10, 16, 18, Integer.MAX_VALUE}) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Migrator.create().toVersion(version));
            assertEquals("schema version " + version + " cannot be chosen: a store is brought to 17 (today's agent)"
                    + " or kept at 6 (an agent of April 2026)", e.getMessage());
        }
        Path untouched = dir.resolve("never.db");
        assertThrows(InvalidArgumentException.class, () -> Migrator.create().toVersion(5).migrate(untouched));
        assertFalse(Files.exists(untouched));
    }

    @Test
    void theCommandsToOptionTakesSixOrSeventeenAndNothingElse() throws Exception {
        String usage = "usage: hermes-state-migrate --db PATH|postgresql://USER:PASSWORD@HOST:PORT/DB [--schema NAME]"
                + " [--to 6|17] [--dry-run]";
        Path db = dir.resolve("state.db");
        for (String bad : List.of("5", "7", "16", "18", "0", "-6", "six", "6.0", "")) {
            Output output = command("--db", db.toString(), "--to", bad);
            assertEquals(2, output.exitCode(), bad);
            assertEquals("", output.out());
            assertEquals("--to takes 6 or 17, not " + bad + "\n" + usage + "\n", output.err());
        }
        Output missing = command("--db", db.toString(), "--to");
        assertEquals(2, missing.exitCode());
        assertEquals("--to needs a value\n" + usage + "\n", missing.err());
        assertFalse(Files.exists(db), "a usage error creates nothing");

        Output kept = command("--db", db.toString(), "--to", "6");
        assertEquals(new Output(0, db + ": created at schema version 6 (36 changesets run, 0 already present)\n", ""), kept);
        assertEquals(List.of("6"), query(db, "SELECT group_concat(version) FROM schema_version"));
        assertEquals(new Output(0, db + ": up to date at schema version 6\n", ""), command("--db", db.toString(), "--to", "6"));
        assertEquals(new Output(0, db + ": schema version 6 -> 17 (52 changesets run, 0 already present)\n", ""),
                command("--db", db.toString(), "--to", "17"));
        Output refused = command("--db", db.toString(), "--to", "6");
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().startsWith("hermes-state-migrate: Schema version 17 is newer than version 6"), refused.err());

        Path latest = dir.resolve("latest.db");
        assertEquals(new Output(0, latest + ": created at schema version 17 (88 changesets run, 0 already present)\n", ""),
                command("--db", latest.toString()));
        Path dryRun = dir.resolve("dry.db");
        Output wouldKeep = command("--db", dryRun.toString(), "--to", "6", "--dry-run");
        assertEquals(0, wouldKeep.exitCode());
        assertTrue(wouldKeep.out().endsWith(dryRun + ": dry run, nothing written; would be created at schema version 6"
                + " (36 changesets to run, 0 already present)\n"), wouldKeep.out());
        assertFalse(Files.exists(dryRun));
    }

    private record Output(int exitCode, String out, String err) {
    }

    private static Output command(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = MigrateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Output(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> ids(List<MigrationResult.AppliedChange> changes) {
        return changes.stream().map(MigrationResult.AppliedChange::id).toList();
    }

    private static Map<String, String> master(Path db) throws SQLException {
        Map<String, String> objects = new TreeMap<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT type, name, sql FROM sqlite_master")) {
            while (rows.next()) {
                objects.put(rows.getString(1) + " " + rows.getString(2), rows.getString(3));
            }
        }
        return objects;
    }

    /** Every row of every table but Liquibase's, in rowid order (FTS5's shadow tables included). */
    private static Map<String, List<List<Object>>> rows(Path db) throws SQLException {
        Map<String, List<List<Object>>> tables = new LinkedHashMap<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                    + " AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'DATABASECHANGELOG%' ORDER BY name")) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            for (String name : names) {
                List<List<Object>> lines = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery("SELECT * FROM \"" + name + "\" ORDER BY 1")) {
                    ResultSetMetaData meta = rows.getMetaData();
                    while (rows.next()) {
                        List<Object> line = new ArrayList<>();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            Object value = rows.getObject(i);
                            line.add(value instanceof byte[] bytes ? java.util.HexFormat.of().formatHex(bytes) : value);
                        }
                        lines.add(line);
                    }
                }
                tables.put(name, lines);
            }
        }
        return tables;
    }

    private static List<String> query(Path db, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
        return rows;
    }

    private static Map<String, String> versionSixObjects() {
        Map<String, String> objects = new TreeMap<>();
        objects.put("index idx_messages_session", "CREATE INDEX idx_messages_session ON messages(session_id, timestamp)");
        objects.put("index idx_sessions_parent", "CREATE INDEX idx_sessions_parent ON sessions(parent_session_id)");
        objects.put("index idx_sessions_source", "CREATE INDEX idx_sessions_source ON sessions(source)");
        objects.put("index idx_sessions_started", "CREATE INDEX idx_sessions_started ON sessions(started_at DESC)");
        objects.put("index idx_sessions_title_unique",
                "CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL");
        objects.put("index sqlite_autoindex_hermes_state_window_1", null);
        objects.put("index sqlite_autoindex_sessions_1", null);
        objects.put("table DATABASECHANGELOG", "CREATE TABLE DATABASECHANGELOG (ID VARCHAR(255) NOT NULL, AUTHOR VARCHAR(255)"
                + " NOT NULL, FILENAME VARCHAR(255) NOT NULL, DATEEXECUTED TEXT NOT NULL, ORDEREXECUTED INTEGER NOT NULL,"
                + " EXECTYPE VARCHAR(10) NOT NULL, MD5SUM VARCHAR(35), DESCRIPTION VARCHAR(255), COMMENTS VARCHAR(255),"
                + " TAG VARCHAR(255), LIQUIBASE VARCHAR(20), CONTEXTS VARCHAR(255), LABELS VARCHAR(255),"
                + " DEPLOYMENT_ID VARCHAR(10))");
        objects.put("table DATABASECHANGELOGLOCK", "CREATE TABLE DATABASECHANGELOGLOCK (ID INTEGER NOT NULL, LOCKED BOOLEAN"
                + " NOT NULL, LOCKGRANTED TEXT, LOCKEDBY VARCHAR(255), CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))");
        objects.put("table hermes_state_window", """
                CREATE TABLE hermes_state_window (
                    session_id TEXT NOT NULL PRIMARY KEY,
                    session_started_at REAL NOT NULL,
                    saved_at REAL NOT NULL
                )""");
        objects.put("table hermes_state_window_message", """
                CREATE TABLE hermes_state_window_message (
                    session_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    message_id INTEGER NOT NULL,
                    PRIMARY KEY (session_id, position)
                ) WITHOUT ROWID""");
        objects.put("table messages", """
                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id TEXT NOT NULL REFERENCES sessions(id),
                    role TEXT NOT NULL,
                    content TEXT,
                    tool_call_id TEXT,
                    tool_calls TEXT,
                    tool_name TEXT,
                    timestamp REAL NOT NULL,
                    token_count INTEGER
                , finish_reason TEXT, reasoning TEXT, reasoning_details TEXT, codex_reasoning_items TEXT)""");
        objects.put("table messages_fts", """
                CREATE VIRTUAL TABLE messages_fts USING fts5(
                    content,
                    content=messages,
                    content_rowid=id
                )""");
        objects.put("table messages_fts_config", "CREATE TABLE 'messages_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID");
        objects.put("table messages_fts_data", "CREATE TABLE 'messages_fts_data'(id INTEGER PRIMARY KEY, block BLOB)");
        objects.put("table messages_fts_docsize", "CREATE TABLE 'messages_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB)");
        objects.put("table messages_fts_idx",
                "CREATE TABLE 'messages_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID");
        objects.put("table schema_version", """
                CREATE TABLE schema_version (
                    version INTEGER NOT NULL
                )""");
        objects.put("table sessions", """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    source TEXT NOT NULL,
                    user_id TEXT,
                    model TEXT,
                    model_config TEXT,
                    system_prompt TEXT,
                    parent_session_id TEXT,
                    started_at REAL NOT NULL,
                    ended_at REAL,
                    end_reason TEXT,
                    message_count INTEGER DEFAULT 0,
                    tool_call_count INTEGER DEFAULT 0,
                    input_tokens INTEGER DEFAULT 0,
                    output_tokens INTEGER DEFAULT 0, title TEXT, cache_read_tokens INTEGER DEFAULT 0,\
                 cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT,\
                 billing_base_url TEXT, billing_mode TEXT, estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT,\
                 cost_source TEXT, pricing_version TEXT,
                    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
                )""");
        objects.put("table sqlite_sequence", "CREATE TABLE sqlite_sequence(name,seq)");
        objects.put("trigger messages_fts_delete", """
                CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
                    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
                END""");
        objects.put("trigger messages_fts_insert", """
                CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
                    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
                END""");
        objects.put("trigger messages_fts_update", """
                CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
                    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
                    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
                END""");
        return objects;
    }
}
