package dev.hermes.state.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Argument parsing and exit codes, in-process (the process-level tests are in integration-tests). */
class HermesStateCliTest {
    @TempDir
    Path dir;

    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HermesStateCli.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsEveryCommandAndExitsZero() {
        Result result = run("--help");
        assertEquals(0, result.exitCode());
        for (String command : new String[] {"migrate", "status", "sessions", "search", "stats", "rpc", "demo"}) {
            assertTrue(result.out().contains("\n  " + command + " "), command + " in:\n" + result.out());
        }
        // the benchmark is not in this jar: the root script runs it from its own, and the help says how
        assertFalse(result.out().contains("\n  bench "), result.out());
        assertTrue(result.out().contains("\n  hermes-state bench [--quick]   W1-W9 of BENCHMARK.md (more: bench --help)\n"),
                result.out());
    }

    @Test
    void everySubcommandAnswersHelpWithItsUsageAndExitsZero() {
        for (String[] args : new String[][] {
                {"sessions", "--help"}, {"sessions", "list", "--help"}, {"sessions", "prune", "-h"},
                {"search", "--help"}, {"migrate", "-h"}, {"rpc", "--help"}}) {
            Result result = run(args);
            String command = String.join(" ", args).replaceFirst(" -(-help|h)$", "");
            assertEquals(0, result.exitCode(), String.join(" ", args) + ": " + result.err());
            assertTrue(result.out().startsWith("Usage: hermes-state " + command), result.out());
            assertEquals("", result.err());
        }
    }

    @Test
    void noCommandIsAUsageError() {
        Result result = run();
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("Usage: hermes-state"), result.err());
    }

    @Test
    void unknownCommandsAndBadOptionValuesAreUsageErrors() {
        assertEquals(2, run("sesions", "list").exitCode());
        assertEquals(2, run("sessions", "list", "--limit", "abc").exitCode());
        assertEquals(2, run("sessions", "prune", "--min-messages", "many").exitCode(), "a count must be a number");
        assertEquals(2, run("sessions").exitCode());
    }

    @Test
    void aMissingDatabaseIsAUserErrorOnOneLine() {
        Path missing = dir.resolve("missing.db");
        for (String[] args : new String[][] {
                {"--db", missing.toString(), "sessions", "list"},
                {"sessions", "list", "--db", missing.toString()},
                {"--db", missing.toString(), "status"},
                {"--db", missing.toString(), "search", "docker"}}) {
            Result result = run(args);
            assertEquals(1, result.exitCode(), String.join(" ", args));
            assertEquals("hermes-state: No database file at " + missing + " (create one with: hermes-state --db "
                    + missing + " migrate)\n", result.err());
            assertEquals("", result.out());
        }
        assertFalse(Files.exists(missing), "reading commands never create the file");
    }

    @Test
    void writingCommandsRefuseReadOnly() {
        Result result = run("--db", dir.resolve("x.db").toString(), "--read-only", "migrate");
        assertEquals(1, result.exitCode());
        assertEquals("hermes-state: 'migrate' changes the database and cannot run with --read-only\n", result.err());
    }

    @Test
    void theCommandNameIsFoundAmongGlobalOptions() {
        assertEquals("sessions", HermesStateCli.commandName(new String[] {"--db", "x.db", "--json", "sessions", "list"}));
        assertEquals("rpc", HermesStateCli.commandName(new String[] {"--db=x.db", "rpc"}));
        assertEquals("search", HermesStateCli.commandName(new String[] {"--color", "never", "search", "sessions"}));
        assertNull(HermesStateCli.commandName(new String[] {"--help"}));
        assertNull(HermesStateCli.commandName(new String[] {"help", "sessions"}));
        assertNull(HermesStateCli.commandName(new String[] {"nonsense"}));
    }
}
