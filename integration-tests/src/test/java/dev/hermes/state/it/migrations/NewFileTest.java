package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store created from nothing holds exactly version 17's schema (or version 6's, docs/behaviour.md#file-and-schema, when kept at 6),
 * owner-only, in WAL mode, and its full-text triggers keep the index in step with the messages.
 */
class NewFileTest {
    @TempDir
    Path dir;

    @Test
    void holdsExactlyTheSchemaOfVersionSeventeen() throws Exception {
        Path db = dir.resolve("home/.hermes/state.db");
        MigrationResult result = Migrator.create().migrate(db);

        assertTrue(result.created());
        assertFalse(result.fastPath());
        assertFalse(result.dryRun());
        assertEquals(0, result.fromVersion());
        assertEquals(17, result.toVersion());
        assertEquals(88, result.executed().size());
        assertEquals(List.of(), result.adopted());
        ExpectedSchema.assertVersion17(db, Set.of(), true);
        assertEquals(88, SqliteDb.changelog(db).size());
        assertTrue(SqliteDb.changelog(db).stream().allMatch(row -> row.execType().equals("EXECUTED")));
        assertEquals(List.of(List.of(1, 0)), SqliteFiles.rows(db, "SELECT ID, LOCKED FROM DATABASECHANGELOGLOCK"));
        assertEquals("ok", SqliteFiles.single(db, "PRAGMA integrity_check"));
        // every table empty but the version row and the bookkeeping
        assertEquals(List.of(List.of("schema_version", 1)), SqliteFiles.rows(db, "SELECT 'schema_version', count(*) FROM schema_version"));
        for (String table : List.of("sessions", "messages", "state_meta", "compression_locks", "messages_fts", "messages_fts_trigram")) {
            assertEquals(0L, SqliteDb.count(db, table), table);
        }
    }

    @Test
    void keptAtSixHoldsExactlyTheSpecSchemaAtVersionSix() throws Exception {
        Path db = dir.resolve("home/.hermes/state.db");
        MigrationResult result = Migrator.create().toVersion(6).migrate(db);

        assertTrue(result.created());
        assertEquals(0, result.fromVersion());
        assertEquals(6, result.toVersion());
        assertEquals(36, result.executed().size());
        assertEquals(List.of(), result.adopted());
        ExpectedSchema.assertVersion6(db, Set.of());
        assertEquals(36, SqliteDb.changelog(db).size());
        assertTrue(SqliteDb.changelog(db).stream().allMatch(row -> row.execType().equals("EXECUTED")));
        assertEquals(List.of(List.of(1, 0)), SqliteFiles.rows(db, "SELECT ID, LOCKED FROM DATABASECHANGELOGLOCK"));
        assertEquals("ok", SqliteFiles.single(db, "PRAGMA integrity_check"));
    }

