package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code hermes-state copy --from SRC --to DST} as a real process: every fixture copied SQLite to
 * SQLite with verified counts and a byte-equal {@code sessions export}, the printed verification, the
 * refusal of a target that holds sessions, and one-line errors for bad sources and targets.
 */
class CliCopyTest {
    /** The content checksum of state-v6.db brought to 17 (the same on both sides of a verified copy). */
    private static final String V6_CHECKSUM = "2ede181ab42511cc78c8716f6b17e97cb8ded0e4f5efd165650787e21c03e658";

    @TempDir
    Path dir;

    /** The files of the version 1-6 data set (30 sessions, 95 messages), which the expectations below describe. */
    static List<String> fixtures() {
        return Fixtures.NAMES_V1_TO_V6;
    }

    private Path folder(String name) throws Exception {
        return Files.createDirectories(dir.resolve(name));
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void everyFixtureIsCopiedWithVerifiedCountsAndAByteEqualExport(String fixture) throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy(fixture, folder("source"));
        Path target = folder("target").resolve("copy.db");
        JsonNode report = cli.json("--json", "copy", "--from", source.toString(), "--to", target.toString(), "--batch", "7");
        assertEquals(30, report.get("sessions_copied").asLong(), report.toString());
        assertEquals(95, report.get("messages_copied").asLong());
        assertEquals(0, report.get("sessions_skipped").asLong());
        assertEquals(0, report.get("sessions_differing").asLong());
        assertEquals(30, report.get("source").get("sessions").asLong());
        assertEquals(95, report.get("source").get("messages").asLong());
        assertEquals(report.get("source"), report.get("target"));
        assertEquals(64, report.get("source").get("checksum").asText().length());
        assertEquals(30, report.get("target_sessions_total").asLong());
        assertEquals(95, report.get("target_messages_total").asLong());
        // the AUTOINCREMENT counter: ids 51 and 52 were deleted in the source, 97 is the largest ever used
        assertEquals(97, report.get("source_message_id_high_water").asLong());
        assertEquals(97, report.get("target_message_id_high_water").asLong());
        assertTrue(report.get("verified").asBoolean());

        String original = cli.run("--db", source.toString(), "sessions", "export").ok().stdout();
        String copied = cli.run("--db", target.toString(), "sessions", "export").ok().stdout();
        assertEquals(30, original.lines().count());
        assertEquals(original, copied, "byte-equal exports of " + fixture);
        JsonNode status = cli.json("--db", target.toString(), "--json", "status");
        assertEquals(17, status.get("schema_version").asInt());
        assertTrue(status.get("up_to_date").asBoolean());
    }

