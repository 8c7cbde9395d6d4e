package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.migrations.Migrator;
import com.zaxxer.hikari.HikariDataSource;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.MachineRequirement;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The contract suite's setting: every test of a subclass runs once per engine, on a store of its own
 * (a new SQLite file, or a new schema on the test PostgreSQL server: {@link PostgresTestSchema}), clock
 * at {@link TestStores#EPOCH}, 1 ms per
 * reading, closed after it. The same assertions hold on both engines: that is the contract. Checks
 * with plain SQL go through {@link #queryLong} and the like, on the engine under test.
 * A subclass's own {@code @BeforeEach} runs after this one, with the store open. Without a server,
 * the PostgreSQL engines' tests are skipped before any set-up runs (a failure under CI=true), so no
 * {@code @AfterEach} meets what was never made.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(FreshStoreTest.Engine.class)
@ExtendWith(FreshStoreTest.ServerForTheEngine.class)
abstract class FreshStoreTest {
    /**
     * The engines of the contract: a SQLite file, a PostgreSQL URL (the store's own pools), and a
     * PostgreSQL schema reached through the application's own pool (a lent DataSource).
     */
    enum Engine { SQLITE, POSTGRESQL, POSTGRESQL_DATASOURCE }

    /** Skips a PostgreSQL engine's test when there is no server (see {@link MachineRequirement}). */
    static final class ServerForTheEngine implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            boolean needsServer = context.getTestInstance()
                    .map(instance -> ((FreshStoreTest) instance).engine != Engine.SQLITE)
                    .orElse(false); // the class itself: decided per test, on its engine
            return needsServer ? MachineRequirement.condition(PostgresTestSchema.missing())
                    : ConditionEvaluationResult.enabled("no server needed");
        }
    }

    @Parameter
    Engine engine;
    @TempDir
    private Path dir;
    private final PostgresTestSchema postgres = new PostgresTestSchema();
    /** The store under test. */
    StateRepository store;
    /** Its file on SQLite (null on PostgreSQL). */
    Path file;
    /** The store's clock (tests move it on). */
    TestStores.TickingClock clock;
    /** The application's pool the store borrows from (POSTGRESQL_DATASOURCE only). */
    private HikariDataSource applicationPool;

    @BeforeEach
    final void openFreshStore() {
        clock = new TestStores.TickingClock(TestStores.EPOCH, Duration.ofMillis(1));
        if (engine == Engine.SQLITE) {
            store = TestStores.fresh(dir, clock, schemaVersion());
            file = dir.resolve("state.db");
        } else if (engine == Engine.POSTGRESQL) {
            postgres.create();
            store = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).clock(clock)
                    .schemaVersion(schemaVersion()).build();
        } else {
            postgres.create();
            applicationPool = new HikariDataSource();
            applicationPool.setJdbcUrl(postgres.jdbcUrl());
            applicationPool.setUsername(PostgresLocation.parse(postgres.url()).user());
            applicationPool.setPassword(postgres.password());
            applicationPool.setMaximumPoolSize(6);
            store = StateRepository.builder().dataSource(applicationPool).schema(postgres.schema()).clock(clock)
                    .schemaVersion(schemaVersion()).build();
        }
    }

    /**
     * The schema version the store is opened at: 6, so that the classes that don't override it hold the
     * v6 contract (the V6 answers of docs/behaviour.md, which a store pinned at 6 keeps); the v17 classes return 17.
     */
    int schemaVersion() {
        return Migrator.KEPT_VERSION;
    }

    @AfterEach
    final void closeStore() throws SQLException {
        if (store != null) {
            store.close();
        }
        if (applicationPool != null) {
            applicationPool.close();
        }
        postgres.drop();
    }

    boolean onSqlite() {
        return engine == Engine.SQLITE;
    }

    /** A plain JDBC connection to the store under test, outside the store (SQLite: foreign keys on). */
    Connection plainConnection() throws SQLException {
        if (onSqlite()) {
            return SqliteFiles.readWriteWithForeignKeys(file);
        }
        Connection connection = postgres.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
        }
        return connection;
    }

    long queryLong(String sql) throws SQLException {
        try (Connection connection = plainConnection();
             var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : -1;
        }
    }

    String queryString(String sql) throws SQLException {
        try (Connection connection = plainConnection();
             var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    void execute(String... statements) throws SQLException {
        try (Connection connection = plainConnection(); var statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
