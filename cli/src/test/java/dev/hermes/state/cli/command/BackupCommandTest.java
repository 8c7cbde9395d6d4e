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
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** backup on the command line: text and JSON, --incremental, and one line with exit code 1 for each refusal. */
class BackupCommandTest {
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
    void aBackupThenAnIncrementalOneAfterAWrite() throws Exception {
        Path db = Fixtures.copy("state-v17.db", dir);
        String before = Fixtures.sha256(db);
        Path target = dir.resolve("backup.db");
        Result full = run("--db", db.toString(), "backup", "--to", target.toString());
        assertEquals(0, full.code(), full.err());
        assertTrue(full.out().contains("Rows       43 sessions, 140 messages (8 tables)"), full.out());
        assertTrue(full.out().contains("Full text  messages_fts ok;"), full.out());
        assertEquals(before, Fixtures.sha256(db), "the store is read, never written (not even migrated)");

        Result again = run("--db", db.toString(), "backup", "--to", target.toString());
        assertEquals(1, again.code());
        assertEquals("hermes-state: " + target.toAbsolutePath() + " already exists: bring that backup up to date with"
                + " --incremental, or replace it with --force\n", again.err());

        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES"
                    + " ('20260310_090000_8520da', 'user', 'after the backup', 2000000000)");
            statement.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = '20260310_090000_8520da'");
        }
        Result incremental = run("--db", db.toString(), "--json", "backup", "--to", target.toString(), "--incremental");
        assertEquals(0, incremental.code(), incremental.err());
        assertTrue(incremental.out().contains("\"incremental\":true"), incremental.out());
        assertTrue(incremental.out().contains("\"messages\":141"), incremental.out());
        assertTrue(incremental.out().contains("\"changes\":{\"sessions_added\":0,\"sessions_updated\":1,\"sessions_removed\":0,"
                + "\"messages_added\":1,\"messages_updated\":0,\"messages_removed\":0,\"full_comparison\":false,"
                + "\"rows_examined\":"), incremental.out());
        assertTrue(incremental.out().contains("\"messages_fts\":\"not checked (--verify full)\""), incremental.out());
        Result fresh = run("--db", db.toString(), "--json", "backup", "--to", dir.resolve("fresh.db").toString());
        assertEquals(checksum(fresh.out()), checksum(incremental.out()));

        Result verified = run("--db", db.toString(), "backup", "--to", target.toString(), "--incremental", "--verify", "full");
        assertEquals(0, verified.code(), verified.err());
        assertTrue(verified.out().contains("Verified   integrity ok, rows and checksum equal to the source's snapshot"), verified.out());
        assertTrue(verified.out().contains("Checksum   sha256 " + checksum(fresh.out())), verified.out());
    }

    @Test
    void refusalsAreOneLine() throws Exception {
        Path db = Fixtures.copy("state-v17.db", dir);
        Result itself = run("--db", db.toString(), "backup", "--to", db.toString(), "--force");
        assertEquals(1, itself.code());
        assertTrue(itself.err().startsWith("hermes-state: The backup's target ") && itself.err().lines().count() == 1,
                itself.err());
        Result both = run("--db", db.toString(), "backup", "--to", dir.resolve("b.db").toString(), "--force", "--incremental");
        assertEquals(1, both.code());
        assertEquals(1, both.err().lines().count(), both.err());
        Result verify = run("--db", db.toString(), "backup", "--to", dir.resolve("b.db").toString(), "--verify", "all");
        assertEquals(1, verify.code());
        assertEquals("hermes-state: --verify is 'changed' or 'full', not 'all'\n", verify.err());
        Result server = run("--db", "postgresql://localhost/none", "backup", "--to", dir.resolve("b.db").toString());
        assertEquals(1, server.code());
        assertTrue(server.err().contains("hermes-state copy --from <url> --to FILE"), server.err());
        assertFalse(Files.exists(dir.resolve("b.db")));
    }

    private static String checksum(String json) {
        int at = json.indexOf("\"checksum\":\"") + "\"checksum\":\"".length();
        return json.substring(at, at + 64);
    }
}
