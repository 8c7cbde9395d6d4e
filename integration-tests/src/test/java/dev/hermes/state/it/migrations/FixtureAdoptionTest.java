package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.SchemaTooNewException;
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
import org.junit.jupiter.params.provider.FieldSource;

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
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adoption of every real file the Python agent made. By default (version 17) only the missing steps
 * run, and the file ends as the agent's own version-17 open left a copy of it: the version-17 schema,
 * and the same rows in every table, full-text index included (HermesFixture holds what the agent left).
 * Kept at version 6, a file of versions 1-6 gets version 6's schema (docs/behaviour.md#file-and-schema) with every row as it was, and a later
 * file is refused.
 */
class FixtureAdoptionTest {
    /** Every changeset id of the changelog with its version, in order (what a new file runs). */
    private static List<MigrationResult.AppliedChange> allChangeSets;
    /** The same for a store kept at version 6. */
    private static List<MigrationResult.AppliedChange> keptChangeSets;

    @TempDir
    Path dir;

    @BeforeAll
    static void readChangelog(@TempDir Path scratch) {
        allChangeSets = Migrator.create().dryRun(scratch.resolve("absent/state.db")).changes();
        assertEquals(88, allChangeSets.size());
        keptChangeSets = Migrator.create().toVersion(6).dryRun(scratch.resolve("absent/state.db")).changes();
        assertEquals(allChangeSets.subList(0, 36), keptChangeSets);
    }

