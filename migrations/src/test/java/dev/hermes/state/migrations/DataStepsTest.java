package dev.hermes.state.migrations;

import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a migration to 17 does to rows, against what the agent's own version-17 open did to the same files:
 * the delegate tagging of files below 16, and columns neither knows, which both keep with their values.
 */
class DataStepsTest {
    /** The agent's rewrite of a tagged row's model_config: json_set drops the spaces json.dumps wrote. */
    private static final String ORPHANED = "{\"temperature\":0.7,\"max_tokens\":8192,\"reasoning_effort\":\"medium\","
            + "\"_delegate_from\":\"__orphaned__\"}";

    @TempDir
    Path dir;

    /**
     * state-v17-upgraded.db is state-v6.db after the agent's own v17 open (and three operations that leave
     * model_config alone): every session's model_config reads the same here after our migration, i.e. the
     * same six untitled roots with a tool message are tagged '__orphaned__', with the same text.
     */
    @Test
    void aVersionSixFileGetsTheDelegateTagsExactlyAsTheAgentsOwnUpgradeGaveThem() throws Exception {
        Path db = Fixtures.copy("state-v6.db", dir);
        Map<String, String> before = modelConfigs(db);
        Path agents = Fixtures.copy("state-v17-upgraded.db", Files.createDirectory(dir.resolve("agent")));

        Migrator.create().migrate(db);

        Map<String, String> after = modelConfigs(db);
        assertEquals(modelConfigs(agents), after);
        Map<String, String> changed = new TreeMap<>();
        after.forEach((id, config) -> {
            if (!config.equals(before.get(id))) {
                changed.put(id, config);
            }
        });
        assertEquals(Map.of("20260312_091723_9a58a3", ORPHANED, "20260312_165644_c7084c", ORPHANED,
                "20260313_113149_7a0ee5", ORPHANED, "20260313_134515_754d10", ORPHANED, "20260313_155941_d69e91", ORPHANED,
                "20260314_082020_73b220", ORPHANED), changed);
        // the data set's delegate child has a parent that ended in 'compression': a continuation to the agent, not tagged
        assertEquals(before.get("20260310_090500_53bef4"), after.get("20260310_090500_53bef4"));
    }

    /**
     * Version 8's feature block has a real subagent child (tagged with its parent's id), and two untitled
     * roots with a tool message: the agent's open of state-v8.db tagged these and the six of the v6 data set.
     */
    @Test
    void aVersionEightFileGetsItsSubagentChildTaggedWithItsParent() throws Exception {
        Path db = Fixtures.copy("state-v8.db", dir);
        Map<String, String> before = modelConfigs(db);
        Migrator.create().migrate(db);
        Map<String, String> after = modelConfigs(db);
        Map<String, String> changed = new TreeMap<>();
        after.forEach((id, config) -> {
            if (!config.equals(before.get(id))) {
                changed.put(id, config);
            }
        });
        Map<String, String> expected = new TreeMap<>(Map.of("20260312_091723_9a58a3", ORPHANED,
                "20260312_165644_c7084c", ORPHANED, "20260313_113149_7a0ee5", ORPHANED, "20260313_134515_754d10", ORPHANED,
                "20260313_155941_d69e91", ORPHANED, "20260314_082020_73b220", ORPHANED,
                "20260401_083500_e4c1a1", "{\"temperature\":0.3,\"max_tokens\":4096,\"reasoning_effort\":\"high\","
                        + "\"_delegate_from\":\"20260401_083000_e4c1a0\"}",
                "20260402_110000_e4c1f9", "{\"_delegate_from\":\"__orphaned__\"}",
                "20260402_140000_e4c22c", "{\"_delegate_from\":\"__orphaned__\"}"));
        assertEquals(expected, changed);
    }

