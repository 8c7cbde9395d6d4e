package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code copy} of a store larger than the heap it runs in: 1,000 sessions of 40 messages and one of
 * 10,000 (50,000 messages, about 32 MB of text) through the real command line in a JVM capped at
 * 16 MB of heap; killed in the middle, the target holds whole sessions only and {@code --append}
 * completes it to a byte-equal export; on a terminal the phases draw a progress bar.
 */
class CliCopyLargeStoreTest {
    private static final int SESSIONS = 1_000;
    private static final int MESSAGES_PER_SESSION = 40;
    private static final int HUGE_SESSION_MESSAGES = 10_000;
    private static final long ALL_SESSIONS = SESSIONS + 1;
    private static final long ALL_MESSAGES = (long) SESSIONS * MESSAGES_PER_SESSION + HUGE_SESSION_MESSAGES;
    private static final Duration LONG = Duration.ofMinutes(5);

    @TempDir
    static Path shared;
    private static Path source;

    @TempDir
    Path dir;

    @BeforeAll
    static void fillTheSource() throws Exception {
        source = shared.resolve("large.db");
        StateRepository.open(source).close();
        fill(source);
    }

    @Test
    void copiesFiftyThousandMessagesWithSixteenMegabytesOfHeap() {
        Path target = dir.resolve("copy.db");
        ProcessResult result = new Cli(dir).command(List.of("-Xmx16m"), "--json", "copy", "--from", source.toString(),
                "--to", target.toString()).run(LONG).ok();   // ok(): nothing on stderr, no progress bar without a terminal
        JsonNode report = json(result);
        assertEquals(ALL_SESSIONS, report.get("sessions_copied").asLong(), report.toString());
        assertEquals(ALL_MESSAGES, report.get("messages_copied").asLong());
        assertEquals(ALL_MESSAGES, report.get("source").get("messages").asLong());
        assertEquals(report.get("source"), report.get("target"));
        assertTrue(report.get("verified").asBoolean());
    }

    @Test
    void aKilledCopyLeavesWholeSessionsAndAppendCompletesIt() throws Exception {
        Cli cli = new Cli(dir);
        Path target = dir.resolve("copy.db");
        long copiedBeforeKill;
        try (ChildProcess copy = cli.command("copy", "--from", source.toString(), "--to", target.toString(), "--batch", "10")
                .start()) {
            copiedBeforeKill = awaitSessions(target, copy);
            assertTrue(copy.isAlive(), "still copying when killed: " + copy.transcript());
            copy.kill();
        }
        try (Connection connection = SqliteFiles.readWrite(target)) {
            long sessions = single(connection, "SELECT count(*) FROM sessions");
            assertTrue(sessions >= copiedBeforeKill && sessions < ALL_SESSIONS, sessions + " sessions after the kill");
            // whole sessions only: each has every message its source counts
            assertEquals(0, single(connection, "SELECT count(*) FROM sessions s WHERE message_count"
                    + " <> (SELECT count(*) FROM messages m WHERE m.session_id = s.id)"));
            assertEquals(single(connection, "SELECT SUM(message_count) FROM sessions"),
                    single(connection, "SELECT count(*) FROM messages"));
            try (Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')");
                try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                    check.next();
                    assertEquals("ok", check.getString(1));
                }
            }
        }

        assertEquals("hermes-state: The target already holds", cli.run("copy", "--from", source.toString(), "--to",
                target.toString()).userError(Cli.PROGRAM).replaceFirst(" \\d+ sessions.*", ""));
        JsonNode resumed = json(cli.command("--json", "copy", "--from", source.toString(), "--to", target.toString(),
                "--append").run(LONG).ok());
        long skipped = resumed.get("sessions_skipped").asLong();
        assertTrue(skipped >= copiedBeforeKill, resumed.toString());
        assertEquals(ALL_SESSIONS, skipped + resumed.get("sessions_copied").asLong());
        assertEquals(0, resumed.get("sessions_renumbered").asLong());
        assertEquals(ALL_SESSIONS, resumed.get("target_sessions_total").asLong());
        assertEquals(ALL_MESSAGES, resumed.get("target_messages_total").asLong());
        assertEquals(resumed.get("source"), resumed.get("target"));
        assertTrue(resumed.get("verified").asBoolean());

