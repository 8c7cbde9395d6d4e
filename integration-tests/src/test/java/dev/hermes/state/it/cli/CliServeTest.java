package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code hermes-state serve} as a real process: it says where it serves, answers the API over HTTP
 * from the agent's file without changing a byte of it, stops on SIGTERM (Ctrl-C's path: the shutdown
 * hook closes the server and the store), and refuses a non-loopback host without a token in one line.
 */
class CliServeTest {
    private static final Pattern SERVED_AT = Pattern.compile(" at (http://127\\.0\\.0\\.1:\\d+/)");
    private static final Duration START = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void servesTheAgentsFileReadOnlyAndStopsOnSigterm() throws Exception {
        Path file = Fixtures.copy("state-v6.db", dir);
        String before = sha256(file);
        Cli cli = new Cli(dir);
        try (ChildProcess serve = cli.command("--db", file.toString(), "serve", "--port", "0", "--no-open").start()) {
            String first = serve.nextLine(START);
            Matcher at = SERVED_AT.matcher(first == null ? "" : first);
            assertTrue(at.find(), "the first line names the address: " + first + "\n" + serve.transcript());
            assertTrue(first.contains("(read-only)"), first);
            URI base = URI.create(at.group(1));

            HttpClient http = HttpClient.newHttpClient();
            JsonNode stats = get(http, base.resolve("api/sessions/stats"));
            assertEquals(30, stats.get("total").asLong());
            assertEquals(95, stats.get("messages").asLong());
            assertTrue(get(http, base.resolve("api/store")).get("read_only").asBoolean());
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(base).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode());
            assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));

            serve.terminate();
            int exit = serve.waitFor(Duration.ofSeconds(30));
            assertEquals(143, exit, "ended by the signal after its shutdown hook: " + serve.transcript());
            assertFalse(serve.stderr().contains("Exception"), serve.stderr());
        }
        assertEquals(before, sha256(file), "serving never writes the file");
        assertFalse(Files.exists(Path.of(file + "-wal")) && Files.size(Path.of(file + "-wal")) > 0,
                "no write-ahead log was written");
    }

    @Test
    void aNonLoopbackHostWithoutATokenIsRefusedInOneLine() throws Exception {
        Path file = Fixtures.copy("state-v6.db", dir);
        ProcessResult refused = new Cli(dir).command("--db", file.toString(), "serve", "--host", "0.0.0.0", "--port", "0",
                "--no-open").withoutEnv("HERMES_STATE_SERVE_TOKEN").run();
        assertEquals(1, refused.exitCode(), refused.toString());
        String line = refused.userError(Cli.PROGRAM);
        assertTrue(line.contains("token"), line);
    }

    private static JsonNode get(HttpClient http, URI uri) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), uri + ": " + response.body());
        return Cli.JSON.readTree(response.body());
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
