package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import dev.hermes.state.migrations.Migrator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Python agent must keep opening every file we migrated or created: its own start-up
 * statements (Python's sqlite3 module, the agent's pragmas, the SPEC's CREATE ... IF NOT EXISTS
 * script, its version query) accept the file and change neither its schema nor its data.
 */
class PythonAgentAcceptanceTest {
    /** What SessionDB.__init__ does at version 6, minus the migration branch (not taken at version 6). */
    private static final String AGENT_OPEN = """
            import json, sqlite3, sys
            conn = sqlite3.connect(sys.argv[1], check_same_thread=False, timeout=1.0, isolation_level=None)
            conn.row_factory = sqlite3.Row
            journal = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            conn.execute("PRAGMA foreign_keys=ON")
            cursor = conn.cursor()
            cursor.executescript(sys.argv[2])
            row = cursor.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
            version = row["version"] if row else None
            cursor.execute(sys.argv[3])
            cursor.executescript(sys.argv[4])
            sessions = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
            conn.close()
            print(json.dumps({"version": version, "journal_mode": journal, "sessions": sessions}))
            """;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsPython() {
        Python.requireSqlite3();
    }

    @ParameterizedTest
    @EnumSource(HermesFixture.class)
    void theAgentAcceptsAnAdoptedFileWithoutChangingIt(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        Migrator.create().migrate(db);
        assertAgentOpensUnchanged(db, 30);
    }

    @Test
    void theAgentAcceptsANewFileWithoutChangingIt() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        assertAgentOpensUnchanged(db, 0);
    }

    private static void assertAgentOpensUnchanged(Path db, int sessions) throws Exception {
        Map<String, String> schemaBefore = SqliteDb.master(db);
        Map<String, List<String>> dataBefore = SqliteDb.dump(db);

        ProcessResult python = Command.python("-c", AGENT_OPEN, db.toString(), ExpectedSchema.AGENT_STARTUP_SCRIPT,
                ExpectedSchema.AGENT_TITLE_INDEX, ExpectedSchema.AGENT_FTS_SCRIPT).run();
        assertEquals(0, python.exitCode(), python.toString());
        assertEquals("{\"version\": 6, \"journal_mode\": \"wal\", \"sessions\": " + sessions + "}\n", python.stdout());

        assertEquals(schemaBefore, SqliteDb.master(db), "the agent's start-up changed the schema");
        assertEquals(dataBefore, SqliteDb.dump(db), "the agent's start-up changed data");
        assertEquals(List.of(List.of(6)), SqliteDb.rows(db, "SELECT version FROM schema_version"));
        FixtureAdoptionTest.assertIntact(db);
    }
}
