package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.PostgresTestSchema;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real command line on a PostgreSQL store ({@code --db postgresql://...}): the same commands and
 * RPC as on a file; a bad URL, a wrong password or a missing database is one typed line on stderr
 * that never shows the password.
 */
class CliPostgresTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Test
    void migrateRpcListAndSearchOnAServer() throws Exception {
        Cli cli = new Cli(dir);
        String where = "postgresql://hermes_test@" + host() + "/hermes_test (schema " + postgres.schema() + ")";
        ProcessResult migrated = cli.run("--db", postgres.url(), "--schema", postgres.schema(), "migrate").ok();
        assertTrue(migrated.stdout().startsWith(where + ": created at schema version 17 ("), migrated.toString());
        assertFalse((migrated.stdout() + migrated.stderr()).contains(postgres.password()), migrated.toString());

        String requests = String.join("\n",
                "{\"id\": 1, \"method\": \"create_session\", \"params\": {\"session_id\": \"pg-1\", \"source\": \"cli\"}}",
                "{\"id\": 2, \"method\": \"append_message\", \"params\": {\"session_id\": \"pg-1\", \"role\": \"user\","
                        + " \"content\": \"deploy the database migration\"}}",
                "{\"id\": 3, \"method\": \"append_message\", \"params\": {\"session_id\": \"pg-1\", \"role\": \"assistant\","
                        + " \"content\": \"数据库迁移问题 solved\", \"tool_calls\": [{\"id\": \"c1\"}]}}",
                "{\"id\": 4, \"method\": \"get_session\", \"params\": {\"session_id\": \"pg-1\"}}",
                "{\"id\": 5, \"method\": \"search_messages\", \"params\": {\"query\": \"migra*\"}}",
                "{\"id\": 6, \"method\": \"search_messages\", \"params\": {\"query\": \"迁移\"}}") + "\n";
        ProcessResult rpc = cli.command(List.of(), "--db", postgres.url(), "--schema", postgres.schema(), "rpc")
                .withStdin(requests).run().ok();
        List<JsonNode> responses = rpc.lines().stream().map(CliPostgresTest::json).toList();
        assertEquals(6, responses.size(), rpc.toString());
        assertEquals("pg-1", responses.get(0).get("result").asText());
        assertEquals(1, responses.get(1).get("result").asLong());
        assertEquals(2, responses.get(2).get("result").asLong());
        JsonNode session = responses.get(3).get("result");
        assertEquals(2, session.get("message_count").asLong());
        assertEquals(1, session.get("tool_call_count").asLong());
        JsonNode wordHit = responses.get(4).get("result").get(0);
        assertEquals(1, responses.get(4).get("result").size(), rpc.toString());
        assertEquals(1, wordHit.get("id").asLong());
        assertTrue(wordHit.get("snippet").asText().contains(">>>migration<<<"), wordHit.toString());
        assertEquals(2, responses.get(5).get("result").get(0).get("id").asLong(), rpc.toString());

        ProcessResult listed = cli.run("--db", postgres.url(), "--schema", postgres.schema(), "--json", "sessions", "list").ok();
        assertEquals("pg-1", json(listed.stdout()).get(0).get("id").asText(), listed.toString());
        ProcessResult found = cli.run("--db", postgres.url(), "--schema", postgres.schema(), "search", "deploy").ok();
        assertTrue(found.stdout().contains("pg-1"), found.toString());
    }

    @Test
    void badUrlsWrongPasswordsAndMissingDatabasesAreOneLineWithoutThePassword() {
        Cli cli = new Cli(dir);
        String secret = "s3cret-" + postgres.password();
        String badPort = "postgresql://hermes_test:" + secret + "@" + URI.create(postgres.url()).getHost() + ":notaport/hermes_test";
        String error = cli.run("--db", badPort, "sessions", "list").userError(Cli.PROGRAM);
        assertFalse(error.contains(secret), error);
        assertTrue(error.contains("port"), error);

        String wrongPassword = "postgresql://hermes_test:" + secret + "@" + host() + "/hermes_test";
        error = cli.run("--db", wrongPassword, "--schema", postgres.schema(), "sessions", "list").userError(Cli.PROGRAM);
        assertFalse(error.contains(secret), error);
        assertTrue(error.contains("password authentication failed for user \"hermes_test\""), error);

        String missingDatabase = "postgresql://hermes_test:" + postgres.password() + "@" + host() + "/no_such_database_here";
        error = cli.run("--db", missingDatabase, "--schema", postgres.schema(), "search", "x").userError(Cli.PROGRAM);
        assertFalse(error.contains(postgres.password()), error);
        assertTrue(error.contains("database \"no_such_database_here\" does not exist"), error);

        error = cli.run("--db", postgres.url(), "status").userError(Cli.PROGRAM);
        assertEquals("hermes-state: This command works on a database file; --db names a PostgreSQL server", error);
    }

    private String host() {
        URI url = URI.create(postgres.url());
        return url.getHost() + ":" + (url.getPort() < 0 ? 5432 : url.getPort());
    }

    private static JsonNode json(String line) {
        try {
            return Cli.JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
