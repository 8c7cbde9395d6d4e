package dev.hermes.state.migrations;

import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresLocation;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Logins, privileges and passwords: a role that may not create the pg_trgm extension, one whose
 * administrator installed it in a schema of their choice, and failures whose every message (with
 * causes and stack traces) leaves the password out.
 */
class PostgresAccessTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    private final Migrator migrator = Migrator.create();

    @Test
    void aRoleThatMayNotCreateTheSearchExtensionIsToldWhatToAskForAndNothingChanges() throws Exception {
        withDatabaseAndLimitedRole((limited, database) -> {
            StateIOException refused = assertThrows(StateIOException.class, () -> migrator.migrate(limited));
            assertEquals("The role " + limited.user() + " may not create the extension pg_trgm in database " + database
                    + " (it needs CREATE on the database and an existing schema public it may create in), and the store's"
                    + " search index needs it. Have an administrator run 'CREATE EXTENSION pg_trgm;' in database "
                    + database + " once, then migrate again; " + limited + " was left unchanged", refused.getMessage());
            assertNoSecret(refused, "limited-pw-");
            assertEquals(List.of(), query(database, "SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = 'store'"));
        });
    }

    @Test
    void theExtensionAnAdministratorInstalledInAnotherSchemaIsUsed() throws Exception {
        withDatabaseAndLimitedRole((limited, database) -> {
            query(database, "CREATE SCHEMA extensions", "CREATE EXTENSION pg_trgm SCHEMA extensions");
            StateIOException noUsage = assertThrows(StateIOException.class, () -> migrator.migrate(limited));
            assertEquals("The role " + limited.user() + " may not use schema extensions, where the extension pg_trgm that"
                    + " the store's search index needs is installed. Have an administrator run 'GRANT USAGE ON SCHEMA"
                    + " extensions TO " + limited.user() + ";' in database " + database + ", then migrate again; " + limited
                    + " was left unchanged", noUsage.getMessage());

            query(database, "GRANT USAGE ON SCHEMA extensions TO " + limited.user());
            MigrationResult result = migrator.migrate(limited);
            assertEquals(17, result.toVersion());
            assertEquals(List.of("v1-extension-pg-trgm"), result.adopted().stream().map(MigrationResult.AppliedChange::id).toList());
            // version 1's trigram index was built with the extension's operator class; version 6 replaced it
            assertEquals(List.of("CREATE INDEX idx_messages_content_grams ON store.messages USING gin (content_grams)"),
                    query(database, "SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'idx_messages_content_%gram%'"));
            assertTrue(migrator.migrate(limited).fastPath());
        });
    }

    @Test
    void noFailureShowsThePassword() {
        String secret = "Wr0ng-" + postgres.password() + "-s3cret";
        URI server = URI.create(postgres.url());
        PostgresLocation wrongPassword = PostgresLocation.parse(url(server.getHost(), server.getPort(), server.getPath(),
                "hermes_test", secret));
        HermesStateException login = assertFailsWithoutSecret(StateIOException.class, secret, () -> migrator.migrate(wrongPassword));
        assertTrue(login.getMessage().startsWith("Cannot use the PostgreSQL server while connecting to " + wrongPassword
                + ": password authentication failed for user"), login.getMessage());
        assertFailsWithoutSecret(StateIOException.class, secret, wrongPassword::connect);

        PostgresLocation noServer = PostgresLocation.parse(url("127.0.0.1", 1, "/hermes_test", "hermes_test", secret));
        HermesStateException refused = assertFailsWithoutSecret(StateIOException.class, secret, () -> migrator.migrate(noServer));
        assertTrue(refused.getMessage().contains("Connection to 127.0.0.1:1 refused"), refused.getMessage());

        String noDatabaseUrl = url(server.getHost(), server.getPort(), "/no_such_database_here", "hermes_test", postgres.password());
        HermesStateException noDatabase = assertFailsWithoutSecret(StateIOException.class, postgres.password(),
                () -> migrator.migrate(PostgresLocation.parse(noDatabaseUrl)));
        assertTrue(noDatabase.getMessage().contains("no_such_database_here"), noDatabase.getMessage());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, MigrateCommand.run(new String[] {"--db", url(server.getHost(), server.getPort(), server.getPath(),
                        "hermes_test", secret)}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("hermes-state-migrate: " + login.getMessage() + "\n", err.toString(StandardCharsets.UTF_8));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    /** A throwaway database without pg_trgm and a role that may use schema "store" in it but create nothing else. */
    private void withDatabaseAndLimitedRole(LimitedCase test) throws Exception {
        String database = postgres.schema() + "_db";
        String role = postgres.schema() + "_limited";
        String password = "limited-pw-" + postgres.schema();
        try {
            admin("CREATE DATABASE " + database, "CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
            query(database, "CREATE SCHEMA store", "GRANT USAGE, CREATE ON SCHEMA store TO " + role);
            URI server = URI.create(postgres.url());
            test.run(PostgresLocation.parse(url(server.getHost(), server.getPort(), "/" + database, role, password))
                    .withSchema("store"), database);
        } finally {
            admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)", "DROP ROLE IF EXISTS " + role);
        }
    }

    private interface LimitedCase {
        void run(PostgresLocation limited, String database) throws Exception;
    }

    private void admin(String... statements) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Runs the statements as the test role in another database; returns the first column of the last one's rows. */
    private List<String> query(String database, String... statements) throws SQLException {
        URI server = URI.create(postgres.url());
        PostgresLocation other = PostgresLocation.parse(url(server.getHost(), server.getPort(), "/" + database,
                "hermes_test", postgres.password()));
        List<String> values = new ArrayList<>();
        try (Connection connection = other.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                if (statement.execute(sql)) {
                    try (ResultSet rows = statement.getResultSet()) {
                        values.clear();
                        while (rows.next()) {
                            values.add(rows.getString(1));
                        }
                    }
                }
            }
        }
        return values;
    }

    private static String url(String host, int port, String path, String user, String password) {
        return "postgresql://" + user + ":" + password + "@" + host + ":" + port + path;
    }

    private static <T extends HermesStateException> T assertFailsWithoutSecret(Class<T> type, String secret,
                                                                               Executable call) {
        T failure = assertThrows(type, call);
        assertNoSecret(failure, secret);
        return failure;
    }

    /** Neither the message nor any cause's message nor the printed stack trace holds the secret. */
    private static void assertNoSecret(Throwable failure, String secret) {
        StringWriter trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        assertFalse(trace.toString().contains(secret), trace::toString);
        assertFalse(failure.getMessage().isBlank());
        assertEquals(ErrorType.IO, ((HermesStateException) failure).type());
    }
}
