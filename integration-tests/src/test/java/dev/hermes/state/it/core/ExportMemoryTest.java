package dev.hermes.state.it.core;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming export holds one session at a time: 200,000 messages (5,000 sessions x 40, about
 * 60 MB of text) export to JSONL in a JVM whose heap is capped at 64 MB.
 */
class ExportMemoryTest {
    private static final System.Logger LOG = System.getLogger(ExportMemoryTest.class.getName());

    private static final int SESSIONS = 5_000;
    private static final int MESSAGES_PER_SESSION = 40;

    @TempDir
    Path dir;

    @Test
    void exportAllOf200kMessagesFitsIn64MbOfHeap() throws Exception {
        Path file = dir.resolve("state.db");
        StateRepository.open(file).close();
        fill(file);
        Path jsonl = dir.resolve("export.jsonl");
        long started = System.nanoTime();
        ProcessResult child = Command.java(List.of("-Xmx64m"), ExportAllChild.class, file.toString(), jsonl.toString())
                .run(Duration.ofMinutes(5));
        String output = child.stdout().strip();
        assertEquals(0, child.exitCode(), child.toString());
        String[] result = output.split(" ");
        assertEquals("EXPORTED", result[0], output);
        assertEquals(SESSIONS, Long.parseLong(result[1]));
        assertEquals((long) SESSIONS * MESSAGES_PER_SESSION, Long.parseLong(result[2]));
        long jsonlBytes = Files.size(jsonl);
        double seconds = (System.nanoTime() - started) / 1e9;
        LOG.log(System.Logger.Level.INFO, () -> String.format("exported %s sessions / %s messages, %d MB of JSONL, in %.1f s with -Xmx64m, peak RSS %d MB",
                result[1], result[2], jsonlBytes / 1_000_000, seconds, Long.parseLong(result[3]) / 1024));
        long lines = 0;
        String first = null;
        try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; lines++) {
                if (first == null) {
                    first = line;
                }
            }
        }
        assertEquals(SESSIONS, lines);
        assertTrue(first.startsWith("{\"id\":\"bulk-004999\""), "newest session first: " + first.substring(0, 40));
    }

    /** The data set, written straight with JDBC in one transaction (the export is under test, not the append path). */
    private static void fill(Path file) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement session = connection.prepareStatement(
                    "INSERT INTO sessions (id, source, started_at, message_count) VALUES (?, 'cli', ?, ?)");
                 PreparedStatement message = connection.prepareStatement(
                         "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                String filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore ".repeat(3);
                for (int s = 0; s < SESSIONS; s++) {
                    String id = String.format("bulk-%06d", s);
                    session.setString(1, id);
                    session.setDouble(2, 1_773_000_000.0 + s);
                    session.setInt(3, MESSAGES_PER_SESSION);
                    session.addBatch();
                    for (int m = 0; m < MESSAGES_PER_SESSION; m++) {
                        message.setString(1, id);
                        message.setString(2, m % 2 == 0 ? "user" : "assistant");
                        message.setString(3, "message " + m + " of " + id + " " + filler);
                        message.setDouble(4, 1_773_000_000.0 + s + m / 100.0);
                        message.addBatch();
                    }
                    if (s % 500 == 499) {
                        session.executeBatch();
                        message.executeBatch();
                    }
                }
            }
            connection.commit();
        }
    }
}
