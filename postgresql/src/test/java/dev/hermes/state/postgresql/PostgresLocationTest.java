package dev.hermes.state.postgresql;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading libpq and JDBC URLs, and keeping the password out of everything but the login properties. */
class PostgresLocationTest {

    @Test
    void readsALibpqUrlWithPercentEncodedCredentialsAndParameters() {
        PostgresLocation location = PostgresLocation.parse(
                "postgresql://alice:p%40ss%2Fw%C3%B6rd@db.example.org:6543/app%20data?sslmode=require&connect_timeout=7");
        assertEquals("db.example.org", location.host());
        assertEquals(6543, location.port());
        assertEquals("app data", location.database());
        assertEquals("alice", location.user());
        assertEquals("hermes", location.schema());
        assertEquals("jdbc:postgresql://db.example.org:6543/app%20data?connectTimeout=7&sslmode=require", location.jdbcUrl());
        assertEquals("postgresql://alice@db.example.org:6543/app%20data (schema hermes)", location.toString());
        Properties login = location.connectionProperties();
        assertEquals("alice", login.getProperty("user"));
        assertEquals("p@ss/wörd", login.getProperty("password"));
        assertEquals("hermes-state", login.getProperty("ApplicationName"));
    }

    @Test
    void takesAPasswordWithUnencodedSlashesAtSignsAndColons() {
        PostgresLocation location = PostgresLocation.parse("postgres://carol:p@ss/w:rd@host/db?application_name=mine");
        assertEquals("carol", location.user());
        assertEquals("p@ss/w:rd", location.connectionProperties().getProperty("password"));
        assertEquals("host", location.host());
        assertEquals("db", location.database());
        assertEquals("jdbc:postgresql://host:5432/db?ApplicationName=mine", location.jdbcUrl());
        assertNull(location.connectionProperties().getProperty("ApplicationName"), "the URL's own name is kept");
    }

    @Test
    void readsAJdbcUrlAndMovesItsCredentialsOutOfTheUrl() {
        PostgresLocation location = PostgresLocation.parse("jdbc:postgresql://h:5433/d?user=u&password=pw&sslmode=disable");
        assertEquals("jdbc:postgresql://h:5433/d?sslmode=disable", location.jdbcUrl());
        assertEquals("u", location.connectionProperties().getProperty("user"));
        assertEquals("pw", location.connectionProperties().getProperty("password"));
        assertEquals("postgresql://u@h:5433/d (schema hermes)", location.toString());
    }

    @Test
    void fillsInLibpqsDefaults() {
        PostgresLocation userOnly = PostgresLocation.parse("postgresql://bob@/");
        assertEquals("localhost", userOnly.host());
        assertEquals(5432, userOnly.port());
        assertEquals("bob", userOnly.database(), "the database is named like the user");
        PostgresLocation noUser = PostgresLocation.parse("postgresql:///app");
        assertNull(noUser.user());
        assertFalse(noUser.connectionProperties().containsKey("user"));
        assertEquals("postgresql://localhost:5432/app (schema hermes)", noUser.toString());
        PostgresLocation ipv6 = PostgresLocation.parse("postgresql://u@[::1]:5433/d");
        assertEquals("[::1]", ipv6.host());
        assertEquals(5433, ipv6.port());
    }

    @Test
    void tellsUrlsFromFilePaths() {
        for (String url : List.of("postgresql://h/d", "postgres://h/d", "jdbc:postgresql://h/d", "POSTGRESQL://h/d")) {
            assertTrue(PostgresLocation.isUrl(url), url);
        }
        for (String path : List.of("state.db", "/tmp/postgresql/state.db", "postgresql.db", "", "jdbc:sqlite:x.db")) {
            assertFalse(PostgresLocation.isUrl(path), path);
        }
        assertFalse(PostgresLocation.isUrl(null));
    }

    @Test
    void schemaNamesAreLowerCaseIdentifiers() {
        PostgresLocation location = PostgresLocation.parse("postgresql://u@h/d");
        assertEquals("team_2", location.withSchema("team_2").schema());
        assertEquals("_x", location.withSchema("_x").schema());
        for (String bad : new String[] {"Hermes", "1abc", "a-b", "", "a\"b", "x".repeat(64), null}) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> location.withSchema(bad));
            assertTrue(refused.getMessage().startsWith("Invalid schema name"), refused.getMessage());
        }
    }

    /** Each refusal names the part that is wrong and never repeats the URL, which holds the password. */
    @Test
    void refusesBadUrlsWithoutRepeatingThePassword() {
        String secret = "s3cret";
        List<List<String>> cases = List.of(
                List.of("mysql://u:s3cret@h/d", "Not a PostgreSQL URL: expected postgresql://user:password@host:port/dbname"
                        + " or jdbc:postgresql://host:port/dbname"),
                List.of("jdbc:postgresql:d?password=s3cret", "A PostgreSQL URL needs a host part: postgresql://host/dbname"),
                List.of("postgresql://u:s3cret@h:99999/d", "The PostgreSQL URL's port is not a number from 1 to 65535"),
                List.of("postgresql://u:s3cret@h:x5432/d", "The PostgreSQL URL's port is not a number from 1 to 65535"),
                List.of("postgresql://u:s3cr%zzet@h/d", "The PostgreSQL URL's password has a '%' that is not followed by"
                        + " two hexadecimal digits (write '%25' for '%')"),
                List.of("postgresql://u:s3cret@h/d?sslmode", "The PostgreSQL URL has a parameter without a value"),
                List.of("postgresql://u:s3cret@bad host/d", "The PostgreSQL URL's host is not a host name or address"
                        + " (one host only; percent-encode a password's special characters)"),
                List.of("postgresql://:s3cret@h/", "The PostgreSQL URL names no database: postgresql://user@host/dbname"));
        for (List<String> c : cases) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> PostgresLocation.parse(c.get(0)), c.get(0));
            assertEquals(c.get(1), refused.getMessage());
            assertFalse(refused.getMessage().contains(secret));
        }
    }
}
