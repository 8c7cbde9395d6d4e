package dev.hermes.state.migrations;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adoption decisions, mostly on hand-made files (the real Python fixtures are exercised in depth in the
 * integration-tests module), the all-or-nothing transaction, and the agreement between the fast path and Liquibase.
 */
class MigratorTest {
    /** Hermes' version-1 tables, as the Python agent's SCHEMA_SQL wrote them. */
    private static final String HERMES_V1_SESSIONS = """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT,
              model_config TEXT, system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL,
              ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
              input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
              FOREIGN KEY (parent_session_id) REFERENCES sessions(id))""";

    @TempDir
    Path dir;

    private final Migrator migrator = Migrator.create();

    @Test
    void aNewFileRunsEveryChangesetAndLiquibaseThenAgreesItIsUpToDate() throws Exception {
        Path db = dir.resolve("state.db");
        MigrationResult created = migrator.migrate(db);
        assertTrue(created.created());
        assertFalse(created.fastPath());
        assertEquals(0, created.fromVersion());
        assertEquals(17, created.toVersion());
        assertEquals(88, created.executed().size());
        assertEquals(Changelog.changeSets().stream().map(Changelog.ChangeSetRef::id).toList(),
                created.changes().stream().map(MigrationResult.AppliedChange::id).toList());
        assertFalse(Files.exists(dir.resolve("state.db-wal")), "the new file is complete on its own");
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(db), listing.toList(), "no temporary file is left behind");
        }

        String before = Fixtures.sha256(db);
        MigrationResult again = migrator.migrate(db);
        assertTrue(again.fastPath());
        assertEquals(List.of(), again.changes());

        // Liquibase itself, run on the same file, finds nothing to do: the fast path's verdict is its verdict
        MigrationResult liquibase = migrator.checkWithLiquibase(db);
        assertFalse(liquibase.fastPath());
        assertEquals(List.of(), liquibase.changes());
        assertEquals(before, Fixtures.sha256(db));
    }

    @Test
    void adoptsAVersionOneFileByWhatItContains() throws Exception {
        Path db = dir.resolve("v1.db");
        sql(db, "CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version VALUES (1)",
                HERMES_V1_SESSIONS,
                "INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1773133200.123456)");
        String v1Messages = "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),"
                + " role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,"
                + " token_count INTEGER)";
        sql(db, v1Messages);
        // the indexes, FTS table and triggers are missing: a crash after the tables were created

        MigrationResult result = migrator.migrate(db);
        assertEquals(1, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(List.of("v1-schema-version-table", "v1-sessions-table", "v1-messages-table", "v1-schema-version-row"),
                result.adopted().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(84, result.executed().size());
        assertEquals(List.of("17"), query(db, "SELECT group_concat(version) FROM schema_version"));
        assertEquals(List.of("s1|cli|1773133200.123456"), query(db, "SELECT id || '|' || source || '|' || started_at FROM sessions"));
        assertEquals(List.of(), migrator.checkWithLiquibase(db).changes());
    }

    @Test
    void aFileWhoseNumberIsBehindItsColumnsGetsOnlyWhatItLacks() throws Exception {
        Path db = dir.resolve("behind.db");
        Migrator.create().migrate(db);
        // as if a Python migration crashed after adding sessions.title but before recording version 3
        sql(db, "DROP TABLE DATABASECHANGELOG", "DROP TABLE DATABASECHANGELOGLOCK",
                "DROP INDEX idx_sessions_title_unique", "UPDATE schema_version SET version = 2");
        MigrationResult result = migrator.migrate(db);
        assertEquals(2, result.fromVersion());
        // besides the numbers and the index: the steps that depend on the number or on rows (there are none to
        // index or tag), as for any file below their version
        assertEquals(List.of("v3-schema-version", "v4-idx-sessions-title-unique", "v4-schema-version",
                        "v5-schema-version", "v6-schema-version", "v11-backfill-messages-fts",
                        "v11-backfill-messages-fts-trigram", "v14-messages-active-backfill", "v16-tag-delegate-children",
                        "v16-tag-orphaned-delegates", "v17-schema-version"),
                result.executed().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of("17"), query(db, "SELECT group_concat(version) FROM schema_version"));
    }

    @Test
    void aNumberLoweredUnderItsRecordsRunsTheStepsAboveItAgainAsTheAgentDoes() throws Exception {
        Path db = dir.resolve("lowered.db");
        migrator.migrate(db);
        // a subagent child without its marker, an untitled root that looks like an orphaned subagent run,
        // then the number set back to 15 (Hermes' own tests do this to replay the version-16 step)
        sql(db, "INSERT INTO sessions (id, source, started_at) VALUES ('parent', 'cli', 1.0)",
                "INSERT INTO sessions (id, source, started_at, parent_session_id) VALUES ('delegate', 'cli', 2.0, 'parent')",
                "INSERT INTO sessions (id, source, started_at, message_count) VALUES ('orphan', 'cli', 3.0, 2)",
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('orphan', 'user', 'Echo progress', 3.1)",
                "INSERT INTO messages (session_id, role, content, tool_name, timestamp)"
                        + " VALUES ('orphan', 'tool', 'step 1', 'terminal', 3.2)",
                "UPDATE schema_version SET version = 15");
        // every changeset above 15 is pending again; those whose objects exist are then only marked ran
        assertEquals(Changelog.changeSets().stream().filter(changeSet -> changeSet.version() > 15)
                        .map(Changelog.ChangeSetRef::id).toList(),
                migrator.status(db).pending().stream().map(SchemaStatus.ChangeSetState::id).toList());
        List<String> steps = List.of("v16-tag-delegate-children", "v16-tag-orphaned-delegates", "v17-schema-version");

        MigrationResult result = migrator.migrate(db);
        assertEquals(15, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(steps, result.executed().stream().map(MigrationResult.AppliedChange::id).toList());
        // the agent's answers on the same file (its v17 module, opened after the same UPDATE)
        assertEquals(List.of("delegate|{\"_delegate_from\":\"parent\"}", "orphan|{\"_delegate_from\":\"__orphaned__\"}",
                        "parent|-"),
                query(db, "SELECT id || '|' || COALESCE(model_config, '-') FROM sessions ORDER BY id"));
        assertEquals(List.of("17"), query(db, "SELECT group_concat(version) FROM schema_version"));
        assertEquals(List.of("1"), query(db, "SELECT count(*) FROM DATABASECHANGELOG WHERE ID = 'v16-tag-delegate-children'"));
        assertTrue(migrator.migrate(db).fastPath());
        assertEquals(List.of(), migrator.checkWithLiquibase(db).changes());
    }

    /** A store created or adopted before hermes-state had its own tables: version 17, every Hermes changeset recorded. */
    private Path storeWithoutOwnTables() throws Exception {
        Path db = dir.resolve("before-windows.db");
        migrator.migrate(db);
        sql(db, "DROP TABLE hermes_state_window", "DROP TABLE hermes_state_window_message",
                "DELETE FROM DATABASECHANGELOG WHERE AUTHOR = 'hermes-state'");
        return db;
    }

    @Test
    void aStoreWithoutHermesStatesOwnTablesGetsThemOnItsNextReadWriteOpen() throws Exception {
        Path db = storeWithoutOwnTables();
        assertEquals(17, migrator.checkReadable(db), "a read-only open needs only Hermes' version-6 columns");
        SchemaStatus status = migrator.status(db);
        assertFalse(status.upToDate());
        assertEquals(List.of("windows-window-table", "windows-window-message-table"),
                status.pending().stream().map(SchemaStatus.ChangeSetState::id).toList());

        MigrationResult result = migrator.migrate(db);
        assertFalse(result.fastPath(), "the fast path sees the tables are missing");
        assertEquals(17, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(List.of("windows-window-table", "windows-window-message-table"),
                result.executed().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of("hermes_state_window", "hermes_state_window_message"),
                query(db, "SELECT name FROM sqlite_master WHERE name LIKE 'hermes_state_%' ORDER BY name"));
        assertEquals(List.of("17"), query(db, "SELECT group_concat(version) FROM schema_version"));
        assertTrue(migrator.migrate(db).fastPath());
        assertTrue(migrator.status(db).upToDate());
    }

    @Test
    void ownTablesThatExistUnrecordedAreAdoptedAndRecordedOnesThatAreGoneAreCreatedAgain() throws Exception {
        Path db = dir.resolve("state.db");
        migrator.migrate(db);
        sql(db, "DELETE FROM DATABASECHANGELOG WHERE AUTHOR = 'hermes-state'");
        MigrationResult adopted = migrator.migrate(db);
        assertEquals(List.of("windows-window-table", "windows-window-message-table"),
                adopted.adopted().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of(), adopted.executed());

        // recorded, but dropped by hand: the records alone would make Liquibase skip them for ever
        sql(db, "DROP TABLE hermes_state_window_message");
        MigrationResult recreated = migrator.migrate(db);
        assertFalse(recreated.fastPath());
        assertEquals(List.of("windows-window-message-table"),
                recreated.executed().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of("windows-window-table"),
                recreated.adopted().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of("2"), query(db, "SELECT count(*) FROM DATABASECHANGELOG WHERE AUTHOR = 'hermes-state'"));
        assertTrue(migrator.migrate(db).fastPath());
        assertEquals(List.of(), migrator.checkWithLiquibase(db).changes());
    }

    @Test
    void adoptsAFileThePythonAgentStoppedCreatingAfterItsFirstTable() throws Exception {
        Path db = dir.resolve("first-table-only.db");
        sql(db, "CREATE TABLE schema_version (version INTEGER NOT NULL)");
        MigrationResult result = migrator.migrate(db);
        assertEquals(0, result.fromVersion());
        assertEquals(List.of("v1-schema-version-table"), result.adopted().stream().map(MigrationResult.AppliedChange::id).toList());
        assertEquals(List.of("17"), query(db, "SELECT group_concat(version) FROM schema_version"));
    }

    @Test
    void refusesOtherApplicationsDatabasesEvenWithTablesOfTheSameName() throws Exception {
        Path versioned = dir.resolve("other-versioned.db");
        sql(versioned, "CREATE TABLE schema_version (id INTEGER PRIMARY KEY, applied_at TEXT)",
                "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users (name) VALUES ('ann')");
        Path web = dir.resolve("other-sessions.db");
        sql(web, "CREATE TABLE sessions (token TEXT PRIMARY KEY, user_id INTEGER, expires REAL)");
        for (Path db : List.of(versioned, web)) {
            String before = Fixtures.sha256(db);
            NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> migrator.migrate(db));
            assertTrue(e.getMessage().contains("not a Hermes session store"), e.getMessage());
            assertTrue(e.getMessage().contains("left unchanged"), e.getMessage());
            assertEquals(before, Fixtures.sha256(db));
        }
    }

    @Test
    void aSessionsTableOfHermesWithAForeignMessagesTableIsRolledBackWholly() throws Exception {
        Path db = dir.resolve("odd-messages.db");
        sql(db, HERMES_V1_SESSIONS, "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, timestamp REAL, body BLOB)");
        String before = Fixtures.sha256(db);
        NotAHermesDatabaseException e = assertThrows(NotAHermesDatabaseException.class, () -> migrator.migrate(db));
        assertTrue(e.getMessage().contains("messages.role"), e.getMessage());
        assertTrue(e.getMessage().contains("left unchanged"), e.getMessage());
        assertEquals(List.of("messages", "sessions"), query(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
        assertEquals(before, Fixtures.sha256(db));
    }

    @Test
    void dataThatBreaksAVersionSixRuleFailsAsAConstraintViolationAndChangesNothing() throws Exception {
        Path db = dir.resolve("duplicate-titles.db");
        Migrator.create().migrate(db);
        // a version-3 file (titles, no unique index yet) whose users gave two sessions the same title
        sql(db, "DROP TABLE DATABASECHANGELOG", "DROP TABLE DATABASECHANGELOGLOCK", "DROP INDEX idx_sessions_title_unique",
                "UPDATE schema_version SET version = 3",
                "INSERT INTO sessions (id, source, started_at, title) VALUES ('a', 'cli', 1.0, 'same'), ('b', 'cli', 2.0, 'same')");
        String before = Fixtures.sha256(db);
        ConstraintViolationException e =
                assertThrows(ConstraintViolationException.class, () -> migrator.migrate(db));
        assertTrue(e.getMessage().contains("UNIQUE constraint failed: sessions.title"), e.getMessage());
        assertEquals(before, Fixtures.sha256(db));
        assertEquals(List.of("3"), query(db, "SELECT group_concat(version) FROM schema_version"));
    }

    /**
     * The whole migration is one transaction: on the agent's version-6 file, every step up to the last
     * (columns, the full-text re-layout, the tagging) runs before the final version bump fails, here on
     * another application's trigger that keeps schema_version as it is; all of it is rolled back.
     */
    @Test
    void aFailureInTheLastChangesetLeavesTheFileByteForByteUnchanged() throws Exception {
        Path db = Fixtures.copy("state-v6.db", dir);
        sql(db, "CREATE TRIGGER keep_version BEFORE UPDATE ON schema_version BEGIN"
                + " SELECT RAISE(ABORT, 'schema_version is kept by another tool'); END");
        String before = Fixtures.sha256(db);
        List<String> objectsBefore = query(db, "SELECT type || ' ' || name FROM sqlite_master ORDER BY 1");

        ConstraintViolationException e = assertThrows(ConstraintViolationException.class, () -> migrator.migrate(db));
        assertTrue(e.getMessage().contains("schema_version is kept by another tool"), e.getMessage());
        assertEquals("Constraint violated while migrating " + db + ": schema_version is kept by another tool", e.getMessage());
        List<String> causes = new ArrayList<>();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            causes.add(String.valueOf(cause.getMessage()));
        }
        assertTrue(causes.stream().anyMatch(m -> m.contains("hermes-state/v17.sql::v17-schema-version::hermes")),
                "the last changeset failed: " + causes);

        assertEquals(before, Fixtures.sha256(db));
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(db), listing.toList(), "no -journal or -wal left beside it");
        }
        assertEquals(objectsBefore, query(db, "SELECT type || ' ' || name FROM sqlite_master ORDER BY 1"));
        assertEquals(List.of("6"), query(db, "SELECT group_concat(version) FROM schema_version"));
        // a dry run of the same file fails the same way, and a migration without the trigger succeeds
        assertThrows(ConstraintViolationException.class, () -> migrator.dryRun(db));
        sql(db, "DROP TRIGGER keep_version");
        assertEquals(17, migrator.migrate(db).toVersion());
    }

    /**
     * The fast path at 17: a second open of a migrated file, in a JVM of its own, loads not one
     * Liquibase class (the first open of the same kind of file loads hundreds).
     */
    @Test
    void aSecondOpenAtSeventeenLoadsNoLiquibaseClass() throws Exception {
        Path created = dir.resolve("created.db");
        Path adopted = Fixtures.copy("state-v6.db", dir);
        Path fresh = Fixtures.copy("state-v17.db", dir);
        migrator.migrate(created);
        migrator.migrate(adopted);
        migrator.migrate(fresh);
        for (Path db : List.of(created, adopted, fresh)) {
            String sha = Fixtures.sha256(db);
            ProcessResult second = Command.java(List.of("-Xlog:class+load=info"), MigrateCommand.class, "--db", db.toString()).run();
            assertEquals(0, second.exitCode(), second.toString());
            assertEquals(List.of(db + ": up to date at schema version 17"), summaryLines(second.stdout()));
            assertEquals(0, loadedLiquibaseClasses(second.stdout()), "the fast path never loads Liquibase: " + db);
            assertEquals(sha, Fixtures.sha256(db));
        }
        Path unmigrated = Fixtures.copy("state-v16.db", dir);
        ProcessResult first = Command.java(List.of("-Xlog:class+load=info"), MigrateCommand.class, "--db", unmigrated.toString()).run();
        assertEquals(0, first.exitCode(), first.toString());
        assertEquals(List.of(unmigrated + ": schema version 16 -> 17 (15 changesets run, 73 already present)"),
                summaryLines(first.stdout()));
        assertTrue(loadedLiquibaseClasses(first.stdout()) > 100, "the probe sees Liquibase when it runs");
    }

    @Test
    void statusCountsTheSessionsAndMessagesOnItsReadOnlyInspectionAndWritesNothing() throws Exception {
        Path v2 = Fixtures.copy("state-v2.db", dir);
        String before = Fixtures.sha256(v2);
        SchemaStatus status = migrator.status(v2);
        assertEquals(2, status.schemaVersion());
        assertEquals(30, status.sessions());
        assertEquals(95, status.messages());
        assertFalse(status.upToDate());
        assertEquals(before, Fixtures.sha256(v2));

        // a file the Python agent stopped creating after its first table: no rows to count, not an error
        Path firstTable = dir.resolve("first-table-only.db");
        sql(firstTable, "CREATE TABLE schema_version (version INTEGER NOT NULL)");
        SchemaStatus started = migrator.status(firstTable);
        assertEquals(List.of(0L, 0L), List.of(started.sessions(), started.messages()));
    }

    @Test
    void commandLineUsageErrorsExitWithTwoAndHelpWithZero() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, MigrateCommand.run(new String[0], o, e));
        assertEquals(2, MigrateCommand.run(new String[] {"--db"}, o, e));
        assertEquals(2, MigrateCommand.run(new String[] {"--db", "x.db", "--force"}, o, e));
        assertEquals(0, MigrateCommand.run(new String[] {"--help"}, o, e));
        assertEquals("usage: hermes-state-migrate --db PATH|postgresql://USER:PASSWORD@HOST:PORT/DB [--schema NAME]"
                        + " [--to 6|17] [--dry-run]\n",
                out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown argument: --force"));
    }

    /** The command's own output, without the JVM's class-loading log lines. */
    private static List<String> summaryLines(String stdout) {
        return stdout.lines().filter(line -> !line.startsWith("[")).toList();
    }

    private static long loadedLiquibaseClasses(String classLoadLog) {
        return classLoadLog.lines().filter(line -> line.contains("[class,load] liquibase.")).count();
    }

    private static void sql(Path db, String... statements) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
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
}
