package dev.hermes.state.it.migrations;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code migrate(Connection)}, for applications that own their DataSource: the connection comes
 * back with the auto-commit setting it had, whichever path the migration took.
 */
class ConnectionMigrationTest {
    @TempDir
    Path dir;

    @Test
    void autoCommitTrueStaysTrue() throws Exception {
        Path db = HermesFixture.V1.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertTrue(connection.getAutoCommit());
            MigrationResult result = Migrator.create().migrate(connection);
            assertEquals(1, result.fromVersion());
            assertEquals(17, result.toVersion());
            assertTrue(connection.getAutoCommit());

            assertTrue(Migrator.create().migrate(connection).fastPath());
            assertTrue(connection.getAutoCommit());
        }
        ExpectedSchema.assertVersion17(db, Set.of(), true);
        assertEquals("wal", SqliteFiles.single(db, "PRAGMA journal_mode"));
    }

    @Test
    void autoCommitFalseStaysFalseAndTheConnectionKeepsWorking() throws Exception {
        Path db = HermesFixture.V4.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(db)) {
            connection.setAutoCommit(false);
            MigrationResult result = Migrator.create().migrate(connection);
            assertEquals(70, result.executed().size());
            assertFalse(connection.getAutoCommit());

            assertTrue(Migrator.create().migrate(connection).fastPath());
            assertFalse(connection.getAutoCommit());

            try (Statement statement = connection.createStatement()) {
                statement.execute("UPDATE sessions SET title = 'renamed' WHERE id = '20260311_133505_e8449c'");
            }
            connection.commit();
        }
        ExpectedSchema.assertVersion17(db, Set.of(), true);
        assertEquals("renamed", SqliteFiles.single(db, "SELECT title FROM sessions WHERE id = '20260311_133505_e8449c'"));
    }

    @Test
    void keptAtSixThroughAConnection() throws Exception {
        Path db = HermesFixture.V4.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(db)) {
            MigrationResult result = Migrator.create().toVersion(6).migrate(connection);
            assertEquals(4, result.fromVersion());
            assertEquals(6, result.toVersion());
            assertEquals(18, result.executed().size());
            assertTrue(Migrator.create().toVersion(6).migrate(connection).fastPath());
        }
        ExpectedSchema.assertVersion6(db, Set.of());

        Path later = HermesFixture.V8.copyInto(Files.createDirectory(dir.resolve("v8")));
        try (Connection connection = SqliteFiles.readWrite(later)) {
            SchemaTooNewException e = assertThrows(SchemaTooNewException.class,
                    () -> Migrator.create().toVersion(6).migrate(connection));
            assertEquals(8, e.fileVersion());
            assertEquals(6, e.supportedVersion());
            assertTrue(connection.getAutoCommit());
        }
        assertEquals(Fixtures.originalSha256(HermesFixture.V8.fileName), Fixtures.sha256(later));
    }

    @Test
    void autoCommitIsRestoredWhenTheMigrationIsRefused() throws Exception {
        Path db = HermesFixture.V6.copyInto(dir);
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
            statement.execute("UPDATE schema_version SET version = 30");
            for (boolean autoCommit : new boolean[] {true, false}) {
                connection.setAutoCommit(autoCommit);
                assertThrows(SchemaTooNewException.class, () -> Migrator.create().migrate(connection));
                assertEquals(autoCommit, connection.getAutoCommit());
            }
        }
        assertEquals(List.of(List.of(30)), SqliteFiles.rows(db, "SELECT version FROM schema_version"));
    }
}
