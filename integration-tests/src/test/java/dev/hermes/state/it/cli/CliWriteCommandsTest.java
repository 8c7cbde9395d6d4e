package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.it.cli.CliReadCommandsTest.DELEGATE;
import static dev.hermes.state.it.cli.CliReadCommandsTest.L2;
import static dev.hermes.state.it.cli.CliReadCommandsTest.ROOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands that change a file, as real processes on copies of the fixtures. */
class CliWriteCommandsTest {
    @TempDir
    Path dir;

    private Cli cli() {
        return new Cli(dir);
    }

    @Test
    void migrateAdoptsEveryPythonVersionAndIsThenUpToDate() throws Exception {
        Cli cli = cli();
        for (String fixture : List.of("state-v1.db", "state-v2.db", "state-v3-foreign.db", "state-v4.db", "state-v5.db")) {
            String db = Fixtures.copy(fixture, dir).toString();
            JsonNode migrated = cli.json("--db", db, "--json", "migrate");
            assertEquals(17, migrated.get("to_version").asInt(), fixture);
            assertFalse(migrated.get("up_to_date").asBoolean(), fixture);
            assertFalse(migrated.get("created").asBoolean(), fixture);
            assertTrue(migrated.get("changes").size() > 0, fixture);
        }
        String foreign = dir.resolve("state-v3-foreign.db").toString();
        JsonNode after = cli.json("--db", foreign, "--json", "status");
        assertTrue(after.get("up_to_date").asBoolean(), after.toString());
        assertEquals(17, after.get("schema_version").asInt());
        assertEquals(0, after.get("pending").size());
        assertEquals("wal", after.get("journal_mode").asText());
        assertEquals(30, after.get("sessions").asInt(), "data untouched");
        assertEquals(95, after.get("messages").asInt(), "data untouched");
        List<String> again = cli.run("--db", foreign, "migrate").ok().lines();
        assertTrue(again.get(0).startsWith(foreign + ": already up to date at schema version 17; nothing to do"), again.get(0));

        // kept at 6, an older file is brought to 6 and no further
        String kept = Fixtures.copy("state-v2.db", Files.createDirectories(dir.resolve("kept"))).toString();
        assertEquals(6, cli.json("--db", kept, "--schema-version", "6", "--json", "migrate").get("to_version").asInt());
        assertEquals(6, cli.json("--db", kept, "--schema-version", "6", "--json", "status").get("schema_version").asInt());
        assertTrue(cli.json("--db", kept, "--schema-version", "6", "--json", "status").get("up_to_date").asBoolean());
    }