    @Test
    void isOwnerOnlyWithItsFoldersWalAndSharedMemoryFiles() throws Exception {
        Path db = dir.resolve("home/.hermes/state.db");
        Migrator.create().migrate(db);
        assertEquals("rwx------", mode(dir.resolve("home")));
        assertEquals("rwx------", mode(dir.resolve("home/.hermes")));
        assertEquals("rw-------", mode(db));
        try (var listing = Files.list(db.getParent())) {
            assertEquals(List.of(db), listing.toList(), "nothing but the database: no temporary or -wal file left");
        }
        try (Connection connection = SqliteConnections.open(db, RetryPolicy.HERMES, false);
             Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1773133200.5)");
            assertEquals("rw-------", mode(Path.of(db + "-wal")));
            assertEquals("rw-------", mode(Path.of(db + "-shm")));
        }
    }

    @Test
    void connectionsFromSqliteFileSeeWalAndForeignKeys() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        for (boolean readOnly : new boolean[] {false, true}) {
            try (Connection connection = SqliteConnections.open(db, RetryPolicy.HERMES, readOnly)) {
                assertEquals(List.of(List.of("wal")), SqliteFiles.query(connection, "PRAGMA journal_mode"));
                assertEquals(List.of(List.of(1)), SqliteFiles.query(connection, "PRAGMA foreign_keys"));
            }
        }
        // the mode is in the file: a plain connection sees it too, as the Python agent does
        assertEquals("wal", SqliteFiles.single(db, "PRAGMA journal_mode"));
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 6})
    void ftsTriggersFollowInsertUpdateAndDelete(int version) throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().toVersion(version).migrate(db);
        try (Connection connection = SqliteConnections.open(db, RetryPolicy.HERMES, false);
             Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1773133200.5)");
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', ?, ?, 1773133201.25)")) {
                insert.setString(1, "user");
                insert.setString(2, "the zebra crossed the 数据库迁移 road");
                insert.executeUpdate();
                insert.setString(1, "assistant");
                insert.setString(2, "a quiet reply");
                insert.executeUpdate();
            }
            assertEquals(List.of("1 (s1)"), matches(connection, "zebra"));
            assertEquals(List.of("1 (s1)"), matches(connection, "数据库迁移"));
            assertEquals(List.of("2 (s1)"), matches(connection, "quiet"));

            statement.execute("UPDATE messages SET content = 'the giraffe crossed instead' WHERE id = 1");
            assertEquals(List.of(), matches(connection, "zebra"));
            assertEquals(List.of("1 (s1)"), matches(connection, "giraffe"));

            statement.execute("DELETE FROM messages WHERE id = 1");
            assertEquals(List.of(), matches(connection, "giraffe"));
            assertEquals(List.of("2 (s1)"), matches(connection, "quiet"));
            statement.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')");
        }
        assertEquals(1L, SqliteDb.count(db, "messages_fts"));
    }

    /**
     * From version 17 on, both tables index a message's content, tool name and tool calls; the trigram
     * table finds a substring of three characters or more (Chinese, Japanese, Korean words too).
     */
    @Test
    void atSeventeenBothTablesIndexToolNamesAndCallsAndTheTrigramTableFindsSubstrings() throws Exception {
        Path db = dir.resolve("state.db");
        Migrator.create().migrate(db);
        try (Connection connection = SqliteConnections.open(db, RetryPolicy.HERMES, false);
             Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1773133200.5)");
            statement.execute("INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'assistant',"
                    + " '', '[{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"orrery_lookup\","
                    + " \"arguments\": \"{}\"}}]', 1773133201.25)");
            statement.execute("INSERT INTO messages (session_id, role, content, tool_name, tool_call_id, timestamp)"
                    + " VALUES ('s1', 'tool', '射电望远镜观测 done', 'orrery_lookup', 'c1', 1773133202.5)");
            for (String table : List.of("messages_fts", "messages_fts_trigram")) {
                assertEquals(List.of(List.of(1), List.of(2)), SqliteFiles.query(connection, "SELECT rowid FROM " + table
                        + " WHERE " + table + " MATCH '\"orrery_lookup\"' ORDER BY rowid"), table);
            }
            assertEquals(List.of(List.of(2)), SqliteFiles.query(connection,
                    "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '\"望远镜\"'"));
            assertEquals(List.of(), SqliteFiles.query(connection,
                    "SELECT rowid FROM messages_fts WHERE messages_fts MATCH '望远镜'"), "unicode61 keeps the run as one token");
            assertEquals(List.of(List.of("射电望远镜观测 done orrery_lookup ")),
                    SqliteFiles.query(connection, "SELECT content FROM messages_fts WHERE rowid = 2"), "what the row indexes");

            // a rewind (active = 0) re-indexes the row, as any update does; a delete removes it from both
            statement.execute("UPDATE messages SET active = 0 WHERE id = 2");
            assertEquals(List.of(List.of(2)), SqliteFiles.query(connection,
                    "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '\"望远镜\"'"));
            statement.execute("DELETE FROM messages WHERE id = 2");
            for (String table : List.of("messages_fts", "messages_fts_trigram")) {
                assertEquals(List.of(List.of(1)), SqliteFiles.query(connection, "SELECT rowid FROM " + table + " ORDER BY rowid"));
                statement.execute("INSERT INTO " + table + "(" + table + ") VALUES ('integrity-check')");
            }
        }
    }

    private static List<String> matches(Connection connection, String query) throws SQLException {
        return SqliteFiles.query(connection, "SELECT m.id, m.session_id FROM messages_fts JOIN messages m"
                        + " ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? ORDER BY m.id", query)
                .stream().map(row -> row.get(0) + " (" + row.get(1) + ")").toList();
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
