package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input on the command line: exit code 1, exactly one clear line on stderr (no stack trace),
 * nothing on stdout, and the file byte-for-byte unchanged.
 */
class CliBadInputTest {
    @TempDir
    Path dir;

    /** A migrated copy of the v6 fixture: opening it read-write is the fast path and writes nothing. */
    private Path migratedV6(Cli cli) {
        Path db = Fixtures.copy("state-v6.db", dir);
        cli.run("--db", db.toString(), "migrate").ok();
        return db;
    }

    private static String failsUnchanged(Cli cli, Path db, String... args) {
        String before = Fixtures.sha256(db);
        String message = cli.run(args).userError(Cli.PROGRAM);
        assertEquals(before, Fixtures.sha256(db), "the file is unchanged after: " + String.join(" ", args));
        return message;
    }

    @Test
    void unknownSessionIdsAndAmbiguousPrefixes() {
        Cli cli = new Cli(dir);
        Path db = migratedV6(cli);
        String file = db.toString();
        assertEquals("hermes-state: No session with the id, id prefix or title 'no-such-session'",
                failsUnchanged(cli, db, "--db", file, "sessions", "show", "no-such-session"));
        assertEquals("hermes-state: No session with the id or id prefix 'no-such-session'",
                failsUnchanged(cli, db, "--db", file, "sessions", "delete", "no-such-session"));
        assertEquals("hermes-state: Session id prefix '20260310_09' is ambiguous: it matches 20260310_090000_8520da, "
                        + "20260310_090500_53bef4; type more of the id",
                failsUnchanged(cli, db, "--db", file, "sessions", "rename", "20260310_09", "x"));
        assertEquals("hermes-state: Session id prefix '2026' is ambiguous: it matches 20260310_090000_8520da, "
                        + "20260310_090500_53bef4, 20260310_113000_6c0e5a and more; type more of the id",
                failsUnchanged(cli, db, "--db", file, "sessions", "lineage", "2026"));
        assertEquals("hermes-state: No session with the id or id prefix '2026031_'",
                failsUnchanged(cli, db, "--db", file, "sessions", "end", "2026031_", "x"),
                "an underscore in a prefix is literal, not a LIKE wildcard");
    }

    @Test
    void badTitles() {
        Cli cli = new Cli(dir);
        Path db = migratedV6(cli);
        String tooLong = "t".repeat(101);
        assertEquals("hermes-state: Title too long (101 chars, max 100)",
                failsUnchanged(cli, db, "--db", db.toString(), "sessions", "rename", "20260311_133505_e8449c", tooLong));
        assertEquals("hermes-state: Title 'my project' is already in use by session 20260310_090000_8520da",
                failsUnchanged(cli, db, "--db", db.toString(), "sessions", "rename", "20260311_133505_e8449c", "my project"));
    }

    @Test
    void aFileFromANewerHermesIsRefusedReadWriteAndReadableReadOnly() throws Exception {
        Cli cli = new Cli(dir);
        Path db = Fixtures.copy("state-v6.db", dir);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE schema_version SET version = 7");
        }
        String message = failsUnchanged(cli, db, "--db", db.toString(), "sessions", "list");
        assertTrue(message.contains("7") && message.contains("6") && message.contains("read-only"), message);
        failsUnchanged(cli, db, "--db", db.toString(), "migrate");
        failsUnchanged(cli, db, "--db", db.toString(), "sessions", "rename", "20260311_133505_e8449c", "new");

        String before = Fixtures.sha256(db);
        assertEquals(26, cli.json("--db", db.toString(), "--read-only", "--json", "sessions", "list", "--limit", "50").size());
        assertTrue(cli.run("--db", db.toString(), "status").ok().stdout().contains("newer than version 6"));
        assertEquals(before, Fixtures.sha256(db));
    }

    /** status on a newer file says which version it is at and that no step will be applied, none "pending". */
    @Test
    void statusOfANewerFileSaysNothingWillBeApplied() throws Exception {
        Cli cli = new Cli(dir);
        Path python = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("python")));  // no step recorded
        Path adopted = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("adopted")));
        cli.run("--db", adopted.toString(), "migrate").ok();                                       // every step recorded
        for (Path db : List.of(python, adopted)) {
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                 Statement statement = connection.createStatement()) {
                statement.executeUpdate("UPDATE schema_version SET version = 9");
            }
            String before = Fixtures.sha256(db);
            List<String> lines = cli.run("--db", db.toString(), "status").ok().lines();
            assertTrue(lines.contains("Schema        version 9 (newer than version 6, the newest this hermes-state knows: "
                    + "use --read-only; it will not be migrated or written)"), String.join("\n", lines));
            assertTrue(lines.contains("Steps         none will be applied: the file is at version 9, past the 36 steps that "
                    + "build versions 1-6"), String.join("\n", lines));
            assertFalse(lines.stream().anyMatch(line -> line.toLowerCase(java.util.Locale.ROOT).contains("pending")),
                    "nothing pending: " + String.join("\n", lines));

            JsonNode status = cli.json("--db", db.toString(), "--json", "status");
            assertEquals(9, status.get("schema_version").asInt());
            assertEquals(6, status.get("latest_version").asInt());
            assertTrue(status.get("newer_than_latest").asBoolean(), status.toString());
            assertFalse(status.get("up_to_date").asBoolean());
            assertEquals(0, status.get("pending").size(), status.toString());
            assertEquals(db == adopted ? 36 : 0, status.get("applied").size(), "what the file has recorded: " + db);
            assertEquals(before, Fixtures.sha256(db));
        }
    }

    @Test
    void filesThatAreNotHermesDatabases() throws Exception {
        Cli cli = new Cli(dir);
        Path text = dir.resolve("notes.db");
        Files.writeString(text, "these are my notes, not a database\n".repeat(200), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(text, PosixFilePermissions.fromString("rw-------"));
        for (String[] args : new String[][] {{"sessions", "list"}, {"status"}, {"migrate"}, {"search", "notes"}, {"stats"}}) {
            String[] command = new String[args.length + 2];
            command[0] = "--db";
            command[1] = text.toString();
            System.arraycopy(args, 0, command, 2, args.length);
            String message = failsUnchanged(cli, text, command);
            assertTrue(message.contains("not a SQLite database"), message);
        }

        Path empty = dir.resolve("empty.db");
        Files.createFile(empty, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        assertTrue(failsUnchanged(cli, empty, "--db", empty.toString(), "sessions", "list").contains("empty"));

        Path other = dir.resolve("other.db");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + other);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)");
        }
        String message = failsUnchanged(cli, other, "--db", other.toString(), "sessions", "list");
        assertTrue(message.contains("not a Hermes session store"), message);
    }

    @Test
    void badValuesAreUserErrors() {
        Cli cli = new Cli(dir);
        Path db = migratedV6(cli);
        assertTrue(failsUnchanged(cli, db, "--db", db.toString(), "sessions", "list", "--limit", "-1").contains("-1"));
        assertTrue(failsUnchanged(cli, db, "--db", db.toString(), "sessions", "prune", "--older-than", "-3").contains("-3"));
        assertEquals("hermes-state: Give either a session ID or --source, not both",
                failsUnchanged(cli, db, "--db", db.toString(), "sessions", "export", "x", "--source", "cli"));
        assertEquals(2, cli.run("--db", db.toString(), "sessions", "list", "--limit", "ten").exitCode(), "a usage error");
    }
}
