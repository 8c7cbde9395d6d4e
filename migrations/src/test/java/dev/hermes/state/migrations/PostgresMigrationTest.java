package dev.hermes.state.migrations;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The migrator's PostgreSQL path on a real server: a new store, the fast path, Liquibase's agreement,
 * refusals, one transaction, and concurrent migrators (threads and processes).
 */
class PostgresMigrationTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private final Migrator migrator = Migrator.create();

    private PostgresLocation location() {
        return PostgresLocation.parse(postgres.url()).withSchema(postgres.schema());
    }

    @Test
    void aNewSchemaRunsEveryChangesetThenTakesTheFastPathAndLiquibaseAgrees() throws SQLException {
        MigrationResult created = migrator.migrate(location());
        assertTrue(created.created());
        assertFalse(created.fastPath());
        assertEquals(0, created.fromVersion());
        assertEquals(17, created.toVersion());
        assertEquals(Changelog.postgresqlChangeSets().stream().map(Changelog.ChangeSetRef::id).toList(),
                created.changes().stream().map(MigrationResult.AppliedChange::id).toList());
        // pg_trgm is one per database: another store (or an earlier test) may have created it already
        assertEquals(List.of(), created.changes().stream()
                .filter(change -> !change.executed() && !change.id().equals("v1-extension-pg-trgm")).toList());
        assertEquals(List.of(17L), column("SELECT version FROM " + postgres.schema() + ".schema_version"));

        MigrationResult again = migrator.migrate(location());
        assertTrue(again.fastPath());
        assertEquals(17, again.toVersion());
        assertEquals(List.of(), again.changes());
        assertTrue(migrator.dryRun(location()).fastPath());

        MigrationResult liquibase = migrator.checkWithLiquibase(location());
        assertFalse(liquibase.fastPath());
        assertEquals(List.of(), liquibase.changes());
        assertEquals(List.of((long) Changelog.postgresqlChangeSets().size()),
                column("SELECT count(*) FROM " + postgres.schema() + ".databasechangelog"));
    }

    @Test
    void aDryRunReportsEveryChangesetAndLeavesNoSchema() throws SQLException {
        MigrationResult dryRun = migrator.dryRun(location());
        assertTrue(dryRun.dryRun());
        assertEquals(0, dryRun.toVersion());
        assertEquals(Changelog.postgresqlChangeSets().size(), dryRun.changes().size());
        assertEquals(List.of(0L), column("SELECT count(*) FROM pg_namespace WHERE nspname = '" + postgres.schema() + "'"));
    }

    @Test
    void aFailedMigrationLeavesTheSchemaAsItWas() throws SQLException {
        // a blank schema (no table) that already holds a function of the changelog's name: Liquibase fails half-way
        execute("CREATE SCHEMA " + postgres.schema(),
                "CREATE FUNCTION " + postgres.schema() + ".messages_content_tsv(content text) RETURNS tsvector"
                        + " LANGUAGE sql IMMUTABLE AS 'SELECT NULL::tsvector'");
        HermesStateException failure = assertThrows(HermesStateException.class, () -> migrator.migrate(location()));
        assertTrue(failure.getMessage().contains("messages_content_tsv"), failure.getMessage());
        assertEquals(List.of(), column("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                + postgres.schema() + "'"), "no table, not even Liquibase's, survives the rollback");
    }

    @Test
    void refusesASchemaNewerThanVersionSeventeenAndLeavesItUnchanged() throws SQLException {
        migrator.migrate(location());
        execute("UPDATE " + postgres.schema() + ".schema_version SET version = 18");
        SchemaTooNewException tooNew = assertThrows(SchemaTooNewException.class, () -> migrator.migrate(location()));
        assertEquals(18, tooNew.fileVersion());
        assertEquals(17, tooNew.supportedVersion());
        assertThrows(SchemaTooNewException.class, () -> migrator.dryRun(location()));
        assertEquals(List.of(18L), column("SELECT version FROM " + postgres.schema() + ".schema_version"));
    }

    @Test
    void refusesASchemaHoldingAnotherApplicationsTables() throws SQLException {
        execute("CREATE SCHEMA " + postgres.schema(),
                "CREATE TABLE " + postgres.schema() + ".invocation_log (id bigint, line text)",
                "CREATE TABLE " + postgres.schema() + ".schema_version (version text)");
        NotAHermesDatabaseException refused = assertThrows(NotAHermesDatabaseException.class,
                () -> migrator.migrate(location()));
        assertEquals(location() + " holds the tables [invocation_log, schema_version] but no Hermes sessions table;"
                + " it was left unchanged. Choose another schema for the store.", refused.getMessage());
        assertEquals(List.of("invocation_log", "schema_version"), column("SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = '" + postgres.schema() + "' ORDER BY 1"));
    }

    @Test
    void anApplicationsConnectionKeepsItsAutoCommitAndSearchPath() throws SQLException {
        try (Connection connection = postgres.connect()) {
            connection.setAutoCommit(false);
            String searchPath = single(connection, "SHOW search_path");
            MigrationResult result = migrator.migrate(connection, postgres.schema());
            assertTrue(result.created());
            assertFalse(connection.getAutoCommit());
            assertEquals(searchPath, single(connection, "SHOW search_path"));
            assertEquals("17", single(connection, "SELECT version FROM " + postgres.schema() + ".schema_version"));
            connection.rollback();
            assertTrue(migrator.migrate(connection, postgres.schema()).fastPath());
        }
        assertThrows(dev.hermes.state.InvalidArgumentException.class,
                () -> migrator.migrate(postgres.connect(), "Bad-Name"));
    }

    /** Given a PostgreSQL connection, the one-argument migrate (for DataSource-built stores) uses schema hermes. */
    @Test
    void aPostgresqlConnectionAloneMigratesSchemaHermes() throws SQLException {
        try (Connection connection = postgres.connect()) {
            assertEquals(17, migrator.migrate(connection).toVersion());
            assertTrue(migrator.migrate(connection).fastPath());
            assertEquals("17", single(connection, "SELECT version FROM hermes.schema_version"));
        } finally {
            execute("DROP SCHEMA IF EXISTS hermes CASCADE");
        }
    }

    /** Four threads migrate one new schema and one more another, at once: all succeed, one of each creates. */
    @Test
    void concurrentMigratorsQueueOnTheAdvisoryLock() throws Exception {
        String other = postgres.schema() + "_b";
        try {
            List<Callable<MigrationResult>> runs = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < 5; i++) {
                PostgresLocation target = i < 4 ? location() : location().withSchema(other);
                runs.add(() -> {
                    start.await();
                    return migrator.migrate(target);
                });
            }
            ExecutorService threads = Executors.newFixedThreadPool(runs.size());
            try {
                List<Future<MigrationResult>> results = new ArrayList<>();
                for (Callable<MigrationResult> run : runs) {
                    results.add(threads.submit(run));
                }
                start.countDown();
                int creators = 0;
                for (int i = 0; i < 4; i++) {
                    MigrationResult result = results.get(i).get();
                    assertEquals(17, result.toVersion());
                    creators += result.fastPath() ? 0 : 1;
                }
                assertEquals(1, creators, "the others find the schema up to date once they hold the lock");
                assertTrue(results.get(4).get().created());
            } finally {
                threads.shutdownNow();
            }
            for (String schema : List.of(postgres.schema(), other)) {
                assertEquals(List.of(17L), column("SELECT version FROM " + schema + ".schema_version"));
                assertEquals(List.of((long) Changelog.postgresqlChangeSets().size()),
                        column("SELECT count(DISTINCT id) FROM " + schema + ".databasechangelog"));
            }
        } finally {
            execute("DROP SCHEMA IF EXISTS " + other + " CASCADE");
        }
    }

    /** While another session holds the migration lock, a migrator waits on it (seen by the server) and then runs. */
    @Test
    void aMigratorWaitsForTheLockAnotherSessionHolds() throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection holder = postgres.connect()) {
            single(holder, "SELECT pg_advisory_lock(" + PostgresMigration.LOCK_KEY + ")");
            Future<MigrationResult> waiting = thread.submit(() -> migrator.migrate(location()));
            String waitingApplications = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hermes-state'"
                    + " AND wait_event_type = 'Lock' AND wait_event = 'advisory' AND datname = current_database()";
            while (!single(holder, waitingApplications).equals("1")) {
                assertFalse(waiting.isDone(), () -> "the migrator did not wait: " + outcome(waiting));
                Thread.sleep(20);
            }
            assertEquals("0", single(holder, "SELECT count(*) FROM pg_namespace WHERE nspname = '"
                    + postgres.schema() + "'"), "nothing is created before the lock is granted");
            single(holder, "SELECT pg_advisory_unlock(" + PostgresMigration.LOCK_KEY + ")");
            assertTrue(waiting.get().created());
        } finally {
            thread.shutdownNow();
        }
    }

    /** Two migration-only runs as separate JVMs on one new schema: both succeed, one creates it. */
    @Test
    void twoMigrationProcessesAtOnce() throws Exception {
        List<Process> processes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            processes.add(new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                    MigrateCommand.class.getName(), "--db", postgres.url(), "--schema", postgres.schema())
                    .redirectErrorStream(true).start());
        }
        List<String> lines = new ArrayList<>();
        for (Process process : processes) {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals(0, process.waitFor(), output);
            assertFalse(output.contains(postgres.password()), output);
            lines.add(output);
        }
        String name = location().toString();
        lines.sort(null);
        assertTrue(lines.get(0).startsWith(name + ": created at schema version 17 ("), lines.get(0));
        assertEquals(name + ": up to date at schema version 17", lines.get(1));
    }

    @Test
    void theMigrationOnlyRunTakesAUrlAndASchema() throws SQLException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"--db", postgres.url(), "--schema", postgres.schema()};
        assertEquals(0, MigrateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals(0, MigrateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.endsWith(location() + ": up to date at schema version 17\n"), printed);
        assertFalse(printed.contains(postgres.password()), printed);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertEquals(2, MigrateCommand.run(new String[] {"--db", "state.db", "--schema", "x"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String outcome(Future<MigrationResult> done) {
        try {
            return String.valueOf(done.get());
        } catch (Exception e) {
            return e.toString();
        }
    }

    private void execute(String... statements) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private List<Object> column(String sql) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            List<Object> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getObject(1));
            }
            return values;
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }
}
