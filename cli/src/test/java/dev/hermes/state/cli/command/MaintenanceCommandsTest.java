package dev.hermes.state.cli.command;

import dev.hermes.state.cli.HermesStateCli;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** doctor, repair and recover on the command line: output, JSON, exit codes, one line per user error. */
class MaintenanceCommandsTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HermesStateCli.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void doctorExitsByTheGravestFindingAndRepairMendsIt() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        Result clean = run("--db", file.toString(), "doctor");
        assertEquals(0, clean.code(), clean.out());
        assertTrue(clean.out().endsWith("All checks passed.\n"), clean.out());

        try (Connection connection = SqliteFiles.readWrite(file);
             Statement statement = connection.createStatement()) {
            statement.execute("UPDATE sessions SET tool_call_count = tool_call_count + 1");
            statement.execute("DROP TRIGGER messages_fts_trigram_delete");
        }
        Result sick = run("--db", file.toString(), "--json", "doctor");
        assertEquals(MaintenanceCommands.ERRORS, sick.code(), sick.out());
        assertTrue(sick.out().contains("\"worst\":\"error\""), sick.out());
        assertTrue(sick.out().contains("\"code\":\"fts.trigger\",\"subject\":\"trigger messages_fts_trigram_delete\""), sick.out());
        assertTrue(sick.out().contains("\"code\":\"counters.tool_call_count\""), sick.out());

        Result dryRun = run("--db", file.toString(), "repair", "--dry-run");
        assertEquals(0, dryRun.code(), dryRun.err());
        assertTrue(dryRun.out().contains("would recount message_count and tool_call_count from the rows"), dryRun.out());
        assertEquals(MaintenanceCommands.ERRORS, run("--db", file.toString(), "doctor").code());

        Result repaired = run("--db", file.toString(), "repair");
        assertEquals(0, repaired.code(), repaired.out() + repaired.err());
        assertTrue(repaired.out().contains("backup: " + file + ".bak-"), repaired.out());
        assertEquals(0, run("--db", file.toString(), "doctor").code());
    }

    @Test
    void userErrorsAreOneLine() throws Exception {
        Path file = Fixtures.copy("state-v17.db", dir);
        Result missing = run("--db", dir.resolve("nothing.db").toString(), "doctor");
        assertEquals(1, missing.code());
        assertEquals(1, missing.err().lines().count(), missing.err());

        Path existing = dir.resolve("taken.db");
        Files.writeString(existing, "x");
        Result taken = run("recover", "--from", file.toString(), "--to", existing.toString());
        assertEquals(1, taken.code());
        assertEquals("hermes-state: --to " + existing + " already exists; recover writes into a new file only\n", taken.err());

        Result inspected = run("recover", "--from", file.toString(), "--to", dir.resolve("new.db").toString(), "--inspect-only");
        assertEquals(0, inspected.code(), inspected.err());
        assertTrue(inspected.out().contains("messages: 140 read of 140"), inspected.out());
        assertTrue(inspected.out().contains("\n  state_meta: 2 read, none lost\n  compression_locks: 1 read, none lost\n"),
                inspected.out());
        assertFalse(Files.exists(dir.resolve("new.db")));
    }
}
