package dev.hermes.state.it.cli;

import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ./hermes-state bench ...}: the root script hands {@code bench} and the options after it to
 * the benchmark's own jar. The script runs from a copy of the checkout's layout that holds only the
 * script and the two built jars, so that it finds nothing to build and runs exactly those jars.
 */
class BenchScriptTest {
    @TempDir
    Path checkout;
    private Path script;

    @BeforeEach
    void checkoutWithTheBuiltJarsOnly() throws IOException {
        Path root = Path.of(System.getProperty("hermes.repo.root", "..")).toAbsolutePath().normalize();
        script = Files.copy(root.resolve("hermes-state"), checkout.resolve("hermes-state"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        link(checkout.resolve("cli/target/hermes-state.jar"), Cli.jar());
        link(checkout.resolve("benchmarks/target/hermes-state-bench.jar"), benchJar());
    }

    private Command script(String... args) {
        List<String> argv = new ArrayList<>(List.of(script.toString()));
        argv.addAll(List.of(args));
        return new Cli(checkout).withEnvironment(Command.of(argv).withDirectory(checkout).withoutEnv("HERMES_STATE_JAVA_OPTS"));
    }

    private static void link(Path link, Path target) throws IOException {
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, target);
    }

    private static Path benchJar() {
        String property = System.getProperty("hermes.bench.jar");
        if (property == null) {
            fail("system property hermes.bench.jar is not set (run through Maven)");
        }
        Path jar = Path.of(property).toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(jar), "the benchmark jar must be built first: " + jar);
        return jar;
    }

    @Test
    void benchHelpIsTheBenchmarkJarsHelp() {
        for (String[] args : new String[][] {{"bench", "--help"}, {"help", "bench"}, {"--db", "x.db", "bench", "-h"}}) {
            ProcessResult result = script(args).run();
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals("", result.stderr(), result.toString());
            assertTrue(result.stdout().startsWith("Usage: hermes-state bench [-h] [--keep] [--quick]"), result.toString());
        }
    }

    @Test
    void theOptionsAfterBenchReachTheBenchmark() {
        ProcessResult result = script("bench", "--sessions", "10", "--messages", "1").run();
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals("bench: --sessions must be at least 120 and --messages at least 1 (got 10 and 1)\n", result.stderr());
    }

    @Test
    void theCommandsHelpSaysHowToRunTheBenchmark() {
        ProcessResult result = script("--help").run().ok();
        assertTrue(result.stdout().startsWith("Usage: hermes-state [-hV]"), result.stdout());
        assertTrue(result.stdout().contains("\n  hermes-state bench [--quick]   W1-W9 of BENCHMARK.md (more: bench --help)\n"),
                result.stdout());
    }

    /** The writer-scaling run from the packaged jar: its writer processes run the jar's own classes. */
    @Test
    void theWriterScalingRunRunsFromTheBenchmarkJar() throws Exception {
        Path db = checkout.resolve("writers.db");
        Path json = checkout.resolve("writers.json");
        ProcessResult result = script("bench", "writers", "--writers", "2", "--db", db.toString(), "--out", json.toString())
                .run();
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().lines().anyMatch(line -> line.matches(" {6}2 {7}4,000 {7}0 .* ok")), result.toString());
        com.fasterxml.jackson.databind.JsonNode round = Cli.JSON.readTree(json.toFile()).get("targets").get(0).get("rounds").get(0);
        assertEquals(4000, round.get("messages_in_store").asInt(), round.toString());
        assertTrue(round.get("nothing_lost").asBoolean());
    }
}
