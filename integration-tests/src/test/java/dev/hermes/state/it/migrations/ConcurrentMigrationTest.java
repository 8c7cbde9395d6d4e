package dev.hermes.state.it.migrations;

import dev.hermes.state.migrations.MigrateCommand;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several migrators on one file at once (two threads, two JVMs): all succeed, exactly one does the
 * work, the changelog is recorded once, and the schema is right.
 */
class ConcurrentMigrationTest {
    @TempDir
    Path dir;

    @Test
    void twoThreadsCreatingTheSameNewFile() throws Exception {
        Path db = dir.resolve("store/state.db");
        List<MigrationResult> results = inTwoThreads(() -> Migrator.create().migrate(db));
        assertEquals(1, results.stream().filter(MigrationResult::created).count(), results.toString());
        assertEquals(1, results.stream().filter(MigrationResult::fastPath).count(), results.toString());
        assertRecordedOnce(db);
        assertEquals(List.of(), temporaryFiles(db.getParent()), "the loser's temporary file is gone");
    }

    @Test
    void twoThreadsAdoptingTheSameFile() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        List<MigrationResult> results = inTwoThreads(() -> Migrator.create().migrate(db));
        assertEquals(1, results.stream().filter(r -> r.executed().size() == 74).count(), results.toString());
        assertEquals(1, results.stream().filter(MigrationResult::fastPath).count(), results.toString());
        assertRecordedOnce(db);
    }

    @Test
    void twoProcessesCreatingTheSameNewFile() throws Exception {
        Path db = dir.resolve("store/state.db");
        List<String> outputs = inTwoProcesses(db);
        assertEquals(Set.of(db + ": created at schema version 17 (88 changesets run, 0 already present)",
                db + ": up to date at schema version 17"), Set.copyOf(outputs));
        assertRecordedOnce(db);
        assertEquals(List.of(), temporaryFiles(db.getParent()));
    }

    @Test
    void twoProcessesAdoptingTheSameFile() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        List<String> outputs = inTwoProcesses(db);
        assertEquals(Set.of(db + ": schema version 2 -> 17 (74 changesets run, 14 already present)",
                db + ": up to date at schema version 17"), Set.copyOf(outputs));
        assertRecordedOnce(db);
    }

    private static List<MigrationResult> inTwoThreads(Callable<MigrationResult> migration) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<MigrationResult>> futures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return migration.call();
                }));
            }
            List<MigrationResult> results = new ArrayList<>();
            for (Future<MigrationResult> future : futures) {
                results.add(future.get(120, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /** One runs the jar, the other MigrateCommand on the class path: both JVMs start at once. */
    private static List<String> inTwoProcesses(Path db) {
        try (ChildProcess first = MigrateJar.command(List.of(), "--db", db.toString()).start();
             ChildProcess second = Command.java(MigrateCommand.class, "--db", db.toString()).start()) {
            List<String> outputs = new ArrayList<>();
            for (ChildProcess process : List.of(first, second)) {
                ProcessResult result = process.finish(ChildProcess.DEFAULT_TIMEOUT);
                assertEquals(0, result.exitCode(), result.toString());
                assertEquals("", result.stderr());
                outputs.add(result.stdout().strip());
            }
            return outputs;
        }
    }

    private static void assertRecordedOnce(Path db) throws Exception {
        List<SqliteDb.ChangelogRow> changelog = SqliteDb.changelog(db);
        assertEquals(88, changelog.size());
        assertEquals(88, changelog.stream().map(SqliteDb.ChangelogRow::id).distinct().count());
        assertTrue(changelog.stream().allMatch(row -> row.orderExecuted() >= 1 && row.orderExecuted() <= 88));
        ExpectedSchema.assertVersion17(db, Set.of(), true);
    }

    /**
     * The new stores built aside ({@code .state.db.*}). A {@code -wal} and {@code -shm} may remain:
     * the loser's read-only look at the published file leaves them, as any read-only SQLite reader does.
     */
    private static List<Path> temporaryFiles(Path folder) throws Exception {
        try (var listing = Files.list(folder)) {
            return listing.filter(file -> file.getFileName().toString().startsWith(".")).toList();
        }
    }
}
