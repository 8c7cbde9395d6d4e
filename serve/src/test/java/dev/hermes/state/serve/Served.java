package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.StateRepository;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** A store served on a free loopback port, and a client for it. Closes both. */
final class Served implements AutoCloseable {
    /** A minute after the last session of state-v17.db started: its newest sessions are live, all are in "the last 7 days". */
    static final Instant V17_NOW = Instant.ofEpochSecond(1_796_159_161L);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    final StateRepository store;
    final StateServer server;

    private Served(StateRepository store, StateServer server) {
        this.store = store;
        this.server = server;
    }

    static Served start(StateRepository store, ServeOptions options, Instant now) {
        return new Served(store, StateServer.start(store, options, System.err, Clock.fixed(now, ZoneOffset.UTC)));
    }

    static Served start(StateRepository store, Instant now) {
        return start(store, ServeOptions.loopback(0), now);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).GET());
    }

    /** GET, expecting 200 and JSON. */
    JsonNode json(String pathAndQuery) {
        HttpResponse<String> response = get(pathAndQuery);
        if (response.statusCode() != 200) {
            throw new AssertionError(pathAndQuery + " answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response.body());
    }

    static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    /** A raw HTTP/1.1 request with any Host header (the JDK's client will not send one of its choosing); the status line. */
    String rawStatusLine(String method, String path, String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    @Override
    public void close() {
        server.close();
        store.close();
    }
}