    /**
     * A model_config that is not JSON makes the agent's tagging statement fail, and the agent goes on
     * without it (its version-16 step ignores the error) and records version 17. The same here: a
     * malformed row among the children leaves both tagging steps out; among the roots, the children
     * are tagged and the roots are not (measured with the agent on these same edited copies).
     */
    @Test
    void aModelConfigThatIsNotJsonSkipsTheTaggingTheAgentSkipsAndTheMigrationStillSucceeds() throws Exception {
        Path child = Fixtures.copy("state-v6.db", Files.createDirectory(dir.resolve("child")));
        sql(child, "UPDATE sessions SET model_config = 'not json {' WHERE id = '20260310_090500_53bef4'");
        Map<String, String> before = modelConfigs(child);
        MigrationResult result = Migrator.create().migrate(child);
        assertEquals(17, result.toVersion());
        assertEquals(before, modelConfigs(child), "nothing tagged, the malformed text kept");
        assertEquals(List.of("MARK_RAN", "MARK_RAN"), query(child, "SELECT EXECTYPE FROM DATABASECHANGELOG"
                + " WHERE ID LIKE 'v16-tag-%' ORDER BY ORDEREXECUTED"));
        assertEquals(List.of("17"), query(child, "SELECT version FROM schema_version"));

        Path root = Fixtures.copy("state-v8.db", Files.createDirectory(dir.resolve("root")));
        sql(root, "UPDATE sessions SET model_config = 'not json {' WHERE id = '20260311_101426_eb04fb'");
        before = modelConfigs(root);
        assertEquals(17, Migrator.create().migrate(root).toVersion());
        Map<String, String> expected = new TreeMap<>(before);
        expected.put("20260401_083500_e4c1a1", "{\"temperature\":0.3,\"max_tokens\":4096,\"reasoning_effort\":\"high\","
                + "\"_delegate_from\":\"20260401_083000_e4c1a0\"}");
        assertEquals(expected, modelConfigs(root));
        assertEquals(List.of("EXECUTED", "MARK_RAN"), query(root, "SELECT EXECTYPE FROM DATABASECHANGELOG"
                + " WHERE ID LIKE 'v16-tag-%' ORDER BY ORDEREXECUTED"));
        assertTrue(Migrator.create().migrate(root).fastPath());
    }

    /**
     * Columns of neither schema survive with their values: messages.anthropic_content_blocks (in the
     * agent's schema from aaccaada2 to efcbbde48, so files opened in those days have it) and
     * sessions.handoff_pending (one day before handoff_state replaced it).
     */
    @Test
    void columnsNeitherSchemaKnowsAreKeptWithTheirValues() throws Exception {
        Path db = Fixtures.copy("state-v14.db", dir);
        sql(db, "ALTER TABLE messages ADD COLUMN anthropic_content_blocks TEXT",
                "UPDATE messages SET anthropic_content_blocks = '[{\"type\": \"text\", \"text\": \"block ' || id || '\"}]'"
                        + " WHERE role = 'assistant'",
                "ALTER TABLE sessions ADD COLUMN handoff_pending INTEGER DEFAULT 0",
                "UPDATE sessions SET handoff_pending = 1 WHERE id = '20260402_120000_e4c20a'");
        List<String> blocks = query(db, "SELECT id || ' ' || anthropic_content_blocks FROM messages"
                + " WHERE anthropic_content_blocks IS NOT NULL ORDER BY id");
        assertEquals(61, blocks.size());
        assertEquals("3 [{\"type\": \"text\", \"text\": \"block 3\"}]", blocks.get(0));

        MigrationResult result = Migrator.create().migrate(db);

        assertEquals(14, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(blocks, query(db, "SELECT id || ' ' || anthropic_content_blocks FROM messages"
                + " WHERE anthropic_content_blocks IS NOT NULL ORDER BY id"));
        assertEquals(List.of("20260402_120000_e4c20a 1"), query(db, "SELECT id || ' ' || handoff_pending FROM sessions"
                + " WHERE handoff_pending <> 0"));
        assertEquals(List.of("TEXT"), query(db, "SELECT type FROM pragma_table_info('messages') WHERE name = 'anthropic_content_blocks'"));
        assertEquals(List.of("20"), query(db, "SELECT count(*) FROM pragma_table_info('messages')"), "19 of version 17, and the unknown one");
        assertEquals(List.of("42"), query(db, "SELECT count(*) FROM pragma_table_info('sessions')"), "41 of version 17, and the unknown one");
        assertTrue(Migrator.create().migrate(db).fastPath(), "an unknown column does not make a file look unfinished");
    }

    private static Map<String, String> modelConfigs(Path db) throws SQLException {
        Map<String, String> configs = new TreeMap<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id, quote(model_config) FROM sessions")) {
            while (rows.next()) {
                String quoted = rows.getString(2);
                configs.put(rows.getString(1), quoted.equals("NULL") ? "NULL" : quoted.substring(1, quoted.length() - 1)
                        .replace("''", "'"));
            }
        }
        return configs;
    }

    private static void sql(Path db, String... statements) throws SQLException {
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static List<String> query(Path db, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = SqliteFiles.readWrite(db);
             Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
        return rows;
    }
}
