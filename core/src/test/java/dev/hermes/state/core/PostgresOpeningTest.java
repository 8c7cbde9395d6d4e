package dev.hermes.state.core;

import com.zaxxer.hikari.HikariDataSource;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a PostgreSQL store opens when it must not migrate (read-only, or {@code migrate(false)}), and
 * a store on the application's own PostgreSQL pool (a lent DataSource): checked before any use,
 * typed one-line errors without the password, and nothing created by a store that may not write.
 */
class PostgresOpeningTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();
    @TempDir
    Path dir;

    private HikariDataSource applicationPool;

    @AfterEach
    void closePool() {
        if (applicationPool != null) {
            applicationPool.close();
        }
    }

    private StateRepository.Builder byUrl() {
        return StateRepository.builder().url(postgres.url()).schema(postgres.schema());
    }

    private HikariDataSource applicationPool() {
        applicationPool = new HikariDataSource();
        applicationPool.setJdbcUrl(postgres.jdbcUrl());
        applicationPool.setUsername(PostgresLocation.parse(postgres.url()).user());
        applicationPool.setPassword(postgres.password());
        applicationPool.setMaximumPoolSize(4);
        return applicationPool;
    }

    @Test
    void readOnlyOnAMissingSchemaIsATypedErrorAndCreatesNothing() throws SQLException {
        StateIOException missing = assertThrows(StateIOException.class, () -> byUrl().readOnly(true).build());
        assertTrue(missing.getMessage().contains(postgres.schema()), missing.getMessage());
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertFalse(missing.getMessage().contains(postgres.password()), missing.getMessage());
        assertFalse(missing.getMessage().contains("\n"), missing.getMessage());
        assertThrows(StateIOException.class, () -> byUrl().migrate(false).build());
        assertEquals(0, schemaCount());
    }

    @Test
    void readOnlyReadsWhatAReadWriteStoreWroteAndRefusesWrites() throws SQLException {
        try (StateRepository writer = byUrl().build()) {
            writer.createSession("s1", "cli");
            writer.appendMessage("s1", NewMessage.of("user", "hello from the writer"));
        }
        try (StateRepository reader = byUrl().readOnly(true).build()) {
            assertTrue(reader.isReadOnly());
            assertEquals(1, reader.messageCount("s1"));
            assertEquals("hello from the writer", reader.getMessages("s1").get(0).text());
            StateIOException refused = assertThrows(StateIOException.class, () -> reader.createSession("s2", "cli"));
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
        }
        assertEquals(1, queryLong("SELECT count(*) FROM " + postgres.schema() + ".sessions"));
    }

    @Test
    void anotherApplicationsSchemaIsNotAStore() throws SQLException {
        execute("CREATE SCHEMA " + postgres.schema(), "CREATE TABLE " + postgres.schema() + ".invoices (id int)");
        NotAHermesDatabaseException foreign = assertThrows(NotAHermesDatabaseException.class,
                () -> byUrl().readOnly(true).build());
        assertTrue(foreign.getMessage().contains("invoices"), foreign.getMessage());
        assertThrows(NotAHermesDatabaseException.class, () -> byUrl().migrate(false).build());
        assertEquals(1, queryLong("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = '" + postgres.schema() + "'"));
    }

    @Test
    void aStoreMissingVersionSixObjectsIsRefusedReadOnly() throws SQLException {
        byUrl().build().close();
        execute("DROP INDEX " + postgres.schema() + ".idx_messages_content_tsv");
        StateIOException incomplete = assertThrows(StateIOException.class, () -> byUrl().readOnly(true).build());
        assertTrue(incomplete.getMessage().contains("idx_messages_content_tsv"), incomplete.getMessage());
        assertTrue(incomplete.getMessage().contains("open it read-write once"), incomplete.getMessage());
        // the migrator does not repair a store whose recorded changesets' objects were dropped by hand
        assertThrows(NotAHermesDatabaseException.class, () -> byUrl().build());
    }

    @Test
    void aNewerStoreOpensReadOnlyButNotReadWrite() throws SQLException {
        byUrl().build().close();
        execute("INSERT INTO " + postgres.schema() + ".schema_version (version) VALUES (18)",
                "DELETE FROM " + postgres.schema() + ".schema_version WHERE version <> 18");
        try (StateRepository reader = byUrl().readOnly(true).build()) {
            assertEquals(0, reader.sessionCount());
        }
        SchemaTooNewException newer = assertThrows(SchemaTooNewException.class, () -> byUrl().migrate(false).build());
        assertTrue(newer.getMessage().contains("18"), newer.getMessage());
        assertThrows(SchemaTooNewException.class, () -> byUrl().build());
    }

    @Test
    void theApplicationsPoolServesTheStoreInItsSchemaAsTheUrlDoes() throws SQLException {
        try (StateRepository lent = StateRepository.builder().dataSource(applicationPool()).schema(postgres.schema()).build()) {
            assertTrue(lent.describe().contains("the application's DataSource") && lent.describe().contains(postgres.schema()),
                    lent.describe());
            lent.createSession("s1", "app");
            lent.appendMessage("s1", NewMessage.of("user", "written through the application's pool"));
            assertEquals(1, lent.searchMessages(SearchQuery.of("pool")).size());
        }
        // the store reset what it changed on the application's connections: back in the pool, default search path
        try (Connection connection = applicationPool.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW search_path")) {
            row.next();
            assertFalse(row.getString(1).contains(postgres.schema()), row.getString(1));
        }
        try (StateRepository byUrl = byUrl().readOnly(true).build()) {
            assertTrue(byUrl.describe().contains(postgres.schema()), byUrl.describe());
            assertFalse(byUrl.describe().contains(postgres.password()), byUrl.describe());
            assertEquals("written through the application's pool", byUrl.getMessages("s1").get(0).text());
        }
    }

    @Test
    void theApplicationsPoolReadOnlyOnAMissingSchemaCreatesNothing() throws SQLException {
        assertThrows(StateIOException.class,
                () -> StateRepository.builder().dataSource(applicationPool()).schema(postgres.schema()).readOnly(true).build());
        assertEquals(0, schemaCount());
    }

    @Test
    void aSchemaIsRefusedForAFileAndForASqliteDataSource() {
        InvalidArgumentException forFile = assertThrows(InvalidArgumentException.class,
                () -> StateRepository.builder().path(dir.resolve("state.db")).schema("x").build());
        assertTrue(forFile.getMessage().contains("schema"), forFile.getMessage());
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + dir.resolve("app.db"));
        HermesStateException forSqlite = assertThrows(InvalidArgumentException.class,
                () -> StateRepository.builder().dataSource(sqlite).schema("x").build());
        assertTrue(forSqlite.getMessage().contains("SQLite"), forSqlite.getMessage());
    }

    private long schemaCount() throws SQLException {
        return queryLong("SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = '" + postgres.schema() + "'");
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private void execute(String... statements) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
