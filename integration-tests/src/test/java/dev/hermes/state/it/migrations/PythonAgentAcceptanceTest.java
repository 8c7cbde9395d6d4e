package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import dev.hermes.state.migrations.Migrator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.FieldSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Python agent must keep opening every file we migrated or created: its own start-up statements
 * (Python's sqlite3 module, the agent's pragmas, its schema as CREATE ... IF NOT EXISTS, its column
 * reconciliation, its version query) accept the file and change neither its schema nor its data. At
 * version 17 (the default) with the version-17 agent's statements; kept at 6 with the version-6 ones.
 */
class PythonAgentAcceptanceTest {
    /**
     * What the version-17 agent's open does when the file says 17 (no version-gated step runs): the
     * tables, then each missing column added, the indexes, the full-text tables and triggers. Prints
     * what it found and the columns it had to add (none, for a file at 17).
     */
    private static final String AGENT_V17_OPEN = """
            import json, sqlite3, sys
            conn = sqlite3.connect(sys.argv[1], check_same_thread=False, timeout=1.0, isolation_level=None)
            conn.row_factory = sqlite3.Row
            journal = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            conn.execute("PRAGMA foreign_keys=ON")
            cursor = conn.cursor()
            cursor.executescript(sys.argv[2])
            added = []
            for line in sys.argv[3].splitlines():
                table, column, declaration = line.split(" ", 2)
                present = {r["name"] for r in cursor.execute('SELECT name FROM pragma_table_info(?)', (table,))}
                if column not in present:
                    cursor.execute(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {declaration}')
                    added.append(table + "." + column)
            cursor.executescript(sys.argv[4])
            row = cursor.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
            version = row["version"] if row else None
            cursor.executescript(sys.argv[5])
            sessions = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
            conn.close()
            print(json.dumps({"version": version, "journal_mode": journal, "sessions": sessions, "added": added}))
            """;

    /** What SessionDB.__init__ does at version 6, minus the migration branch (not taken at version 6). */
    private static final String AGENT_V6_OPEN = """
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
    void theVersionSeventeenAgentAcceptsAnAdoptedFileWithoutChangingIt(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        Migrator.create().migrate(db);
        assertAgentOpensUnchanged(db, 17, SqliteDb.count(db, "sessions"));
        FixtureAdoptionTest.assertIntact(db, fixture.trigramRowsOutOfStep());
    }

    @Test
    void theVersionSeventeenAgentAcceptsANewFileWithoutChangingIt() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        assertAgentOpensUnchanged(db, 17, 0);
        FixtureAdoptionTest.assertIntact(db);
    }

    @ParameterizedTest
    @FieldSource("dev.hermes.state.it.migrations.HermesFixture#UP_TO_VERSION_6")
    void theVersionSixAgentAcceptsAFileKeptAtSixWithoutChangingIt(HermesFixture fixture) throws Exception {
        Path db = fixture.copyInto(dir);
        Migrator.create().toVersion(6).migrate(db);
        assertAgentOpensUnchanged(db, 6, 30);
        FixtureAdoptionTest.assertIntact(db);
    }

    @Test
    void theVersionSixAgentAcceptsANewFileKeptAtSixWithoutChangingIt() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().toVersion(6).migrate(db);
        assertAgentOpensUnchanged(db, 6, 0);
        FixtureAdoptionTest.assertIntact(db);
    }

    /** The version-17 statements written for this test are the schema: on an empty file they make version 17's objects. */
    @Test
    void theVersionSeventeenStatementsMakeTheVersionSeventeenSchema() throws Exception {
        Path db = dir.resolve("agent-made.db");
        ProcessResult python = Command.python("-c", """
                import sqlite3, sys
                conn = sqlite3.connect(sys.argv[1], isolation_level=None)
                conn.executescript(sys.argv[2] + sys.argv[3] + sys.argv[4])
                conn.execute("INSERT INTO schema_version (version) VALUES (17)")
                conn.close()
                """, db.toString(), ExpectedSchema.AGENT_V17_TABLES, ExpectedSchema.AGENT_V17_INDEXES,
                ExpectedSchema.AGENT_V17_FULL_TEXT).run();
        assertEquals(0, python.exitCode(), python.toString());
        ExpectedSchema.assertVersion17(db, Set.of(), false);
    }

    private static void assertAgentOpensUnchanged(Path db, int version, long sessions) throws Exception {
        Map<String, String> schemaBefore = SqliteDb.master(db);
        Map<String, List<String>> dataBefore = SqliteDb.dump(db);

        ProcessResult python = version == 17
                ? Command.python("-c", AGENT_V17_OPEN, db.toString(), ExpectedSchema.AGENT_V17_TABLES,
                        ExpectedSchema.V17_COLUMN_DECLARATIONS, ExpectedSchema.AGENT_V17_INDEXES,
                        ExpectedSchema.AGENT_V17_FULL_TEXT).run()
                : Command.python("-c", AGENT_V6_OPEN, db.toString(), ExpectedSchema.AGENT_V6_STARTUP_SCRIPT,
                        ExpectedSchema.AGENT_V6_TITLE_INDEX, ExpectedSchema.AGENT_V6_FTS_SCRIPT).run();
        assertEquals(0, python.exitCode(), python.toString());
        assertEquals("{\"version\": " + version + ", \"journal_mode\": \"wal\", \"sessions\": " + sessions
                + (version == 17 ? ", \"added\": []" : "") + "}\n", python.stdout());

        assertEquals(schemaBefore, SqliteDb.master(db), "the agent's start-up changed the schema");
        assertEquals(dataBefore, SqliteDb.dump(db), "the agent's start-up changed data");
        assertEquals(List.of(List.of(version)), SqliteFiles.rows(db, "SELECT version FROM schema_version"));
    }
}
