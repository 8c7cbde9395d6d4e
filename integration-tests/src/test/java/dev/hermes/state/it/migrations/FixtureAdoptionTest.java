package dev.hermes.state.it.migrations;

import dev.hermes.state.migrations.MigrateCommand;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adoption of every real file the Python agent made: only the missing steps run, the data, the
 * full-text index and another application's table survive, and the result is SPEC section 1.
 */
class FixtureAdoptionTest {
    /** Every changeset id of the changelog with its version, in order (what a new file runs). */
    private static List<MigrationResult.AppliedChange> allChangeSets;

    @TempDir
    Path dir;

    @BeforeAll
    static void readChangelog(@TempDir Path scratch) {
        allChangeSets = Migrator.create().dryRun(scratch.resolve("absent/state.db")).changes();
        assertEquals(36, allChangeSets.size());
    }

    @ParameterizedTest
    @EnumSource(HermesFixture.class)
    void adoptsTheFileKeepingEveryRowAndTheFullTextIndex(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        assertEquals(Fixtures.originalSha256(fixture.fileName), Fixtures.sha256(db));
        Map<String, List<String>> before = SqliteDb.dump(db);
        Set<String> sessionColumnsBefore = SqliteDb.columns(db, "sessions").keySet();
        Set<String> messageColumnsBefore = SqliteDb.columns(db, "messages").keySet();
        List<List<Object>> sessionsBefore = select(db, "sessions", sessionColumnsBefore);
        List<List<Object>> messagesBefore = select(db, "messages", messageColumnsBefore);
        assertEquals(HermesFixture.RAW_FTS_ANSWERS, ftsAnswers(db), "the fixture answers as the MANIFEST says");

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(fixture.version, result.fromVersion());
        assertEquals(6, result.toVersion());
        assertFalse(result.created());
        assertFalse(result.fastPath());
        assertEquals(expectedAdopted(fixture), ids(result.adopted()));
        assertEquals(expectedExecuted(fixture), ids(result.executed()));

        ExpectedSchema.assertVersion6(db, fixture.foreignObjects());
        assertEquals("wal", SqliteDb.single(db, "PRAGMA journal_mode"));

        // every row of the Python-made tables is unchanged; the added columns hold their defaults
        assertEquals(sessionsBefore, select(db, "sessions", sessionColumnsBefore));
        assertEquals(messagesBefore, select(db, "messages", messageColumnsBefore));
        assertNewColumnsHoldDefaults(db, "sessions", sessionColumnsBefore);
        assertNewColumnsHoldDefaults(db, "messages", messageColumnsBefore);
        Map<String, List<String>> after = SqliteDb.dump(db);
        for (String table : before.keySet()) {
            if (!Set.of("sessions", "messages", "schema_version").contains(table)) {
                assertEquals(before.get(table), after.get(table), "table " + table + " of " + fixture);
            }
        }
        assertEquals(expectedRowCounts(fixture), rowCounts(db));
        assertEquals(95L, ((Number) SqliteDb.single(db, "SELECT SUM(message_count) FROM sessions")).longValue());
        assertEquals(fixture.sumToolCallCount,
                ((Number) SqliteDb.single(db, "SELECT SUM(tool_call_count) FROM sessions")).longValue());
        assertEquals(HermesFixture.RAW_FTS_ANSWERS, ftsAnswers(db));

        // the changelog records what the file had (MARK_RAN) and what was run (EXECUTED)
        List<SqliteDb.ChangelogRow> changelog = SqliteDb.changelog(db);
        assertEquals(ids(allChangeSets), changelog.stream().map(SqliteDb.ChangelogRow::id).toList());
        for (SqliteDb.ChangelogRow row : changelog) {
            boolean adopted = expectedAdopted(fixture).contains(row.id());
            assertEquals(adopted ? "MARK_RAN" : "EXECUTED", row.execType(), row.id());
        }

        // a second open is a no-op: the fast path, nothing written
        String migrated = Fixtures.sha256(db);
        MigrationResult second = Migrator.create().migrate(db);
        assertTrue(second.fastPath());
        assertEquals(6, second.fromVersion());
        assertEquals(List.of(), second.changes());
        assertEquals(changelog, SqliteDb.changelog(db));
        assertEquals(migrated, Fixtures.sha256(db));

        assertIntact(db);
    }