    @Test
    void statusNeverWritesAndShowsWhatIsPending() {
        Path db = Fixtures.copy("state-v2.db", dir);
        String before = Fixtures.sha256(db);
        JsonNode status = cli().json("--db", db.toString(), "--json", "status");
        assertEquals(2, status.get("schema_version").asInt());
        assertFalse(status.get("up_to_date").asBoolean());
        assertFalse(status.get("newer_than_latest").asBoolean());
        assertEquals(88, status.get("pending").size(), "every step of versions 1-17 is to be recorded or run");
        assertEquals(0, status.get("applied").size());
        assertEquals(30, status.get("sessions").asInt());
        assertEquals(95, status.get("messages").asInt());
        List<String> lines = cli().run("--db", db.toString(), "status").ok().lines();
        assertTrue(lines.get(0).matches("File +" + db + " {2}\\(260\\.0 KB, -wal 0 B\\)"), lines.get(0));
        assertTrue(lines.get(1).matches("Schema +version 2 of 17: not yet adopted by hermes-state.*"), lines.get(1));
        assertTrue(lines.contains("Journal mode  delete"), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.matches("Pending +v1 \\(\\d+ steps\\), v2 .*v6 .*")), String.join("\n", lines));
        assertTrue(lines.contains("Sessions      30"), String.join("\n", lines));
        assertEquals(before, Fixtures.sha256(db));
        assertFalse(Files.exists(Path.of(db + "-wal")));
    }

    @Test
    void migrateDryRunPrintsTheSqlAndChangesNothing() {
        Path db = Fixtures.copy("state-v2.db", dir);
        String before = Fixtures.sha256(db);
        String out = cli().run("--db", db.toString(), "migrate", "--dry-run").ok().stdout();
        assertTrue(out.contains("ALTER TABLE sessions ADD COLUMN title TEXT;"), out);
        assertTrue(out.contains("CREATE UNIQUE INDEX"), out);
        assertTrue(out.contains("ALTER TABLE messages ADD COLUMN reasoning TEXT;"), out);
        assertTrue(out.contains("CREATE VIRTUAL TABLE messages_fts_trigram USING fts5("), out);
        assertTrue(out.contains("ALTER TABLE \"messages\" ADD COLUMN \"active\" INTEGER NOT NULL DEFAULT 1"), out);
        assertTrue(out.contains(": dry run, nothing written; would go from schema version 2 to 17"), out);
        assertEquals(before, Fixtures.sha256(db));

        Path fresh = dir.resolve("new").resolve("state.db");
        String plan = cli().run("--db", fresh.toString(), "migrate", "--dry-run").ok().stdout();
        assertTrue(plan.contains("CREATE TABLE"), plan);
        assertFalse(Files.exists(fresh), "a dry run creates nothing");
    }

    @Test
    void migrateCreatesANewOwnerOnlyFile() throws Exception {
        Path db = dir.resolve("fresh").resolve("state.db");
        JsonNode created = cli().json("--db", db.toString(), "--json", "migrate");
        assertTrue(created.get("created").asBoolean());
        assertEquals(17, created.get("to_version").asInt());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(db)));
        assertEquals(0, cli().json("--db", db.toString(), "--json", "stats").get("sessions").asInt());
    }

    @Test
    void renameEndAndDeleteChangeOneSession() {
        Cli cli = cli();
        String db = Fixtures.copy("state-v6.db", dir).toString();
        JsonNode renamed = cli.json("--db", db, "--json", "sessions", "rename", "20260311_1335", "  Trip\u200B  planning ");
        assertEquals("20260311_133505_e8449c", renamed.get("session_id").asText());
        assertEquals("Trip planning", renamed.get("title").asText(), "sanitized like Hermes");
        assertTrue(renamed.get("previous_title").isNull());
        assertEquals("Renamed 20260311_133505_e8449c: 'Trip planning' → 'Trip plans'",
                cli.run("--db", db, "sessions", "rename", "20260311_133505_e8449c", "Trip plans").ok().lines().get(0));
        assertEquals("Cleared the title of 20260311_133505_e8449c (was 'Trip plans')",
                cli.run("--db", db, "sessions", "rename", "20260311_133505_e8449c", "").ok().lines().get(0));

        JsonNode ended = cli.json("--db", db, "--json", "sessions", "end", "20260311_101426_eb04fb", "user_exit");
        assertTrue(ended.get("ended").asBoolean());
        assertEquals("user_exit", ended.get("end_reason").asText());
        assertTrue(ended.get("ended_at").isFloatingPointNumber());
        String again = cli.run("--db", db, "sessions", "end", "20260311_101426_eb04fb", "other").ok().lines().get(0);
        assertTrue(again.startsWith("20260311_101426_eb04fb was already ended "), again);
        assertTrue(again.endsWith("(user_exit); left unchanged"), again);

        JsonNode deleted = cli.json("--db", db, "--json", "sessions", "delete", ROOT);
        assertTrue(deleted.get("deleted").asBoolean());
        assertEquals(5, deleted.get("messages_deleted").asInt());
        assertEquals(2, deleted.get("children_orphaned").asInt(), "the delegate and the first continuation");
        JsonNode lineage = cli.json("--db", db, "--json", "sessions", "lineage", L2);
        assertEquals(L2, lineage.get("root_id").asText(), "a child of a deleted session becomes a root");
        JsonNode stats = cli.json("--db", db, "--json", "stats");
        assertEquals(29, stats.get("sessions").asInt());
        assertEquals(90, stats.get("messages").asInt());
        assertTrue(cli.json("--db", db, "--json", "sessions", "lineage", DELEGATE).get("sessions").size() == 1);
    }

    @Test
    void pruneDryRunListsAndPruneDeletesOnlyEndedSessions() {
        Cli cli = cli();
        Path db = Fixtures.copy("state-v6.db", dir);
        cli.run("--db", db.toString(), "migrate").ok();
        String before = Fixtures.sha256(db);
        JsonNode plan = cli.json("--db", db.toString(), "--json", "sessions", "prune", "--older-than", "0", "--dry-run");
        assertTrue(plan.get("dry_run").asBoolean());
        // 19 ended sessions, 4 of them in the "my project" compression lineage whose tip is live: the
        // lineage goes as one unit or not at all, so it stays whole
        assertEquals(15, plan.get("would_delete").asInt(), "the ended sessions of the fixture outside a live lineage");
        plan.get("sessions").forEach(session -> assertFalse(session.get("ended_at").isNull(), session.toString()));
        List<String> lines = cli.run("--db", db.toString(), "sessions", "prune", "--older-than", "0", "--dry-run",
                "--source", "telegram").ok().lines();
        assertEquals("Dry run: would delete 4 sessions and 11 messages; nothing was changed.", lines.get(lines.size() - 1));
        assertEquals(before, Fixtures.sha256(db), "a dry run writes nothing");

        assertEquals("Pruned 4 sessions and 11 messages (older-than 0, source telegram)",
                cli.run("--db", db.toString(), "sessions", "prune", "--older-than", "0", "--source", "telegram").ok().lines().get(0));
        JsonNode pruned = cli.json("--db", db.toString(), "--json", "sessions", "prune", "--older-than", "0", "--vacuum");
        assertEquals(11, pruned.get("deleted").asInt(), "the other ended sessions outside a live lineage");
        assertTrue(pruned.get("reclaimed_bytes").asLong() >= 0, pruned.toString());
        JsonNode left = cli.json("--db", db.toString(), "--json", "sessions", "list", "--all", "--limit", "50");
        assertEquals(15, left.size(), "live sessions are never pruned, nor the lineage of a live one");
        left.forEach(session -> assertTrue(session.get("ended_at").isNull()
                || session.get("id").asText().startsWith("20260310_"), session.toString()));
    }

    @Test
    void exportStreamsOneSessionPerLine() throws Exception {
        Cli cli = cli();
        String db = Fixtures.copy("state-v6.db", dir).toString();
        Path out = dir.resolve("export.jsonl");
        assertEquals("Exported 30 sessions (95 messages) to " + out,
                cli.run("--db", db, "sessions", "export", "--out", out.toString()).ok().lines().get(0));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(30, lines.size());
        int messages = 0;
        List<String> ids = new ArrayList<>();
        for (String line : lines) {
            JsonNode session = Cli.JSON.readTree(line);
            ids.add(session.get("id").asText());
            messages += session.get("messages").size();
            if (session.get("id").asText().equals("20260312_091723_9a58a3")) {
                String big = null;
                for (JsonNode message : session.get("messages")) {
                    if (message.get("id").asLong() == 55) {
                        big = message.get("content").asText();
                    }
                }
                assertTrue(big != null && big.length() == 102_400 && big.contains("ENDMARKER_7f3a tail of build log"),
                        "message 55 whole");
            }
        }
        assertEquals(95, messages);
        assertEquals(30, ids.stream().distinct().count());
        assertEquals("20260315_124812_eeef83", ids.get(0), "newest first");

        List<String> one = cli.run("--db", db, "sessions", "export", "my project").ok().lines();
        assertEquals(1, one.size());
        assertEquals("20260310_135900_0957cb", Cli.JSON.readTree(one.get(0)).get("id").asText());
        List<String> telegram = cli.run("--db", db, "sessions", "export", "--source", "telegram").ok().lines();
        assertEquals(6, telegram.size());
        assertNotEquals(lines.get(0), telegram.get(0));
    }
}