    @ParameterizedTest
    @EnumSource(HermesFixture.class)
    void adoptsTheFileAsTheAgentsOwnVersionSeventeenOpenDoes(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        assertEquals(Fixtures.originalSha256(fixture.fileName), Fixtures.sha256(db));
        Map<String, List<String>> before = SqliteDb.dump(db);
        Set<String> sessionColumnsBefore = SqliteDb.columns(db, "sessions").keySet();
        Set<String> messageColumnsBefore = SqliteDb.columns(db, "messages").keySet();
        Map<String, Map<String, Object>> sessionsBefore = rowsById(db, "sessions", sessionColumnsBefore);
        Map<String, Map<String, Object>> messagesBefore = rowsById(db, "messages", messageColumnsBefore);
        assertEquals(HermesFixture.RAW_FTS_ANSWERS, ftsAnswers(db), "the fixture answers as the MANIFEST says");
        assertEquals(fixture.hasInlineFullText() ? HermesFixture.TOOL_ONLY_ANSWER : List.of(),
                SqliteDb.ftsMatches(db, "cronjob"), "a tool name is found once tool names are indexed");

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(fixture.version, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertFalse(result.created());
        assertFalse(result.fastPath());
        assertEquals(expectedAdopted(allChangeSets, fixture), ids(result.adopted()));
        assertEquals(expectedExecuted(allChangeSets, fixture), ids(result.executed()));

        ExpectedSchema.assertVersion17(db, fixture.foreignObjects(), true);
        assertEquals("wal", SqliteFiles.single(db, "PRAGMA journal_mode"));

        // the rows the agent's open leaves: every Python-made value as it was but the tagged model_configs,
        // the columns the file lacked at their defaults
        Map<String, Map<String, Object>> sessionsExpected = new TreeMap<>(sessionsBefore);
        fixture.taggedModelConfigs.forEach((id, config) -> {
            Map<String, Object> tagged = new TreeMap<>(sessionsExpected.get(id));
            tagged.put("model_config", config);
            sessionsExpected.put(id, tagged);
        });
        assertEquals(sessionsExpected, rowsById(db, "sessions", sessionColumnsBefore));
        assertEquals(messagesBefore, rowsById(db, "messages", messageColumnsBefore));
        assertNewColumnsHoldDefaults(db, "sessions", sessionColumnsBefore);
        assertNewColumnsHoldDefaults(db, "messages", messageColumnsBefore);
        Map<String, List<String>> after = SqliteDb.dump(db);
        for (String table : before.keySet()) {
            boolean relaidOut = table.startsWith("messages_fts_") && !fixture.hasInlineFullText();
            if (!Set.of("sessions", "messages", "schema_version").contains(table) && !relaidOut) {
                assertEquals(before.get(table), after.get(table), "table " + table + " of " + fixture);
            }
        }
        assertEquals(expectedRowCounts(fixture.agentRowCountMap(), 88), rowCounts(db));
        assertEquals(fixture.sumMessageCount, sum(db, "message_count"));
        assertEquals(fixture.sumToolCallCount, sum(db, "tool_call_count"));
        // ... and all of it row for row, FTS5's blocks included, as the agent left its copy
        assertEquals(fixture.agentRowsDigest, SqliteDb.rowsDigest(db), "every row but the index's");
        assertEquals(fixture.agentFullTextDigest, SqliteDb.fullTextDigest(db), "the full-text index");
        assertEquals(HermesFixture.RAW_FTS_ANSWERS, ftsAnswers(db));
        assertEquals(HermesFixture.TOOL_ONLY_ANSWER, SqliteDb.ftsMatches(db, "cronjob"));
        assertEquals(List.of(List.of(61), List.of(62)), SqliteFiles.rows(db,
                "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH 'cronjob' ORDER BY rowid"));

        // the changelog records what the file had (MARK_RAN) and what was run (EXECUTED)
        List<SqliteDb.ChangelogRow> changelog = SqliteDb.changelog(db);
        assertEquals(ids(allChangeSets), changelog.stream().map(SqliteDb.ChangelogRow::id).toList());
        for (SqliteDb.ChangelogRow row : changelog) {
            boolean adopted = expectedAdopted(allChangeSets, fixture).contains(row.id());
            assertEquals(adopted ? "MARK_RAN" : "EXECUTED", row.execType(), row.id());
        }

        // a second open is a no-op: the fast path, nothing written
        String migrated = Fixtures.sha256(db);
        MigrationResult second = Migrator.create().migrate(db);
        assertTrue(second.fastPath());
        assertEquals(17, second.fromVersion());
        assertEquals(List.of(), second.changes());
        assertEquals(changelog, SqliteDb.changelog(db));
        assertEquals(migrated, Fixtures.sha256(db));

        assertIntact(db, fixture.trigramRowsOutOfStep());
        // ... which is how the agent's own file is: a migration neither causes nor hides it
        assertIntact(fixture.copyInto(Files.createDirectory(dir.resolve("pristine"))), fixture.trigramRowsOutOfStep());
    }

    /**
     * state-v17.db is the agent's own fresh file: it gets hermes-state's own tables and the changelog,
     * and nothing else changes, not one object or row.
     */
    @Test
    void theAgentsOwnVersionSeventeenFileGetsOnlyHermesStatesOwnTables() throws Exception {
        Path db = HermesFixture.V17.copyInto(dir);
        Map<String, String> objectsBefore = SqliteDb.master(db);
        Map<String, List<String>> rowsBefore = SqliteDb.dump(db);

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(List.of("windows-window-table", "windows-window-message-table"), ids(result.executed()));
        assertEquals(86, result.adopted().size());
        Map<String, String> objectsAfter = SqliteDb.master(db);
        Set<String> added = new TreeSet<>(objectsAfter.keySet());
        added.removeAll(objectsBefore.keySet());
        assertEquals(new TreeSet<>(ExpectedSchema.OWN_OBJECTS), added);
        objectsAfter.keySet().removeAll(ExpectedSchema.OWN_OBJECTS);
        assertEquals(objectsBefore, objectsAfter, "every object of the agent's, with its SQL exactly as stored");
        Map<String, List<String>> rowsAfter = SqliteDb.dump(db);
        rowsAfter.keySet().removeAll(SqliteDb.OWN_TABLES);
        assertEquals(rowsBefore, rowsAfter);
        ExpectedSchema.assertVersion17(db, Set.of(), true);
    }

    /**
     * state-v17-upgraded.db is state-v6.db upgraded by the agent itself (then used): state-v6.db migrated
     * here has exactly its objects, each table with the same columns (in another order: the agent adds
     * missing columns in its schema's order) and every other object with the same SQL, and every session
     * the same model_config (the agent's later operations changed other columns only).
     */
    @Test
    void aVersionSixFileEndsWithTheObjectsAndTagsOfTheAgentsOwnUpgrade() throws Exception {
        Path db = HermesFixture.V6.copyInto(dir);
        Path agents = HermesFixture.V17_UPGRADED.copyInto(Files.createDirectory(dir.resolve("agent")));
        Migrator.create().migrate(db);

        Map<String, String> ours = SqliteDb.master(db);
        Map<String, String> theirs = SqliteDb.master(agents);
        ours.keySet().removeAll(ExpectedSchema.OWN_OBJECTS);
        assertEquals(theirs.keySet(), ours.keySet());
        for (String object : theirs.keySet()) {
            String table = object.startsWith("table ") ? object.substring("table ".length()) : null;
            if (table != null && !theirs.get(object).startsWith("CREATE VIRTUAL")) {
                assertEquals(SqliteDb.columns(agents, table), SqliteDb.columns(db, table), object);
                assertEquals(SqliteDb.foreignKeys(agents, table), SqliteDb.foreignKeys(db, table), object);
            } else {
                assertEquals(ExpectedSchema.normalise(theirs.get(object)), ExpectedSchema.normalise(ours.get(object)), object);
            }
        }
        assertEquals(SqliteFiles.rows(agents, "SELECT id, model_config FROM sessions ORDER BY id"),
                SqliteFiles.rows(db, "SELECT id, model_config FROM sessions ORDER BY id"));
        assertEquals(SqliteFiles.rows(agents, "SELECT version FROM schema_version"), SqliteFiles.rows(db, "SELECT version FROM schema_version"));
    }

    @ParameterizedTest
    @FieldSource("dev.hermes.state.it.migrations.HermesFixture#UP_TO_VERSION_6")
    void keptAtSixAdoptsTheFileKeepingEveryRowAndTheFullTextIndex(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        Map<String, List<String>> before = SqliteDb.dump(db);
        Set<String> sessionColumnsBefore = SqliteDb.columns(db, "sessions").keySet();
        Set<String> messageColumnsBefore = SqliteDb.columns(db, "messages").keySet();
        Map<String, Map<String, Object>> sessionsBefore = rowsById(db, "sessions", sessionColumnsBefore);
        Map<String, Map<String, Object>> messagesBefore = rowsById(db, "messages", messageColumnsBefore);

        MigrationResult result = Migrator.create().toVersion(6).migrate(db);

        assertEquals(fixture.version, result.fromVersion());
        assertEquals(6, result.toVersion());
        assertFalse(result.created());
        assertEquals(expectedAdopted(keptChangeSets, fixture), ids(result.adopted()));
        assertEquals(expectedExecuted(keptChangeSets, fixture), ids(result.executed()));

        ExpectedSchema.assertVersion6(db, fixture.foreignObjects());
        assertEquals("wal", SqliteFiles.single(db, "PRAGMA journal_mode"));
        // every row of the Python-made tables is unchanged; the added columns hold their defaults
        assertEquals(sessionsBefore, rowsById(db, "sessions", sessionColumnsBefore));
        assertEquals(messagesBefore, rowsById(db, "messages", messageColumnsBefore));
        assertNewColumnsHoldDefaults(db, "sessions", sessionColumnsBefore);
        assertNewColumnsHoldDefaults(db, "messages", messageColumnsBefore);
        Map<String, List<String>> after = SqliteDb.dump(db);
        for (String table : before.keySet()) {
            if (!Set.of("sessions", "messages", "schema_version").contains(table)) {
                assertEquals(before.get(table), after.get(table), "table " + table + " of " + fixture);
            }
        }
        assertEquals(expectedRowCounts(fixture.rowCounts(), 36), rowCounts(db));
        assertEquals(95L, sum(db, "message_count"));
        assertEquals(fixture.sumToolCallCount, sum(db, "tool_call_count"));
        assertEquals(HermesFixture.RAW_FTS_ANSWERS, ftsAnswers(db));
        assertEquals(List.of(), SqliteDb.ftsMatches(db, "cronjob"), "version 1's index: content only");

        List<SqliteDb.ChangelogRow> changelog = SqliteDb.changelog(db);
        assertEquals(ids(keptChangeSets), changelog.stream().map(SqliteDb.ChangelogRow::id).toList());
        String migrated = Fixtures.sha256(db);
        MigrationResult second = Migrator.create().toVersion(6).migrate(db);
        assertTrue(second.fastPath());
        assertEquals(6, second.fromVersion());
        assertEquals(migrated, Fixtures.sha256(db));
        assertIntact(db);
    }

    @ParameterizedTest
    @EnumSource(value = HermesFixture.class, names = {"V8", "V10", "V11", "V12", "V14", "V16", "V17", "V17_UPGRADED"})
    void keptAtSixRefusesALaterFileLeavingItByteForByteUnchanged(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        SchemaTooNewException e = assertThrows(SchemaTooNewException.class, () -> Migrator.create().toVersion(6).migrate(db));
        assertEquals(fixture.version, e.fileVersion());
        assertEquals(6, e.supportedVersion());
        assertEquals(Fixtures.originalSha256(fixture.fileName), Fixtures.sha256(db));
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
                "v5-schema-version", "v6-messages-reasoning", "v6-schema-version", "v11-drop-table-messages-fts",
                "v16-tag-orphaned-delegates", "v17-schema-version")) {
            assertEquals(true, executedById.get(id), id);
        }
        assertTrue(SqliteDb.columns(db, "sessions").containsKey("title"));
        assertEquals(invocationLogBefore, SqliteDb.dump(db).get("invocation_log"));
        assertEquals(5L, SqliteDb.count(db, "invocation_log"));
        assertEquals(List.of(List.of("idx_invocation_log_created"), List.of("idx_invocation_log_source"),
                        List.of("idx_invocation_log_tool")),
                SqliteFiles.rows(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'invocation_log'"
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
        // each JVM unpacks sqlite-jdbc's native library into a folder of its own: two that start together
        // in one folder can race over deleting each other's copy, and sqlite-jdbc logs that to stderr
        try (ChildProcess jarRun = MigrateJar.command(List.of("-Xlog:class+load=info", nativeLibraryFolder("jar-lib")),
                "--db", throughJar.toString()).start();
             ChildProcess mainRun = Command.java(List.of(nativeLibraryFolder("main-lib")), MigrateCommand.class,
                     "--db", throughMain.toString()).start()) {
            Migrator.create().migrate(throughApi);
            jar = jarRun.finish(ChildProcess.DEFAULT_TIMEOUT);
            main = mainRun.finish(ChildProcess.DEFAULT_TIMEOUT);
        }

        assertEquals(0, jar.exitCode(), jar.toString());
        assertEquals("", jar.stderr(), "Liquibase prints nothing");
        assertTrue(loadedLiquibaseClasses(jar.stdout()) > 100, "the probe sees Liquibase when it runs");
        int executed = (int) allChangeSets.stream().filter(c -> !fixture.alreadyHas(c.id(), c.version())).count();
        String summary = ": schema version " + fixture.version + " -> 17 (" + executed + " changesets run, "
                + (88 - executed) + " already present)";
        assertEquals(List.of(throughJar + summary), summaryLines(jar.stdout()));
        assertEquals(0, main.exitCode(), main.toString());
        assertEquals(throughMain + summary + "\n", main.stdout());
        assertEquals("", main.stderr());

        List<SqliteDb.ChangelogRow> expected = SqliteDb.changelog(throughApi);
        assertEquals(88, expected.size());
        assertEquals(expected, SqliteDb.changelog(throughJar));
        assertEquals(expected, SqliteDb.changelog(throughMain));
        for (Path db : List.of(throughJar, throughMain)) {
            assertEquals(fixture.agentRowsDigest, SqliteDb.rowsDigest(db), db.toString());
            assertEquals(fixture.agentFullTextDigest, SqliteDb.fullTextDigest(db), db.toString());
        }

        String migrated = Fixtures.sha256(throughJar);
        ProcessResult again = MigrateJar.command(List.of("-Xlog:class+load=info"), "--db", throughJar.toString()).run();
        assertEquals(0, again.exitCode(), again.toString());
        assertEquals(List.of(throughJar + ": up to date at schema version 17"), summaryLines(again.stdout()));
        assertEquals(0, loadedLiquibaseClasses(again.stdout()), "the fast path never loads Liquibase");
        assertEquals(migrated, Fixtures.sha256(throughJar));
        assertEquals(expected, SqliteDb.changelog(throughJar));
    }

    @Test
    void aNewFileRecordsTheSameChangelogHoweverTheMigratorIsStarted() throws Exception {
        for (int version : new int[] {17, 6}) {
            Path throughApi = dir.resolve(version + "/api/state.db");
            Path throughJar = dir.resolve(version + "/jar/state.db");
            Path throughMain = dir.resolve(version + "/main/state.db");
            ProcessResult jar;
            ProcessResult main;
            try (ChildProcess jarRun = MigrateJar.command(List.of(), "--db", throughJar.toString(), "--to", "" + version).start();
                 ChildProcess mainRun = Command.java(MigrateCommand.class, "--db", throughMain.toString(), "--to", "" + version)
                         .start()) {
                Migrator.create().toVersion(version).migrate(throughApi);
                jar = jarRun.finish(ChildProcess.DEFAULT_TIMEOUT);
                main = mainRun.finish(ChildProcess.DEFAULT_TIMEOUT);
            }
            int changeSets = version == 17 ? 88 : 36;
            assertEquals(throughJar + ": created at schema version " + version + " (" + changeSets
                    + " changesets run, 0 already present)\n", jar.stdout(), jar.toString());
            assertEquals("", jar.stderr());
            assertEquals(0, main.exitCode(), main.toString());

            List<SqliteDb.ChangelogRow> expected = SqliteDb.changelog(throughApi);
            assertEquals(changeSets, expected.size());
            assertEquals(expected, SqliteDb.changelog(throughJar));
            assertEquals(expected, SqliteDb.changelog(throughMain));
            for (Path db : List.of(throughJar, throughMain)) {
                if (version == 17) {
                    ExpectedSchema.assertVersion17(db, Set.of(), true);
                } else {
                    ExpectedSchema.assertVersion6(db, Set.of());
                }
            }
        }
    }

    /** SQLite's integrity check, the foreign keys, and FTS5's own check of each full-text table the file has. */
    static void assertIntact(Path db) throws SQLException {
        assertIntact(db, Set.of());
    }

    /**
     * {@link #assertIntact(Path)}, except that the trigram index of {@code trigramRowsOutOfStep} is known to
     * be out of step with this SQLite's tokenizer ({@link HermesFixture#trigramRowsOutOfStep}): then both
     * checks report exactly that table, and a trigram index of the same text built here differs from the
     * file's in exactly those rows, which are the rows whose content starts with a NUL.
     */
    static void assertIntact(Path db, Set<Long> trigramRowsOutOfStep) throws SQLException {
        String expected = trigramRowsOutOfStep.isEmpty() ? "ok" : "malformed inverted index for FTS5 table main.messages_fts_trigram";
        assertEquals(List.of(List.of(expected)), SqliteFiles.rows(db, "PRAGMA integrity_check"));
        assertEquals(List.of(), SqliteFiles.rows(db, "PRAGMA foreign_key_check"));
        List<String> fullText = SqliteFiles.rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'"
                + " AND name IN ('messages_fts', 'messages_fts_trigram') ORDER BY name").stream()
                .map(row -> (String) row.get(0)).toList();
        assertFalse(fullText.isEmpty());
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
            // FTS5 reports a damaged index by failing this command; run it without keeping anything
            statement.execute("BEGIN");
            try {
                for (String table : fullText) {
                    String check = "INSERT INTO " + table + "(" + table + ") VALUES ('integrity-check')";
                    if (table.equals("messages_fts_trigram") && !trigramRowsOutOfStep.isEmpty()) {
                        SQLException e = assertThrows(SQLException.class, () -> statement.execute(check));
                        assertTrue(e.getMessage().contains("SQLITE_CORRUPT_VTAB"), e.getMessage());
                    } else {
                        statement.execute(check);
                    }
                }
                if (!trigramRowsOutOfStep.isEmpty()) {
                    statement.execute("CREATE VIRTUAL TABLE temp.rebuilt USING fts5(content, tokenize='trigram')");
                    statement.execute("INSERT INTO temp.rebuilt(rowid, content) SELECT rowid, content FROM messages_fts_trigram");
                    statement.execute("INSERT INTO temp.rebuilt(rebuilt) VALUES ('integrity-check')");
                    statement.execute("CREATE VIRTUAL TABLE temp.stored_terms USING fts5vocab(main, messages_fts_trigram, instance)");
                    statement.execute("CREATE VIRTUAL TABLE temp.rebuilt_terms USING fts5vocab(temp, rebuilt, instance)");
                    assertEquals(new TreeSet<>(trigramRowsOutOfStep), longs(dev.hermes.state.testsupport.SqliteFiles.query(connection, "SELECT doc FROM (SELECT doc, term, col, offset"
                            + " FROM temp.rebuilt_terms EXCEPT SELECT doc, term, col, offset FROM temp.stored_terms) UNION"
                            + " SELECT doc FROM (SELECT doc, term, col, offset FROM temp.stored_terms EXCEPT"
                            + " SELECT doc, term, col, offset FROM temp.rebuilt_terms)")));
                    assertEquals(new TreeSet<>(trigramRowsOutOfStep), longs(dev.hermes.state.testsupport.SqliteFiles.query(connection,
                            "SELECT id FROM messages WHERE hex(substr(CAST(content AS BLOB), 1, 1)) = '00'")));
                }
            } finally {
                statement.execute("ROLLBACK");
            }
        }
    }

    static Map<String, List<String>> ftsAnswers(Path db) throws SQLException {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        for (String query : HermesFixture.RAW_FTS_ANSWERS.keySet()) {
            answers.put(query, SqliteDb.ftsMatches(db, query));
        }
        return answers;
    }

    private static Set<Long> longs(List<List<Object>> rows) {
        Set<Long> values = new TreeSet<>();
        rows.forEach(row -> values.add(((Number) row.get(0)).longValue()));
        return values;
    }

    private Path mkdir(String name) throws Exception {
        return Files.createDirectories(dir.resolve(name));
    }

    private String nativeLibraryFolder(String name) throws Exception {
        return "-Dorg.sqlite.tmpdir=" + mkdir(name);
    }

    private static List<String> expectedAdopted(List<MigrationResult.AppliedChange> changeSets, HermesFixture fixture) {
        return changeSets.stream().filter(c -> fixture.alreadyHas(c.id(), c.version()))
                .map(MigrationResult.AppliedChange::id).toList();
    }

    private static List<String> expectedExecuted(List<MigrationResult.AppliedChange> changeSets, HermesFixture fixture) {
        return changeSets.stream().filter(c -> !fixture.alreadyHas(c.id(), c.version()))
                .map(MigrationResult.AppliedChange::id).toList();
    }

    private static Map<String, Long> expectedRowCounts(Map<String, Long> fileCounts, long changeSets) {
        Map<String, Long> counts = new TreeMap<>(fileCounts);
        counts.put("DATABASECHANGELOG", changeSets);
        counts.put("DATABASECHANGELOGLOCK", 1L);
        // hermes-state's own tables for conversation windows, created empty
        counts.put("hermes_state_window", 0L);
        counts.put("hermes_state_window_message", 0L);
        return counts;
    }

    private static Map<String, Long> rowCounts(Path db) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        for (List<Object> table : SqliteFiles.rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")) {
            counts.put((String) table.get(0), SqliteDb.count(db, (String) table.get(0)));
        }
        return counts;
    }

    private static long sum(Path db, String sessionsColumn) throws SQLException {
        return ((Number) SqliteFiles.single(db, "SELECT SUM(" + sessionsColumn + ") FROM sessions")).longValue();
    }

    /** The rows of {@code table} by id (as text), each as column name to value, for the given columns. */
    private static Map<String, Map<String, Object>> rowsById(Path db, String table, Set<String> columns) throws SQLException {
        List<String> names = columns.stream().sorted().toList();
        String list = names.stream().map(c -> '"' + c + '"').collect(Collectors.joining(", "));
        Map<String, Map<String, Object>> rows = new TreeMap<>();
        for (List<Object> row : SqliteFiles.rows(db, "SELECT " + list + " FROM " + table)) {
            Map<String, Object> values = new TreeMap<>();
            for (int i = 0; i < names.size(); i++) {
                values.put(names.get(i), row.get(i));
            }
            rows.put(String.valueOf(values.get("id")), values);
        }
        return rows;
    }

    private static void assertNewColumnsHoldDefaults(Path db, String table, Set<String> columnsBefore) throws SQLException {
        List<String> added = new ArrayList<>(SqliteDb.columns(db, table).keySet());
        added.removeAll(columnsBefore);
        for (String column : added) {
            String expected = ExpectedSchema.NON_NULL_DEFAULTS.getOrDefault(column, "NULL");
            assertEquals(List.of(List.of(expected)), SqliteFiles.rows(db,
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
