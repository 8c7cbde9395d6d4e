package dev.hermes.state.bench.process;

import dev.hermes.state.cli.HermesStateCli;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * W6's child writes what a user's {@code hermes-state sessions export} writes, byte for byte, so the
 * benchmark times the same work the command does (every column, structured values decoded), on a file
 * today's agent made and on one it upgraded from schema 6.
 */
class ExportProcessTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"state-v17.db", "state-v17-upgraded.db"})
    void theChildsLinesAreTheCommandsExport(String fixture) throws Exception {
        Path store = Fixtures.copy(fixture, dir);
        Path command = dir.resolve("command.jsonl");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = HermesStateCli.run(new String[] {"--db", store.toString(), "sessions", "export", "--out", command.toString()},
                InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));

        Path child = dir.resolve("child.jsonl");
        Map<String, Object> report = ExportProcess.export(store.toString(), child);

        byte[] expected = Files.readAllBytes(command);
        List<String> lines = Files.readAllLines(child, StandardCharsets.UTF_8);
        assertTrue(lines.size() >= 30, "sessions exported: " + lines.size());
        assertTrue(lines.get(0).startsWith("{\"id\":\""), lines.get(0));
        assertArrayEquals(expected, Files.readAllBytes(child));
        assertEquals((long) lines.size(), report.get("sessions"));
    }
}
