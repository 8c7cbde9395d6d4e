package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code hermes-state copy} between a SQLite file and a PostgreSQL schema, as real processes: every
 * fixture goes SQLite → PostgreSQL → SQLite with verified counts and checksums on both legs, the
 * AUTOINCREMENT high-water mark carried through the server's identity sequence, and the same
 * {@code sessions export}, byte for byte, from the original file, the server and the file copied back.
 */
class CliCopyPostgresTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    /** The files of the version 1-6 data set (30 sessions, 95 messages), which the expectations below describe. */
    static List<String> fixtures() {
        return Fixtures.NAMES_V1_TO_V6;
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void everyFixtureRoundTripsThroughPostgresql(String fixture) throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy(fixture, Files.createDirectories(dir.resolve("source")));
        Path back = dir.resolve("back.db");

        JsonNode there = cli.json("--json", "copy", "--from", source.toString(), "--to", postgres.url(),
                "--to-schema", postgres.schema(), "--batch", "7");
        assertVerified(there);
        JsonNode home = cli.json("--json", "copy", "--from", postgres.url(), "--from-schema", postgres.schema(),
                "--to", back.toString());
        assertVerified(home);
        assertEquals(there.get("source").get("checksum"), home.get("target").get("checksum"));
        assertFalse((there.toString() + home).contains(postgres.password()), "no password in the reports");

        String original = cli.run("--db", source.toString(), "sessions", "export").ok().stdout();
        String onServer = cli.run("--db", postgres.url(), "--schema", postgres.schema(), "sessions", "export").ok().stdout();
        String copiedBack = cli.run("--db", back.toString(), "sessions", "export").ok().stdout();
        assertEquals(30, original.lines().count());
        assertEquals(original, onServer, "the server's export of " + fixture);
        assertEquals(original, copiedBack, "the export of " + fixture + " copied back");

        // the server's identity sequence continues after the source's high-water mark (97: ids 51 and 52 were deleted)
        String append = "{\"id\": 1, \"method\": \"append_message\", \"params\": {\"session_id\": \""
                + firstSessionId(original) + "\", \"role\": \"user\", \"content\": \"after the copy\"}}\n";
        String response = cli.command(List.of(), "--db", postgres.url(), "--schema", postgres.schema(), "rpc")
                .withStdin(append).run().ok().stdout().strip();
        assertEquals(98, Cli.JSON.readTree(response).get("result").asLong(), response);
    }

    /**
     * The agent's v17 file goes SQLite -> PostgreSQL -> SQLite at 17: every column of every row comes
     * back byte for byte, the multimodal content included (under the SOH marker on the server, whose
     * text cannot hold the agent's NUL, and under the NUL marker again in the file copied back).
     */
    @org.junit.jupiter.api.Test
    void theAgentsVersion17FileRoundTripsWithItsStructuredContent() throws Exception {
        Cli cli = new Cli(dir);
        Path source = Fixtures.copy("state-v17.db", Files.createDirectories(dir.resolve("source17")));
        Path back = dir.resolve("back17.db");
        JsonNode there = cli.json("--json", "--schema-version", "17", "copy", "--from", source.toString(), "--to",
                postgres.url(), "--to-schema", postgres.schema());
        JsonNode home = cli.json("--json", "--schema-version", "17", "copy", "--from", postgres.url(), "--from-schema",
                postgres.schema(), "--to", back.toString());
        for (JsonNode report : List.of(there, home)) {
            assertEquals(43, report.get("sessions_copied").asLong(), report.toString());
            assertEquals(140, report.get("messages_copied").asLong(), report.toString());
            assertTrue(report.get("verified").asBoolean(), report.toString());
        }
        try (var server = postgres.connect(); var statement = server.createStatement();
             var rows = statement.executeQuery("SELECT id FROM \"" + postgres.schema() + "\".messages"
                     + " WHERE content LIKE chr(1) || 'json:%' ORDER BY id")) {
            List<Long> structured = new java.util.ArrayList<>();
            while (rows.next()) {
                structured.add(rows.getLong(1));
            }
            assertEquals(List.of(135L, 137L), structured);
        }
        for (String table : List.of("sessions", "messages")) {
            // by name: the agent's fresh file and a migrated one order their columns differently
            String columns = String.join(", ", dump(source, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY name")
                    .stream().map(row -> new String(java.util.HexFormat.of().parseHex(row.substring(row.indexOf('=') + 1).strip()),
                            java.nio.charset.StandardCharsets.UTF_8)).toList());
            String select = "SELECT " + columns + " FROM " + table + " ORDER BY id";
            assertEquals(dump(source, select), dump(back, select), table);
        }
    }

    /** Every row of a query on a file, each value as its type and bytes. */
    private static List<String> dump(Path file, String sql) throws Exception {
        List<String> result = new java.util.ArrayList<>();
        try (var connection = SqliteFiles.readWrite(file);
             var statement = connection.createStatement(); var rows = statement.executeQuery(sql)) {
            int width = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= width; i++) {
                    Object value = rows.getObject(i);
                    row.append(rows.getMetaData().getColumnName(i)).append('=')
                            .append(value instanceof String ? java.util.HexFormat.of().formatHex(rows.getBytes(i)) : value).append(' ');
                }
                result.add(row.toString());
            }
        }
        return result;
    }

    private static String firstSessionId(String export) throws Exception {
        return Cli.JSON.readTree(export.lines().findFirst().orElseThrow()).get("id").asText();
    }

    private static void assertVerified(JsonNode report) {
        assertEquals(30, report.get("sessions_copied").asLong(), report.toString());
        assertEquals(95, report.get("messages_copied").asLong(), report.toString());
        assertEquals(0, report.get("sessions_differing").asLong(), report.toString());
        assertEquals(report.get("source"), report.get("target"), report.toString());
        assertEquals(30, report.get("source").get("sessions").asLong());
        assertEquals(95, report.get("source").get("messages").asLong());
        assertEquals(97, report.get("source_message_id_high_water").asLong(), report.toString());
        assertEquals(97, report.get("target_message_id_high_water").asLong(), report.toString());
        assertTrue(report.get("verified").asBoolean(), report.toString());
    }
}
