package dev.hermes.state.it.cli;

import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start-up: on an up-to-date file, {@code sessions list} must take the migrator's fast path and never
 * start Liquibase (about a second of a cold JVM). Checked with the JVM's own class-loading log; the
 * control run (a migration) shows that the check sees Liquibase when it does start.
 */
class CliStartupTest {
    /** Classes that exist only once Liquibase runs (a few interfaces load earlier, when the migrator is verified). */
    private static final List<String> LIQUIBASE_RUNNING = List.of(" liquibase.Liquibase ", " liquibase.Scope ");

    @TempDir
    Path dir;

    private static boolean liquibaseStarted(Path classLog) throws Exception {
        String log = Files.readString(classLog);
        return LIQUIBASE_RUNNING.stream().anyMatch(log::contains);
    }

    private static List<String> classLog(Path file) {
        return List.of("-Xlog:class+load=info:file=" + file);
    }

    @Test
    void listingAnUpToDateFileDoesNotStartLiquibase() throws Exception {
        Cli cli = new Cli(dir);
        Path db = Fixtures.copy("state-v2.db", dir);

        Path migrateLog = dir.resolve("migrate.classes");
        cli.command(classLog(migrateLog), "--db", db.toString(), "migrate").run().ok();
        assertTrue(liquibaseStarted(migrateLog), "control: adopting a v2 file runs Liquibase");

        Path listLog = dir.resolve("list.classes");
        cli.command(classLog(listLog), "--db", db.toString(), "sessions", "list").run().ok();
        assertFalse(liquibaseStarted(listLog), "sessions list on an up-to-date file must not start Liquibase");

        Path searchLog = dir.resolve("search.classes");
        cli.command(classLog(searchLog), "--db", db.toString(), "--json", "search", "docker").run().ok();
        assertFalse(liquibaseStarted(searchLog), "nor does search");
    }
}