    @Test
    void theForeignVersionThreeGetsItsTitleColumnAndKeepsItsOwnTable() throws Exception {
        Path db = HermesFixture.V3_FOREIGN.copyInto(dir);
        List<String> invocationLogBefore = SqliteDb.dump(db).get("invocation_log");
        MigrationResult result = Migrator.create().migrate(db);

        Map<String, Boolean> executedById = new TreeMap<>();
        result.changes().forEach(change -> executedById.put(change.id(), change.executed()));
        assertEquals(true, executedById.get("v3-sessions-title"), "the title column was missing: it is added");
        assertEquals(false, executedById.get("v3-schema-version"), "the number already said 3");
        assertEquals(false, executedById.get("v2-messages-finish_reason"));
        assertEquals(false, executedById.get("v1-sessions-table"));
        for (String id : List.of("v4-idx-sessions-title-unique", "v4-schema-version", "v5-sessions-cache_read_tokens",
                "v5-schema-version", "v6-messages-reasoning", "v6-schema-version")) {
            assertEquals(true, executedById.get(id), id);
        }
        assertTrue(SqliteDb.columns(db, "sessions").containsKey("title"));
        assertEquals(invocationLogBefore, SqliteDb.dump(db).get("invocation_log"));
        assertEquals(5L, SqliteDb.count(db, "invocation_log"));
        assertEquals(List.of(List.of("idx_invocation_log_created"), List.of("idx_invocation_log_source"),
                        List.of("idx_invocation_log_tool")),
                SqliteDb.rows(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'invocation_log'"
                        + " AND sql IS NOT NULL ORDER BY name"));
    }

    /**
     * The changelog a file ends up with does not depend on how the migrator was started: the API in
     * this JVM, the runnable jar, or MigrateCommand on a class path in another JVM. The jar's second
     * run takes the fast path without loading a single Liquibase class.
     */
    @ParameterizedTest
    @EnumSource(HermesFixture.class)
    void recordsTheSameChangelogHoweverTheMigratorIsStarted(HermesFixture fixture) throws Exception {
        Path throughApi = fixture.copyInto(mkdir("api"));
        Path throughJar = fixture.copyInto(mkdir("jar"));
        Path throughMain = fixture.copyInto(mkdir("main"));

        ProcessResult jar;
        ProcessResult main;
        try (ChildProcess jarRun = MigrateJar.command(List.of("-Xlog:class+load=info"), "--db", throughJar.toString()).start();
             ChildProcess mainRun = Command.java(MigrateCommand.class, "--db", throughMain.toString()).start()) {
            Migrator.create().migrate(throughApi);
            jar = jarRun.finish(ChildProcess.DEFAULT_TIMEOUT);
            main = mainRun.finish(ChildProcess.DEFAULT_TIMEOUT);
        }

        assertEquals(0, jar.exitCode(), jar.toString());
        assertEquals("", jar.stderr(), "Liquibase prints nothing");
        assertTrue(loadedLiquibaseClasses(jar.stdout()) > 100, "the probe sees Liquibase when it runs");
        int executed = (int) allChangeSets.stream().filter(c -> !fixture.alreadyHas(c.id(), c.version())).count();
        assertEquals(List.of(throughJar + ": schema version " + fixture.version + " -> 6 (" + executed
                + " changesets run, " + (36 - executed) + " already present)"), summaryLines(jar.stdout()));
        assertEquals(0, main.exitCode(), main.toString());
        assertEquals(throughMain + ": schema version " + fixture.version + " -> 6 (" + executed
                + " changesets run, " + (36 - executed) + " already present)\n", main.stdout());
        assertEquals("", main.stderr());

        List<SqliteDb.ChangelogRow> expected = SqliteDb.changelog(throughApi);
        assertEquals(36, expected.size());
        assertEquals(expected, SqliteDb.changelog(throughJar));
        assertEquals(expected, SqliteDb.changelog(throughMain));

        String migrated = Fixtures.sha256(throughJar);
        ProcessResult again = MigrateJar.command(List.of("-Xlog:class+load=info"), "--db", throughJar.toString()).run();
        assertEquals(0, again.exitCode(), again.toString());
        assertEquals(List.of(throughJar + ": up to date at schema version 6"), summaryLines(again.stdout()));
        assertEquals(0, loadedLiquibaseClasses(again.stdout()), "the fast path never loads Liquibase");
        assertEquals(migrated, Fixtures.sha256(throughJar));
        assertEquals(expected, SqliteDb.changelog(throughJar));
    }