    /** Not on a terminal: no progress bar, nothing on stderr; the verification of both sides on stdout. */
    @Test
    void printsTheCountsAndChecksumsOfBothSides() throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy("state-v6.db", folder("source"));
        Path target = dir.resolve("copy.db");
        List<String> lines = cli.run("copy", "--from", source.toString(), "--to", target.toString()).ok().lines();
        assertEquals("copied " + source + " -> " + target, lines.get(0));
        assertTrue(lines.get(1).matches("30 sessions and 95 messages written in [\\d.]+ (ms|s) \\([\\d,]+ messages/s\\)"),
                lines.get(1));
        assertEquals(List.of("",
                "        sessions  messages  checksum",
                "source        30        95  " + V6_CHECKSUM,
                "target        30        95  " + V6_CHECKSUM,
                "",
                "verified: every session of the source is in the target, identical; new messages get ids after 97"),
                lines.subList(2, lines.size()));
    }

    @Test
    void aTargetWithSessionsIsRefusedUnlessAppending() throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy("state-v6.db", folder("source"));
        Path target = dir.resolve("copy.db");
        cli.run("copy", "--from", source.toString(), "--to", target.toString()).ok();
        String before = Fixtures.sha256(target);
        assertEquals("hermes-state: The target already holds 30 sessions and 95 messages: copy into an empty store, or"
                        + " add to this one (and resume an interrupted copy) with append (--append)",
                cli.run("copy", "--from", source.toString(), "--to", target.toString()).userError(Cli.PROGRAM));
        assertEquals(before, Fixtures.sha256(target));

        // append: every session is already there and is left as it is; the verification still holds
        JsonNode appended = cli.json("--json", "copy", "--from", source.toString(), "--to", target.toString(), "--append");
        assertEquals(0, appended.get("sessions_copied").asLong(), appended.toString());
        assertEquals(30, appended.get("sessions_skipped").asLong());
        assertEquals(30, appended.get("target_sessions_total").asLong());
        assertTrue(appended.get("verified").asBoolean());
    }

    @Test
    void badSourcesAndTargetsAreOneLineErrorsThatChangeNothing() throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy("state-v6.db", folder("source"));
        cli.run("--db", source.toString(), "migrate").ok();
        String src = source.toString();
        Path fresh = dir.resolve("fresh.db");

        Path missing = dir.resolve("missing.db");
        assertEquals("hermes-state: source: No database file at " + missing + " to copy from",
                cli.run("copy", "--from", missing.toString(), "--to", fresh.toString()).userError(Cli.PROGRAM));
        assertFalse(Files.exists(fresh), "no target is created for a source that is not there");

        String sourceBefore = Fixtures.sha256(source);
        assertEquals("hermes-state: The source and the target of a copy are the same store",
                cli.run("copy", "--from", src, "--to", src, "--append").userError(Cli.PROGRAM));
        Path link = dir.resolve("link.db");
        Files.createSymbolicLink(link, source);
        assertEquals("hermes-state: The source and the target of a copy are the same store",
                cli.run("copy", "--from", src, "--to", link.toString(), "--append").userError(Cli.PROGRAM));
        assertEquals(sourceBefore, Fixtures.sha256(source));

        Path notes = dir.resolve("notes.db");
        Files.writeString(notes, "these are my notes, not a database\n".repeat(200));
        String notesBefore = Fixtures.sha256(notes);
        assertEquals("hermes-state: target: " + notes + " is not a SQLite database (wrong file header)",
                cli.run("copy", "--from", src, "--to", notes.toString()).userError(Cli.PROGRAM));
        assertEquals("hermes-state: source: " + notes + " is not a SQLite database (wrong file header)",
                cli.run("copy", "--from", notes.toString(), "--to", fresh.toString()).userError(Cli.PROGRAM));
        assertEquals(notesBefore, Fixtures.sha256(notes));
        assertEquals("hermes-state: target: " + dir + " is a folder, not a database file",
                cli.run("copy", "--from", src, "--to", dir.toString()).userError(Cli.PROGRAM));

        Path newer = Fixtures.copy("state-v6.db", folder("newer"));
        try (Connection connection = SqliteFiles.readWrite(newer);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE schema_version SET version = 18");
            // a column of a later agent, with a value: what a copy would lose
            statement.executeUpdate("ALTER TABLE messages ADD COLUMN anthropic_content_blocks TEXT");
            statement.executeUpdate("UPDATE messages SET anthropic_content_blocks = '[]' WHERE id = 1");
        }
        String newerBefore = Fixtures.sha256(newer);
        assertEquals("hermes-state: The source " + newer + " is at schema version 18, newer than version 17, the newest"
                        + " this hermes-state knows; it was left unchanged. Upgrade hermes-state to copy it",
                cli.run("copy", "--from", newer.toString(), "--to", fresh.toString()).userError(Cli.PROGRAM));
        assertFalse(Files.exists(fresh));
        // read-only, a newer file opens with the columns it has: one this version does not know, holding a
        // value, would be dropped by a copy, so it is refused, and the new target is not left behind
        assertEquals("hermes-state: The source is at schema version 18, newer than version 17, the newest this"
                        + " hermes-state knows: a copy would leave out what the newer version stores. Upgrade"
                        + " hermes-state to copy it",
                cli.run("--read-only", "copy", "--from", newer.toString(), "--to", fresh.toString()).userError(Cli.PROGRAM));
        assertFalse(Files.exists(fresh));
        assertFalse(Files.exists(Path.of(fresh + "-wal")));
        assertEquals("hermes-state: The target " + newer + " is at schema version 18, newer than version 17, the newest"
                        + " this hermes-state knows; it was left unchanged. Upgrade hermes-state to copy into it",
                cli.run("copy", "--from", src, "--to", newer.toString(), "--append").userError(Cli.PROGRAM));
        assertEquals(newerBefore, Fixtures.sha256(newer));

        assertEquals("hermes-state: 'copy' takes the stores as --from and --to, not --db",
                cli.run("--db", src, "copy", "--from", src, "--to", fresh.toString()).userError(Cli.PROGRAM));
        ProcessResult usage = cli.run("copy", "--from", src);
        assertEquals(2, usage.exitCode(), usage.toString());
        assertTrue(usage.stderr().startsWith("Missing required option: '--to=DST'"), usage.stderr());
        assertEquals(sourceBefore, Fixtures.sha256(source));
    }

    /** The source is read whole before anything is written: what the target cannot hold stops the copy, named. */
    @Test
    void aSourceThatCannotBeCopiedExactlyIsRefusedBeforeAnythingIsWritten() throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy("state-v6.db", folder("source"));
        cli.run("--db", source.toString(), "migrate").ok();
        try (Connection connection = SqliteFiles.readWrite(source);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE messages SET content = CAST(x'6869C328' AS TEXT) WHERE id = 30");
        }
        Path target = dir.resolve("copy.db");
        assertEquals("hermes-state: Cannot copy message 30 of session 20260311_122852_b6ebb0: its content is not valid"
                        + " UTF-8 (byte 0xC3 at byte 2 of 4); copying it would change it. Nothing was copied; fix the value in"
                        + " the source (or delete the message) and copy again",
                cli.run("copy", "--from", source.toString(), "--to", target.toString()).userError(Cli.PROGRAM));
        assertFalse(Files.exists(target), "a refused copy leaves no new target behind");

        try (Connection connection = SqliteFiles.readWrite(source);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE messages SET content = 'fixed' WHERE id = 30");
            statement.executeUpdate("UPDATE sessions SET parent_session_id = 'ghost' WHERE id = '20260310_125900_7d739b'");
        }
        assertEquals("hermes-state: Cannot copy session 20260310_125900_7d739b: its parent_session_id names the parent"
                        + " session 'ghost', which is not in the source (the target refuses a parent that does not exist)."
                        + " Nothing was copied; fix the value in the source (or delete the session) and copy again",
                cli.run("copy", "--from", source.toString(), "--to", target.toString()).userError(Cli.PROGRAM));
        assertFalse(Files.exists(target), "a refused copy leaves no new target behind");
    }
}
