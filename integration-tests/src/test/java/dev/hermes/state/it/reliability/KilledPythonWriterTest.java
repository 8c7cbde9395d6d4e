package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.it.cli.Cli;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Python agent's files are in rollback-journal mode until something switches them to WAL. An
 * agent killed (SIGKILL) in the middle of a write transaction leaves the file with some of that
 * transaction's pages already written and a hot {@code -journal} holding the originals. The next
 * read-write open must roll it back and serve the last committed state; a read-only open, which
 * cannot roll back, must say so (exit 1, one line) and change nothing.
 */
class KilledPythonWriterTest {
    /** Sessions and messages in every fixture (MANIFEST). */
    private static final long FIXTURE_SESSIONS = 30;

    private static final String WRITER = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            connection.execute("PRAGMA cache_size = 1")  # changed pages reach the file before the commit
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE messages SET content = 'overwritten by a transaction that never committed'")
            for i in range(300):
                connection.execute("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', 1)", ("uncommitted-%d" % i,))
            print("IN TRANSACTION", flush=True)
            time.sleep(600)
            """;

    @TempDir
    Path dir;

    @Test
    void aReadWriteOpenRollsBackWhatAKilledAgentLeftUnfinished() throws Exception {
        Python.requireSqlite3();
        Path db = Fixtures.copy("state-v6.db", dir);
        Map<String, Long> committed = StoreFiles.rowCounts(db);
        Path script = Files.writeString(dir.resolve("writer.py"), WRITER);

        try (ChildProcess agent = Command.python(script.toString(), db.toString()).start()) {
            assertTrue(agent.awaitLines(1, Duration.ofSeconds(60)), agent.transcript());
            agent.kill();
        }
        Path journal = Path.of(db + "-journal");
        assertTrue(Files.size(journal) > 0, "the killed agent left a hot journal");
        String before = Fixtures.sha256(db) + Fixtures.sha256(journal);

        Cli cli = new Cli(dir.resolve("hermes-home"));
        ProcessResult readOnly = cli.run("--db", db.toString(), "--read-only", "stats");
        readOnly.userError(Cli.PROGRAM);
        assertTrue(readOnly.stderr().contains("left unfinished"), readOnly.toString());
        assertEquals(before, Fixtures.sha256(db) + Fixtures.sha256(journal), "the read-only command wrote nothing");

        ProcessResult list = cli.run("--db", db.toString(), "--json", "sessions", "list", "--limit", "100");
        assertEquals(0, list.exitCode(), list.toString());
        // the read-write open migrates the file to 17: expected is the committed state migrated the same way
        Path reference = Fixtures.copy("state-v6.db", Files.createDirectories(dir.resolve("reference")));
        cli.run("--db", reference.toString(), "migrate").ok();
        Map<String, Long> expected = StoreFiles.rowCounts(reference);
        assertEquals(committed.get("messages"), expected.get("messages"));
        assertEquals(expected, StoreFiles.rowCounts(db), "the last committed state, nothing of the killed transaction");
        assertEquals(FIXTURE_SESSIONS, committed.get("sessions"));
        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertEquals("ok", StoreFiles.integrityCheck(connection));
            assertNull(StoreFiles.ftsIntegrityProblem(connection));
            assertEquals(List.of(), StoreFiles.counterMismatches(connection, 6), "the fixture's counters, by its agent's rules");
            assertEquals(0, StoreFiles.number(SqliteFiles.query(connection,
                    "SELECT count(*) FROM messages WHERE content LIKE '%never committed'").get(0).get(0)));
        }
    }
}
