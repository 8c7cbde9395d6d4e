package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Liquibase lock left by a killed process (LOCKED = 1 with a TEXT date, which Liquibase itself
 * chokes on after waiting) does not wedge the next migration.
 */
class StaleLockTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120) // guards against a hang: a wedged lock would make Liquibase wait for minutes
    void aLockLeftByAKilledLiquibaseRunIsClearedByTheNextMigration() throws Exception {
        Path db = HermesFixture.V2.copyInto(dir);
        leaveStaleLock(db);
        List<Object> lock = SqliteFiles.rows(db, "SELECT ID, LOCKED, typeof(LOCKGRANTED), LOCKEDBY IS NOT NULL"
                + " FROM DATABASECHANGELOGLOCK").get(0);
        assertEquals(Arrays.asList(1, 1, "text", 1), lock, "the row a killed run leaves behind");

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(2, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(74, result.executed().size());
        assertEquals(List.of(Arrays.asList(1, 0, null, null)),
                SqliteFiles.rows(db, "SELECT ID, LOCKED, LOCKGRANTED, LOCKEDBY FROM DATABASECHANGELOGLOCK"));
        ExpectedSchema.assertVersion17(db, java.util.Set.of(), true);
    }

    @Test
    @Timeout(120)
    void aStaleLockOnAnUpToDateFileDoesNotMatterToTheFastPath() throws Exception {
        Path db = HermesFixture.V5.copyInto(dir);
        Migrator.create().migrate(db);
        leaveStaleLock(db);
        MigrationResult again = Migrator.create().migrate(db);
        assertTrue(again.fastPath());
        assertFalse(again.created());
    }

    /** Runs {@link KilledLiquibaseRunChild} in another JVM and kills it (SIGKILL) once it holds the lock. */
    private static void leaveStaleLock(Path db) throws Exception {
        try (ChildProcess run = Command.java(KilledLiquibaseRunChild.class, db.toString()).start()) {
            String line = run.nextLine(ChildProcess.DEFAULT_TIMEOUT);
            assertEquals("locked", line, () -> "the Liquibase run did not take its lock: " + run.transcript());
            run.kill();
        }
        assertEquals(1, SqliteFiles.single(db, "SELECT LOCKED FROM DATABASECHANGELOGLOCK WHERE ID = 1"));
    }
}