        String original = Fixtures.sha256(cli.command("--db", source.toString(), "sessions", "export").run(LONG).ok()
                .stdout().getBytes(StandardCharsets.UTF_8));
        String copied = Fixtures.sha256(cli.command("--db", target.toString(), "sessions", "export").run(LONG).ok()
                .stdout().getBytes(StandardCharsets.UTF_8));
        assertEquals(original, copied, "byte-equal exports");
    }

    /**
     * On a terminal (a pseudo-terminal from script(1)) a phase that outlasts the bar's delay draws its bar
     * on stderr, erased at its end: the copy of 50,000 messages always does; the checks before and after it
     * may end first on a quiet machine, and then draw nothing.
     */
    @Test
    void drawsAProgressBarOnATerminal() {
        Path target = dir.resolve("copy.db");
        Command copy = new Cli(dir).command("copy", "--from", source.toString(), "--to", target.toString());
        String commandLine = copy.argv().stream().map(arg -> "'" + arg.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        ProcessResult result = new Cli(dir).withEnvironment(Command.of("script", "-qec", commandLine, "/dev/null"))
                .run(LONG);
        assertEquals(0, result.exitCode(), result.toString());
        String screen = result.stdout();
        assertTrue(screen.contains("\rcopying  ["), "copying bar in: " + screen.substring(0, Math.min(400, screen.length())));
        for (String phase : List.of("checking", "verifying")) {
            assertEquals(screen.contains(phase + "  ["), screen.contains("\r" + phase + "  ["), phase + " bar drawn in place");
        }
        assertTrue(screen.contains("copying  [########################]  100%  1,001/1,001"), "the copy bar ends full");
        assertTrue(screen.contains("\r\u001B[Kcopied " + source + " -> " + target), "the last bar is erased before the report");
        assertTrue(screen.contains("verified: every session of the source is in the target, identical"));
    }

    /** Polls the target until the copy has committed some sessions; returns how many. */
    private static long awaitSessions(Path target, ChildProcess copy) throws Exception {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (System.nanoTime() < deadline && copy.isAlive()) {
            if (Files.exists(target)) {
                try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + target)) {
                    long sessions = single(connection, "SELECT count(*) FROM sessions");
                    if (sessions > 0) {
                        return sessions;
                    }
                } catch (SQLException notYetCreated) {
                    // the command is still creating the file's schema
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no session was copied: " + copy.transcript());
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static JsonNode json(ProcessResult result) {
        try {
            return Cli.JSON.readTree(result.stdout());
        } catch (Exception e) {
            throw new AssertionError("not one JSON document: " + result, e);
        }
    }

    /** The data, written straight with JDBC in one transaction (the copy is under test, not the append path). */
    private static void fill(Path file) throws SQLException {
        String filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore "
                .repeat(6);
        try (Connection connection = SqliteFiles.readWrite(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement session = connection.prepareStatement(
                    "INSERT INTO sessions (id, source, started_at, message_count) VALUES (?, 'cli', ?, ?)");
                 PreparedStatement message = connection.prepareStatement(
                         "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)")) {
                List<String> ids = new ArrayList<>();
                for (int s = 0; s < SESSIONS; s++) {
                    ids.add(String.format("bulk-%06d", s));
                }
                ids.add("huge");
                for (int s = 0; s < ids.size(); s++) {
                    String id = ids.get(s);
                    int messages = s < SESSIONS ? MESSAGES_PER_SESSION : HUGE_SESSION_MESSAGES;
                    session.setString(1, id);
                    session.setDouble(2, 1_773_000_000.0 + s);
                    session.setInt(3, messages);
                    session.executeUpdate();
                    for (int m = 0; m < messages; m++) {
                        message.setString(1, id);
                        message.setString(2, m % 2 == 0 ? "user" : "assistant");
                        message.setString(3, "message " + m + " of " + id + " " + filler);
                        message.setDouble(4, 1_773_000_000.0 + s + m / 100_000.0);
                        message.addBatch();
                    }
                    message.executeBatch();
                }
            }
            connection.commit();
        }
    }
}
