package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the server refuses and how: typed JSON errors (400, 404, 405), the Host check against DNS
 * rebinding, the access token, the security headers on every answer, and that nothing it does changes
 * the file.
 */
class AccessTest {
    private static final String TOKEN = "s3cret-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void badParametersUnknownSessionsAndWritesAreOneTypedJsonError() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            for (String bad : List.of("/api/sessions?limit=abc", "/api/sessions?limit=0", "/api/sessions?archived=maybe",
                    "/api/sessions?order=size", "/api/sessions?colour=red", "/api/sessions?from=yesterday",
                    "/api/sessions?cursor=not-a-cursor", "/api/analytics/usage?days=0", "/api/analytics/usage?days=x",
                    "/api/search?q=a&sort=best", "/api/sessions?limit=1&limit=2",
                    "/api/sessions/20260402_140000_e4c22c/messages?include_inactive=perhaps")) {
                assertError(served.get(bad), 400, "bad_request", bad);
            }
            assertError(served.get("/api/sessions/no-such-session"), 404, "not_found", "unknown session");
            assertError(served.get("/api/sessions/no-such-session/messages"), 404, "not_found", "unknown session's messages");
            assertError(served.get("/api/nothing-here"), 404, "not_found", "unknown endpoint");
            for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
                HttpResponse<String> response = served.send(HttpRequest.newBuilder(
                        served.uri("/api/sessions/20260402_140000_e4c22c")).method(method, HttpRequest.BodyPublishers.ofString("{}")));
                assertError(response, 405, "method_not_allowed", method);
                assertEquals("GET, HEAD", response.headers().firstValue("Allow").orElseThrow());
            }
            JsonNode error = Served.parse(served.get("/api/sessions?limit=abc").body());
            assertEquals("Parameter 'limit' must be an integer, got 'abc'", error.get("error").get("message").asText());
            assertEquals(error.get("error").get("message"), error.get("detail"));
        }
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            for (String path : List.of("/", "/api/sessions", "/api/sessions/nope", "/vendor/uplot/uPlot.esm.js", "/missing.js")) {
                HttpResponse<String> response = served.get(path);
                assertEquals(StateServer.CSP, response.headers().firstValue("Content-Security-Policy").orElseThrow(), path);
                assertTrue(StateServer.CSP.contains("script-src 'self';") && !StateServer.CSP.contains("unsafe-inline"));
                assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
                assertEquals("no-referrer", response.headers().firstValue("Referrer-Policy").orElseThrow());
            }
        }
    }

    @Test
    void pagesTheirRoutesAndTheChartLibraryAreServedFromTheClasspath() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            HttpResponse<String> index = served.get("/");
            assertEquals(200, index.statusCode());
            assertEquals("text/html; charset=utf-8", index.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(index.body(), served.get("/sessions/20260402_140000_e4c22c").body());
            assertEquals(index.body(), served.get("/analytics").body());
            HttpResponse<String> uplot = served.get("/vendor/uplot/uPlot.esm.js");
            assertEquals(200, uplot.statusCode());
            assertEquals("text/javascript; charset=utf-8", uplot.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(uplot.body().contains("uPlot"));
            assertEquals(200, served.get("/vendor/uplot/uPlot.min.css").statusCode());
            assertEquals(404, served.get("/vendor/uplot/../../../../dev/hermes/state/serve/StateServer.class").statusCode());
            assertEquals(404, served.get("/vendor/uplot/nothing.js").statusCode());
            assertEquals(404, served.get("/dev/hermes/state/serve/StateServer.class").statusCode());
            JsonNode openapi = served.json("/api/openapi.json");
            assertTrue(openapi.get("paths").has("/api/sessions"));
        }
    }

    @Test
    void aRequestForAnotherHostIsRefused() throws Exception {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            int port = served.server.port();
            assertEquals("HTTP/1.1 403 Forbidden", served.rawStatusLine("GET", "/api/sessions", "evil.example:" + port));
            assertEquals("HTTP/1.1 403 Forbidden", served.rawStatusLine("GET", "/", "evil.example"));
            assertEquals("HTTP/1.1 403 Forbidden", served.rawStatusLine("GET", "/", "127.0.0.1:" + (port + 1)));
            assertEquals("HTTP/1.1 200 OK", served.rawStatusLine("GET", "/api/sessions/stats", "127.0.0.1:" + port));
            assertEquals("HTTP/1.1 200 OK", served.rawStatusLine("GET", "/api/sessions/stats", "localhost:" + port));
            assertEquals("HTTP/1.1 200 OK", served.rawStatusLine("GET", "/api/sessions/stats", "[::1]:" + port));
        }
    }

    @Test
    void withATokenEveryRequestNeedsIt() {
        ServeOptions options = new ServeOptions("127.0.0.1", 0, TOKEN);
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), options, Served.V17_NOW)) {
            assertError(served.get("/api/sessions"), 401, "unauthorized", "no token");
            assertError(served.get("/"), 401, "unauthorized", "a page without the token");
            assertError(served.send(HttpRequest.newBuilder(served.uri("/api/sessions"))
                    .header("Authorization", "Bearer wrong-token-0123456789")), 401, "unauthorized", "a wrong token");
            assertError(served.get("/api/sessions?token=wrong-token-0123456789"), 401, "unauthorized", "a wrong ?token=");
            assertEquals(200, served.send(HttpRequest.newBuilder(served.uri("/api/sessions"))
                    .header("Authorization", "Bearer " + TOKEN)).statusCode());

            HttpResponse<String> first = served.get("/sessions?token=" + TOKEN + "&page=2");
            assertEquals(303, first.statusCode());
            assertEquals("/sessions?page=2", first.headers().firstValue("Location").orElseThrow());
            String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
            assertEquals(StateServer.TOKEN_COOKIE + "=" + TOKEN + "; Path=/; HttpOnly; SameSite=Strict", cookie);
            assertEquals(200, served.send(HttpRequest.newBuilder(served.uri("/api/sessions/stats"))
                    .header("Cookie", cookie.substring(0, cookie.indexOf(';')))).statusCode());
            assertEquals(200, served.send(HttpRequest.newBuilder(served.uri("/"))
                    .header("Cookie", "other=1; " + cookie.substring(0, cookie.indexOf(';')))).statusCode());
        }
    }

    @Test
    void anyHostButLoopbackNeedsAToken() {
        for (String host : List.of("0.0.0.0", "192.168.1.20", "::", "example.org")) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> new ServeOptions(host, 0, null));
            assertTrue(refused.getMessage().contains("set an access token"), refused::getMessage);
        }
        for (String host : List.of("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2")) {
            assertEquals(null, new ServeOptions(host, 0, null).token());
        }
        assertEquals(TOKEN, new ServeOptions("0.0.0.0", 0, TOKEN).token());
        assertThrows(InvalidArgumentException.class, () -> new ServeOptions("0.0.0.0", 0, "short"));
        assertThrows(InvalidArgumentException.class, () -> new ServeOptions("127.0.0.1", 70_000, null));
    }

    @Test
    void theServerIsReadOnlyAndLeavesTheFileAsItWas() throws Exception {
        Path file = Fixtures.copy("state-v17.db", dir);
        String before = Fixtures.sha256(file);
        try (StateRepository writable = StateRepository.builder().path(Fixtures.copy("state-v6.db", dir)).schemaVersion(6).build()) {
            InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                    () -> StateServer.start(writable, ServeOptions.loopback(0), null));
            assertEquals("hermes-state serve needs a store opened read-only", refused.getMessage());
        }
        try (Served served = Served.start(StateRepository.openReadOnly(file), Served.V17_NOW)) {
            assertTrue(served.store.isReadOnly());
            for (String path : List.of("/api/sessions", "/api/sessions?order=recent&archived=include",
                    "/api/sessions/20260402_140000_e4c22c", "/api/sessions/20260402_140000_e4c22c/messages",
                    "/api/sessions/20260402_140000_e4c22c/export", "/api/sessions/search?q=Lisbon",
                    "/api/search?q=meteorite", "/api/sessions/stats", "/api/analytics/usage?days=90", "/api/store")) {
                assertEquals(200, served.get(path).statusCode(), path);
            }
            for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
                assertEquals(405, served.send(HttpRequest.newBuilder(served.uri("/api/sessions/20260402_140000_e4c22c"))
                        .method(method, HttpRequest.BodyPublishers.ofString("{\"title\":\"x\",\"archived\":true}"))).statusCode());
            }
            JsonNode store = served.json("/api/store");
            assertTrue(store.get("read_only").asBoolean());
        }
        assertEquals(before, Fixtures.sha256(file));
        assertFalse(java.nio.file.Files.exists(Path.of(file + "-wal")) && java.nio.file.Files.size(Path.of(file + "-wal")) > 0);
    }

    static void assertError(HttpResponse<String> response, int status, String type, String what) {
        assertEquals(status, response.statusCode(), what + ": " + response.body());
        assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").orElseThrow(), what);
        JsonNode error = Served.parse(response.body()).get("error");
        assertEquals(type, error.get("type").asText(), what);
        assertFalse(error.get("message").asText().isBlank(), what);
        assertFalse(response.body().contains("\tat ") || response.body().contains("Exception"), what + ": " + response.body());
    }
}
