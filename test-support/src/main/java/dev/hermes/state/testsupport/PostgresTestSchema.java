package dev.hermes.state.testsupport;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * A schema of its own on the test PostgreSQL server for every test, dropped with everything in it
 * afterwards. Register it on a test class:
 * <pre>{@code @RegisterExtension final PostgresTestSchema postgres = new PostgresTestSchema();}</pre>
 * The server is the one {@code HERMES_TEST_PG_URL} names, in libpq form
 * ({@code postgresql://user:password@host:port/dbname}, what {@code eval "$(.ci/postgres)"} exports;
 * {@code -Dhermes.test.pg.url} too). When it is not set or the server does not answer, the test is
 * skipped with the reason before any of its set-up runs (registered, it is the test's
 * {@link ExecutionCondition}), except under {@code CI=true}, where that fails it: CI never passes
 * without having run the PostgreSQL tests ({@link MachineRequirement}). Self-contained (plain JDBC),
 * so any module can use it.
 */
public final class PostgresTestSchema implements ExecutionCondition, BeforeEachCallback, AfterEachCallback {
    public static final String URL_VARIABLE = "HERMES_TEST_PG_URL";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The server's answer to the first test that asked, for all tests of the JVM: null when it answered. */
    private static @Nullable String unavailable;
    private static boolean checked;

    private @Nullable URI url;
    private @Nullable String schema;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return MachineRequirement.condition(missing());
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        create();
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        drop();
    }

    /**
     * What {@link #beforeEach} does, for a test that needs the server only sometimes (a test class
     * parameterized over engines): skips (fails on CI) when the server is missing, picks the schema's name.
     */
    public void create() {
        String missing = missing();
        MachineRequirement.require(missing == null, missing);
        url = configuredUrl();
        schema = "t_" + HexFormat.of().formatHex(RANDOM.generateSeed(6));
    }

    /** What {@link #afterEach} does: drops the schema with everything in it (nothing when none was picked). */
    public void drop() throws SQLException {
        if (schema == null) {
            return;
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET lock_timeout = '30s'");
            statement.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
    }

    /** A schema name nobody uses yet (not created: migrating creates it); dropped after the test. */
    public String schema() {
        return picked(schema);
    }

    /** The server's URL in libpq form, password included, as an application would be given it. */
    public String url() {
        return picked(url).toString();
    }

    /** The test role's password: what no message may show. */
    public String password() {
        String userInfo = picked(url).getUserInfo();
        return userInfo == null || !userInfo.contains(":") ? "" : userInfo.substring(userInfo.indexOf(':') + 1);
    }

    /** The same server in JDBC form, without credentials. */
    public String jdbcUrl() {
        return jdbcUrl(picked(url));
    }

    /** A plain JDBC connection as the test role, in the server's default schema. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), login(picked(url)));
    }

    /**
     * Why the PostgreSQL tests cannot run here, with how to run them; null when the server answers.
     * Asked of the server once per JVM.
     */
    public static @Nullable String missing() {
        String problem = checkServer();
        return problem == null ? null
                : "no PostgreSQL server for the tests: " + problem + ". To run them: eval \"$(.ci/postgres)\" (see README.md)";
    }

    private static synchronized @Nullable String checkServer() {
        if (!checked) {
            checked = true;
            String text = System.getProperty("hermes.test.pg.url", System.getenv(URL_VARIABLE));
            if (text == null || text.isBlank()) {
                unavailable = URL_VARIABLE + " is not set";
            } else {
                try {
                    URI server = configuredUrl();
                    try (Connection probe = DriverManager.getConnection(jdbcUrl(server), login(server))) {
                        unavailable = probe.isValid(5) ? null : "the server does not answer";
                    } catch (SQLException e) {
                        unavailable = "cannot connect to " + server.getHost() + ":" + server.getPort() + server.getPath()
                                + " (" + e.getMessage() + ")";
                    }
                } catch (IllegalArgumentException badUrl) {
                    unavailable = badUrl.getMessage();
                }
            }
        }
        return unavailable;
    }

    private static URI configuredUrl() {
        String text = System.getProperty("hermes.test.pg.url", System.getenv(URL_VARIABLE));
        try {
            URI parsed = new URI(text.strip());
            if (parsed.getHost() == null || !parsed.getScheme().startsWith("postgres")) {
                throw new IllegalArgumentException(URL_VARIABLE + " is not of the form postgresql://user:password@host:port/dbname");
            }
            return parsed;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(URL_VARIABLE + " is not of the form postgresql://user:password@host:port/dbname");
        }
    }

    /** A value beforeEach sets: the schema's accessors are for the test body. */
    private static <T> T picked(@Nullable T value) {
        if (value == null) {
            throw new IllegalStateException("the PostgreSQL test schema is used before its test started");
        }
        return value;
    }

    private static String jdbcUrl(URI url) {
        return "jdbc:postgresql://" + url.getHost() + ":" + (url.getPort() < 0 ? 5432 : url.getPort()) + url.getRawPath();
    }

    private static Properties login(URI url) {
        Properties login = new Properties();
        String userInfo = url.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            login.setProperty("user", decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
            if (colon >= 0) {
                login.setProperty("password", decode(userInfo.substring(colon + 1)));
            }
        }
        login.setProperty("connectTimeout", "5");
        return login;
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
