package dev.hermes.state.bench.process;

import dev.hermes.state.postgresql.PostgresLocation;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child's command line names its PostgreSQL store without the password, and the password file the
 * child's driver reads instead says exactly the login the URL said, readable by this user only.
 */
class ChildLoginTest {
    @Test
    void aLibpqUrlLosesItsPasswordToAFileOnlyThisUserCanRead() throws Exception {
        Map<String, String> environment = new HashMap<>();
        List<String> command = ChildLogin.withoutPasswords(List.of("java", "-cp", "x.jar", "Main",
                "postgresql://bench:s3cr%3At@127.0.0.1:5433/hermes_test?hermes_schema=bench_1&sslmode=disable", "out.jsonl"),
                environment);

        assertEquals(List.of("java", "-cp", "x.jar", "Main",
                "jdbc:postgresql://127.0.0.1:5433/hermes_test?sslmode=disable&user=bench&hermes_schema=bench_1", "out.jsonl"),
                command);
        Path file = Path.of(environment.get("PGPASSFILE"));
        assertEquals("127.0.0.1:5433:hermes_test:bench:s3cr\\:t\n", Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        // the child reads the same server, database, role and schema from what it is given
        PostgresLocation seen = PostgresLocation.parse(command.get(4).replace("&hermes_schema=bench_1", ""));
        assertEquals(List.of("127.0.0.1", 5433, "hermes_test", "bench"),
                List.of(seen.host(), seen.port(), seen.database(), seen.user()));
        assertFalse(seen.connectionProperties().containsKey("password"));
    }

    @Test
    void aJdbcUrlsPasswordParameterAndAPasswordWithBackslashesAndAtSignsAreTakenOutToo() throws Exception {
        Map<String, String> environment = new HashMap<>();
        List<String> command = ChildLogin.withoutPasswords(List.of(
                "jdbc:postgresql://db.example:5432/store?user=ops&password=a%5Cb%40c", "--schema", "hermes",
                "postgresql://ops:pa@ss@db.example/store"), environment);

        assertEquals(List.of("jdbc:postgresql://db.example:5432/store?user=ops", "--schema", "hermes",
                "jdbc:postgresql://db.example:5432/store?user=ops"), command);
        assertEquals("db.example:5432:store:ops:a\\\\b@c\ndb.example:5432:store:ops:pa@ss\n",
                Files.readString(Path.of(environment.get("PGPASSFILE"))));
        assertTrue(command.stream().noneMatch(argument -> argument.contains("pa@ss") || argument.contains("a%5Cb")));
    }

    @Test
    void commandsWithoutAPasswordAreLeftAsTheyAre() {
        Map<String, String> environment = new HashMap<>();
        List<String> command = List.of("java", "Main", "postgresql://ops@db.example/store", "/tmp/state.db", "--db=x");

        assertEquals(command, ChildLogin.withoutPasswords(command, environment));
        assertEquals(Map.of(), environment);
    }
}
