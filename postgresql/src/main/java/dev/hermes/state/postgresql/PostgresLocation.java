package dev.hermes.state.postgresql;

import dev.hermes.state.InvalidArgumentException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where a PostgreSQL store lives: the server, the database, the role that logs in, and the schema
 * that holds the store's tables (several stores may share one database, one schema each).
 *
 * <p>Parsed from a libpq URL, {@code postgresql://user:password@host:port/dbname?param=value} (the form
 * of Hermes' {@code HERMES_DATABASE_URL}; {@code postgres://} too), or from a JDBC URL,
 * {@code jdbc:postgresql://host:port/dbname?user=...&password=...}. User and password are
 * percent-decoded as libpq does. The password never leaves this object except through
 * {@link #connectionProperties()}: {@link #toString()}, {@link #jdbcUrl()} and every message built
 * from them leave it out, and the JDBC URL handed to the driver carries no credentials (the driver
 * echoes its URL in connection metadata).
 */
public final class PostgresLocation {
    /** The schema of a store when none is named. */
    public static final String DEFAULT_SCHEMA = "hermes";

    private static final int DEFAULT_PORT = 5432;
    /** Unquoted, lower-case identifiers only: the name is used in SQL as is, and reads the same in psql. */
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+]");
    /** libpq's parameter names that the JDBC driver spells differently. */
    private static final Map<String, String> JDBC_NAMES = Map.of(
            "connect_timeout", "connectTimeout",
            "application_name", "ApplicationName");

    private final String host;
    private final int port;
    private final String database;
    private final @Nullable String user;
    private final @Nullable String password;
    private final Map<String, String> parameters;
    private final String schema;

    private PostgresLocation(String host, int port, String database, @Nullable String user, @Nullable String password,
                             Map<String, String> parameters, String schema) {
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
        this.parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
        this.schema = schema;
    }

    /** True when {@code text} is written as a PostgreSQL URL (as opposed to a file path). */
    public static boolean isUrl(@Nullable String text) {
        String lower = text == null ? "" : text.toLowerCase(Locale.ROOT);
        return lower.startsWith("postgresql://") || lower.startsWith("postgres://") || lower.startsWith("jdbc:postgresql:");
    }

    /**
     * Reads a libpq or JDBC PostgreSQL URL; the store's schema is {@value #DEFAULT_SCHEMA}. Errors name
     * what is wrong, never the URL itself (it may hold a password).
     *
     * @throws InvalidArgumentException not a PostgreSQL URL, or one that cannot be read
     */
    public static PostgresLocation parse(String url) {
        if (!isUrl(url)) {
            throw new InvalidArgumentException("Not a PostgreSQL URL: expected postgresql://user:password@host:port/dbname"
                    + " or jdbc:postgresql://host:port/dbname");
        }
        String rest = url.substring(url.indexOf(':') + 1);
        if (rest.regionMatches(true, 0, "postgresql:", 0, 11)) {
            rest = rest.substring(11);
        }
        if (!rest.startsWith("//")) {
            throw new InvalidArgumentException("A PostgreSQL URL needs a host part: postgresql://host/dbname");
        }
        rest = rest.substring(2);
        int query = rest.indexOf('?');
        String head = query < 0 ? rest : rest.substring(0, query);
        Map<String, String> parameters = query < 0 ? new TreeMap<>() : parameters(rest.substring(query + 1));

        // the last '@' before the query ends the credentials: a password may hold '/', '@' or ':' unencoded
        int at = head.lastIndexOf('@');
        String user = parameters.remove("user");
        String password = parameters.remove("password");
        if (at >= 0) {
            String credentials = head.substring(0, at);
            int colon = credentials.indexOf(':');
            user = decode(colon < 0 ? credentials : credentials.substring(0, colon), "user name");
            if (colon >= 0) {
                password = decode(credentials.substring(colon + 1), "password");
            }
            head = head.substring(at + 1);
        }
        int slash = head.indexOf('/');
        String hostPort = slash < 0 ? head : head.substring(0, slash);
        String database = slash < 0 ? "" : decode(head.substring(slash + 1), "database name");
        database = parameters.containsKey("dbname") ? parameters.remove("dbname") : database;

        String host = hostPort;
        int port = DEFAULT_PORT;
        int portColon = hostPort.lastIndexOf(':');
        if (portColon >= 0 && portColon > hostPort.lastIndexOf(']')) {
            host = hostPort.substring(0, portColon);
            port = port(hostPort.substring(portColon + 1));
        }
        if (host.isEmpty()) {
            host = "localhost";
        } else if (!HOST.matcher(host).matches()) {
            throw new InvalidArgumentException("The PostgreSQL URL's host is not a host name or address"
                    + " (one host only; percent-encode a password's special characters)");
        }
        if (user != null && user.isEmpty()) {
            user = null;
        }
        if (database.isEmpty()) {
            // libpq's default: the database named like the user
            if (user == null) {
                throw new InvalidArgumentException("The PostgreSQL URL names no database: postgresql://user@host/dbname");
            }
            database = user;
        }
        return new PostgresLocation(host, port, database, user, password, parameters, DEFAULT_SCHEMA);
    }

    /** The same server, database and role, with the store in {@code schema}. */
    public PostgresLocation withSchema(String schema) {
        return new PostgresLocation(host, port, database, user, password, parameters, checkSchema(schema));
    }

    /**
     * Checks a store's schema name: a lower-case unquoted identifier (letters, digits, underscores, at
     * most 63 characters, not starting with a digit), so that it reads the same quoted or not.
     *
     * @throws InvalidArgumentException otherwise
     */
    public static String checkSchema(String schema) {
        if (schema == null || !SCHEMA_NAME.matcher(schema).matches()) {
            throw new InvalidArgumentException("Invalid schema name " + (schema == null ? "null" : "'" + schema + "'")
                    + ": use lower-case letters, digits and underscores (at most 63, not starting with a digit)");
        }
        return schema;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    /** The role to log in as; null lets the driver choose (the operating-system user). */
    public @Nullable String user() {
        return user;
    }

    public String schema() {
        return schema;
    }

    /** The URL for the JDBC driver, without user or password (pass {@link #connectionProperties()}). */
    public String jdbcUrl() {
        StringBuilder url = new StringBuilder("jdbc:postgresql://").append(host).append(':').append(port)
                .append('/').append(encode(database));
        char separator = '?';
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            url.append(separator).append(encode(JDBC_NAMES.getOrDefault(parameter.getKey(), parameter.getKey())))
                    .append('=').append(encode(parameter.getValue()));
            separator = '&';
        }
        return url.toString();
    }

    /** The login for the JDBC driver: user, password, and the application name shown in pg_stat_activity. */
    public Properties connectionProperties() {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        if (!parameters.containsKey("application_name") && !parameters.containsKey("ApplicationName")) {
            properties.setProperty("ApplicationName", "hermes-state");
        }
        return properties;
    }

    /**
     * A new connection (auto-commit, the server's default search path).
     *
     * @throws dev.hermes.state.StateIOException the server cannot be reached or refuses the login
     */
    public Connection connect() {
        try {
            return DriverManager.getConnection(jdbcUrl(), connectionProperties());
        } catch (SQLException e) {
            throw PostgresErrors.translate(e, "connecting to " + this);
        }
    }

    /** {@code postgresql://user@host:port/dbname (schema hermes)}: never the password. */
    @Override
    public String toString() {
        return "postgresql://" + (user == null ? "" : encode(user) + "@") + host + ":" + port + "/" + encode(database)
                + " (schema " + schema + ")";
    }

    private static Map<String, String> parameters(String query) {
        Map<String, String> parameters = new TreeMap<>();
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new InvalidArgumentException("The PostgreSQL URL has a parameter without a value");
            }
            String name = decode(pair.substring(0, equals), "parameter name");
            parameters.put(name, decode(pair.substring(equals + 1), "parameter " + name));
        }
        return parameters;
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port > 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new InvalidArgumentException("The PostgreSQL URL's port is not a number from 1 to 65535");
    }

    /** libpq's percent-decoding (UTF-8; '+' stays '+'). */
    private static String decode(String text, String what) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 0;
        while (i < text.length()) {
            int percent = text.indexOf('%', i);
            int end = percent < 0 ? text.length() : percent;
            bytes.writeBytes(text.substring(i, end).getBytes(StandardCharsets.UTF_8));
            if (percent < 0) {
                break;
            }
            int high = percent + 2 < text.length() ? Character.digit(text.charAt(percent + 1), 16) : -1;
            int low = percent + 2 < text.length() ? Character.digit(text.charAt(percent + 2), 16) : -1;
            if (high < 0 || low < 0) {
                // the message names the part, never its text: it may be the password
                throw new InvalidArgumentException("The PostgreSQL URL's " + what + " has a '%' that is not followed by"
                        + " two hexadecimal digits (write '%25' for '%')");
            }
            bytes.write(high * 16 + low);
            i = percent + 3;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String encode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((Character.isLetterOrDigit(c) && c < 128) || "-._~".indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return encoded.toString();
    }
}
