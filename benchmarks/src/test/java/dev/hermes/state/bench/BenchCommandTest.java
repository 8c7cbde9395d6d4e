package dev.hermes.state.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark jar's command line, in-process: help, and arguments refused before anything runs. */
class BenchCommandTest {
    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpDescribesEveryOptionAndExitsZero() {
        for (String help : new String[] {"--help", "-h"}) {
            Result result = run(help);
            assertEquals(0, result.exitCode());
            assertEquals("", result.err());
            assertTrue(result.out().startsWith("Usage: hermes-state bench [-h] [--keep] [--quick] [--db=FILE|URL]"),
                    result.out());
            for (String option : new String[] {"--sessions=S", "--messages=M", "--quick", "--out=FILE", "--db=FILE|URL",
                    "--schema=NAME", "--keep"}) {
                assertTrue(result.out().contains("  " + option + " "), option + " in:\n" + result.out());
            }
            assertTrue(result.out().contains("-Dhermes.state.jar=cli/target/hermes-state.jar"), result.out());
        }
    }

    @Test
    void aWorkloadTooSmallToMeasureIsRefusedBeforeAnythingRuns() {
        Result result = run("--sessions", "10", "--messages", "1");
        assertEquals(2, result.exitCode());
        assertEquals("", result.out());
        assertEquals("bench: --sessions must be at least 120 and --messages at least 1 (got 10 and 1)\n", result.err());
    }

    @Test
    void unknownOptionsAndBadValuesAreUsageErrors() {
        Result unknown = run("--bogus");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().startsWith("Unknown option: '--bogus'\nUsage: hermes-state bench"), unknown.err());
        assertEquals(2, run("--sessions", "many").exitCode());
    }

    @Test
    void aSchemaWithoutAPostgresqlUrlIsAUsageError() {
        Result result = run("--quick", "--schema", "bench");
        assertEquals(2, result.exitCode());
        assertEquals("bench: --schema is for a PostgreSQL --db (postgresql://... or jdbc:postgresql://...)\n", result.err());
    }

    @Test
    void anExistingFileIsNeverWrittenInto(@TempDir Path folder) throws IOException {
        Path existing = Files.writeString(folder.resolve("state.db"), "");
        Result result = run("--quick", "--db", existing.toString());
        assertEquals(2, result.exitCode());
        assertEquals("bench: " + existing + " exists: the benchmark writes only into a new file\n", result.err());
        assertEquals("", Files.readString(existing));
    }

    @Test
    void aBadSchemaNameOrAnUnreachableServerNeverShowsThePassword() {
        Result badName = run("--quick", "--db", "postgresql://bench:s3cret-pw@127.0.0.1:1/db", "--schema", "Bad-Name");
        assertEquals(2, badName.exitCode());
        assertTrue(badName.err().startsWith("bench: Invalid schema name 'Bad-Name'"), badName.err());
        Result unreachable = run("--quick", "--db", "postgresql://bench:s3cret-pw@127.0.0.1:1/db");
        assertEquals(1, unreachable.exitCode());
        assertTrue(unreachable.err().startsWith("bench: failed: "), unreachable.err());
        assertTrue(unreachable.err().contains("postgresql://bench@127.0.0.1:1/db"), unreachable.err());
        for (Result result : List.of(badName, unreachable)) {
            assertFalse(result.err().contains("s3cret"), result.err());
            assertEquals("", result.out());
        }
    }
}
