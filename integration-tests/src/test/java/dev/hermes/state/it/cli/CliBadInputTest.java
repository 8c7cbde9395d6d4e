package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
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
        setVersion(db, 18);
        assertEquals("hermes-state: Schema version 18 is newer than version 17, the newest this hermes-state knows; the file"
                + " was left unchanged. Upgrade hermes-state, or open the file read-only (--read-only).",
                failsUnchanged(cli, db, "--db", db.toString(), "sessions", "list"));
        failsUnchanged(cli, db, "--db", db.toString(), "migrate");
        failsUnchanged(cli, db, "--db", db.toString(), "sessions", "rename", "20260311_133505_e8449c", "new");

        String before = Fixtures.sha256(db);
        assertEquals(26, cli.json("--db", db.toString(), "--read-only", "--json", "sessions", "list", "--limit", "50").size());
        assertTrue(cli.run("--db", db.toString(), "status").ok().stdout().contains("newer than version 17"));
        assertEquals(before, Fixtures.sha256(db));

        // kept at 6, a file of version 7 is past the pin
        Path seven = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("seven")));
        setVersion(seven, 7);
        assertEquals("hermes-state: Schema version 7 is newer than version 6, the version this store keeps files at; the"
                + " file was left unchanged. Open it without keeping it at version 6, or read-only (--read-only).",
                failsUnchanged(cli, seven, "--db", seven.toString(), "--schema-version", "6", "sessions", "list"));
        failsUnchanged(cli, seven, "--db", seven.toString(), "--schema-version", "6", "migrate");
    }

    /** status on a newer file says which version it is at and that no step will be applied, none "pending". */
    @Test
    void statusOfANewerFileSaysNothingWillBeApplied() throws Exception {
        Cli cli = new Cli(dir);
        Path python = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("python")));  // no step recorded
        Path adopted = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("adopted")));
        cli.run("--db", adopted.toString(), "migrate").ok();                                       // every step recorded
        for (Path db : List.of(python, adopted)) {
            setVersion(db, 18);
            String before = Fixtures.sha256(db);
            List<String> lines = cli.run("--db", db.toString(), "status").ok().lines();
            assertTrue(lines.contains("Schema        version 18 (newer than version 17, the newest this hermes-state knows: "
                    + "use --read-only; it will not be migrated or written)"), String.join("\n", lines));
            assertTrue(lines.contains("Opening       read-only only: version 18 is past 17; a read-write open is refused and"
                    + " nothing is written"), String.join("\n", lines));
            assertTrue(lines.contains("Steps         none will be applied: the file is at version 18, past the 88 steps that "
                    + "build versions 1-17"), String.join("\n", lines));
            assertFalse(lines.stream().anyMatch(line -> line.toLowerCase(java.util.Locale.ROOT).contains("pending")),
                    "nothing pending: " + String.join("\n", lines));

            JsonNode status = cli.json("--db", db.toString(), "--json", "status");
            assertEquals(18, status.get("schema_version").asInt());
            assertEquals(17, status.get("latest_version").asInt());
            assertTrue(status.get("newer_than_latest").asBoolean(), status.toString());
            assertEquals("refused", status.get("read_write_open").asText(), status.toString());
            assertFalse(status.get("up_to_date").asBoolean());
            assertEquals(0, status.get("pending").size(), status.toString());
            assertEquals(db == adopted ? 88 : 0, status.get("applied").size(), "what the file has recorded: " + db);
            assertEquals(before, Fixtures.sha256(db));
        }
    }

    /** Kept at 6, a file of version 9 is past the pin: read-only, and the status says what the default would do. */
    @Test
    void statusUnderThePinSaysWhatTheDefaultWouldDo() throws Exception {
        Cli cli = new Cli(dir);
        Path db = Fixtures.copy("state-v6.db", dir);
        setVersion(db, 9);
        String before = Fixtures.sha256(db);
        List<String> pinned = cli.run("--db", db.toString(), "--schema-version", "6", "status").ok().lines();
        assertTrue(pinned.contains("Schema        version 9 (past version 6, which --schema-version keeps files at: use"
                + " --read-only, or open it without --schema-version 6)"), String.join("\n", pinned));
        assertTrue(pinned.contains("Opening       read-only only: version 9 is past 6 (kept at 6 by --schema-version); a"
                + " read-write open is refused and nothing is written; without --schema-version 6 a read-write open"
                + " brings it to 17"), String.join("\n", pinned));
        assertTrue(pinned.contains("Steps         none will be applied: the file is at version 9, past the 36 steps that "
                + "build versions 1-6"), String.join("\n", pinned));
        assertEquals("refused", cli.json("--db", db.toString(), "--schema-version", "6", "--json", "status")
                .get("read_write_open").asText());

        List<String> byDefault = cli.run("--db", db.toString(), "status").ok().lines();
        assertTrue(byDefault.contains("Schema        version 9 of 17: not yet adopted by hermes-state (run 'migrate'; existing"
                + " objects are recorded, data is untouched)"), String.join("\n", byDefault));
        assertTrue(byDefault.contains("Opening       read-write brings it from version 9 to 17 in one transaction (88 steps run"
                + " or recorded; an agent of version 17 then opens it unchanged); read-only reads it as it is"),
                String.join("\n", byDefault));
        assertEquals(before, Fixtures.sha256(db));
    }

    private static void setVersion(Path db, int version) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE schema_version SET version = " + version);
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
        try (Connection connection = SqliteFiles.readWrite(other);
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