    @Test
    void aNewFileRecordsTheSameChangelogHoweverTheMigratorIsStarted() throws Exception {
        Path throughApi = dir.resolve("api/state.db");
        Path throughJar = dir.resolve("jar/state.db");
        Path throughMain = dir.resolve("main/state.db");
        ProcessResult jar;
        ProcessResult main;
        try (ChildProcess jarRun = MigrateJar.command(List.of(), "--db", throughJar.toString()).start();
             ChildProcess mainRun = Command.java(MigrateCommand.class, "--db", throughMain.toString()).start()) {
            Migrator.create().migrate(throughApi);
            jar = jarRun.finish(ChildProcess.DEFAULT_TIMEOUT);
            main = mainRun.finish(ChildProcess.DEFAULT_TIMEOUT);
        }
        assertEquals(throughJar + ": created at schema version 6 (36 changesets run, 0 already present)\n", jar.stdout(), jar.toString());
        assertEquals("", jar.stderr());
        assertEquals(0, main.exitCode(), main.toString());

        List<SqliteDb.ChangelogRow> expected = SqliteDb.changelog(throughApi);
        assertEquals(expected, SqliteDb.changelog(throughJar));
        assertEquals(expected, SqliteDb.changelog(throughMain));
        ExpectedSchema.assertVersion6(throughJar, Set.of());
        ExpectedSchema.assertVersion6(throughMain, Set.of());
    }

    static void assertIntact(Path db) throws SQLException {
        assertEquals("ok", SqliteDb.single(db, "PRAGMA integrity_check"));
        assertEquals(List.of(), SqliteDb.rows(db, "PRAGMA foreign_key_check"));
        try (Connection connection = SqliteDb.readWrite(db); Statement statement = connection.createStatement()) {
            // FTS5 reports a damaged index by failing this command; run it without keeping anything
            statement.execute("BEGIN");
            statement.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')");
            statement.execute("ROLLBACK");
        }
    }

    static Map<String, List<String>> ftsAnswers(Path db) throws SQLException {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        for (String query : HermesFixture.RAW_FTS_ANSWERS.keySet()) {
            answers.put(query, SqliteDb.ftsMatches(db, query));
        }
        return answers;
    }

    private Path mkdir(String name) throws Exception {
        return Files.createDirectories(dir.resolve(name));
    }

    private static List<String> expectedAdopted(HermesFixture fixture) {
        return allChangeSets.stream().filter(c -> fixture.alreadyHas(c.id(), c.version()))
                .map(MigrationResult.AppliedChange::id).toList();
    }

    private static List<String> expectedExecuted(HermesFixture fixture) {
        return allChangeSets.stream().filter(c -> !fixture.alreadyHas(c.id(), c.version()))
                .map(MigrationResult.AppliedChange::id).toList();
    }

    private static Map<String, Long> expectedRowCounts(HermesFixture fixture) {
        Map<String, Long> counts = new TreeMap<>(fixture.rowCounts());
        counts.put("DATABASECHANGELOG", 36L);
        counts.put("DATABASECHANGELOGLOCK", 1L);
        // hermes-state's own tables for conversation windows, created empty
        counts.put("hermes_state_window", 0L);
        counts.put("hermes_state_window_message", 0L);
        return counts;
    }

    private static Map<String, Long> rowCounts(Path db) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        for (List<Object> table : SqliteDb.rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")) {
            counts.put((String) table.get(0), SqliteDb.count(db, (String) table.get(0)));
        }
        return counts;
    }

    private static List<List<Object>> select(Path db, String table, Set<String> columns) throws SQLException {
        String list = columns.stream().sorted().map(c -> '"' + c + '"').collect(Collectors.joining(", "));
        return SqliteDb.rows(db, "SELECT " + list + " FROM " + table + " ORDER BY id");
    }

    private static void assertNewColumnsHoldDefaults(Path db, String table, Set<String> columnsBefore) throws SQLException {
        List<String> added = new ArrayList<>(SqliteDb.columns(db, table).keySet());
        added.removeAll(columnsBefore);
        for (String column : added) {
            String expected = ExpectedSchema.ZERO_DEFAULT_COLUMNS.contains(column) ? "0" : "NULL";
            assertEquals(List.of(List.of(expected)), SqliteDb.rows(db,
                    "SELECT DISTINCT quote(\"" + column + "\") FROM " + table), table + "." + column);
        }
    }

    private static List<String> ids(List<MigrationResult.AppliedChange> changes) {
        return changes.stream().map(MigrationResult.AppliedChange::id).toList();
    }

    /** The command's own output, without the JVM's class-loading log lines. */
    private static List<String> summaryLines(String stdout) {
        return stdout.lines().filter(line -> !line.startsWith("[")).toList();
    }

    private static long loadedLiquibaseClasses(String classLoadLog) {
        return classLoadLog.lines().filter(line -> line.contains("[class,load] liquibase.")).count();
    }
}
