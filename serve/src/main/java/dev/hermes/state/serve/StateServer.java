package dev.hermes.state.serve;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.StateRepository;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The session browser's HTTP server: the JSON API under {@code /api/}, the pages (classpath
 * {@code dev/hermes/state/serve/web/}) under {@code /}, and the chart library under {@code /vendor/uplot/}.
 * Read-only: the store must be opened read-only, and only GET is answered. Every request reads the store
 * afresh (no lock or transaction is held between requests), so pages see what the agent writes while
 * it runs.
 *
 * <p>Every response carries a Content-Security-Policy that allows scripts, styles and images from this
 * origin only (no inline script). A request whose Host header is not this server's address is refused
 * (a page on another site cannot reach the server through a DNS name it rebinds to 127.0.0.1); with an
 * access token, every request must carry it (see {@link #TOKEN_COOKIE}).
 */
public final class StateServer implements AutoCloseable {
    /** The cookie a first visit with {@code ?token=} sets, so that pages and their API calls carry the token. */
    public static final String TOKEN_COOKIE = "hermes_state_token";
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    private static final String WEB = "dev/hermes/state/serve/web/";
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final int THREADS = 4;

    static {
        // Without TCP_NODELAY the JDK's server sends the headers and the body in separate small writes, and the
        // client's delayed ACK holds the second for ~40 ms: every answer took at least that long. Read once,
        // when the JDK's server first starts in this JVM.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer http;
    private final ThreadPoolExecutor pool;
    private final Api api;
    private final ServeOptions options;
    private final @Nullable PrintStream log;
    private final Set<String> allowedHosts;
    private final int port;

    private StateServer(HttpServer http, ThreadPoolExecutor pool, Api api, ServeOptions options,
                        @Nullable PrintStream log) {
        this.http = http;
        this.pool = pool;
        this.api = api;
        this.options = options;
        this.log = log;
        this.port = http.getAddress().getPort();
        this.allowedHosts = allowedHosts(options.host(), port);
    }

    /**
     * Starts serving {@code store} (which must be read-only) as {@code options} say. {@code log} receives one
     * line per failed request (null: none). Refuses a store opened for writing and a port in use, typed.
     */
    public static StateServer start(StateRepository store, ServeOptions options, @Nullable PrintStream log) {
        return start(store, options, log, Clock.systemUTC());
    }

    /** As {@link #start(StateRepository, ServeOptions, PrintStream)}, with the clock that decides "live" and "the last N days" (tests pin it). */
    public static StateServer start(StateRepository store, ServeOptions options, @Nullable PrintStream log, Clock clock) {
        if (!store.isReadOnly()) {
            throw new InvalidArgumentException("hermes-state serve needs a store opened read-only");
        }
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 64);
        } catch (BindException e) {
            throw new StateIOException("Cannot listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage() + " (another server there? choose one with --port)", e);
        } catch (IOException e) {
            throw new StateIOException("Cannot listen on " + options.host() + ":" + options.port() + ": " + e.getMessage(), e);
        }
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), task -> {
                    Thread thread = new Thread(task, "hermes-state-serve-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        http.setExecutor(pool);
        StateServer server = new StateServer(http, pool, new Api(store, clock), options, log);
        http.createContext("/", server::handle);
        http.start();
        return server;
    }

    /** The port it listens on (the one chosen when the options said 0). */
    public int port() {
        return port;
    }

    /** The address to open in a browser: {@code http://host:port/}. */
    public URI uri() {
        String host = options.host().contains(":") && !options.host().startsWith("[")
                ? "[" + options.host() + "]" : options.host();
        return URI.create("http://" + host + ":" + port + "/");
    }

    /** Stops accepting, closes the connections and stops the threads (a read-only server has nothing to finish). */
    @Override
    public void close() {
        http.stop(0);
        pool.shutdown();
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ requests

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Headers headers = exchange.getResponseHeaders();
            headers.set("Content-Security-Policy", CSP);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Cross-Origin-Resource-Policy", "same-origin");
            try {
                respond(exchange);
            } catch (ApiException e) {
                error(exchange, e.status(), e.type(), e.getMessage());
            } catch (InvalidArgumentException e) {
                error(exchange, 400, "bad_request", e.getMessage());
            } catch (HermesStateException e) {
                logFailure(exchange, e);
                error(exchange, 503, "store_error", "The store could not answer: " + e.getMessage());
            } catch (RuntimeException e) {
                logFailure(exchange, e);
                error(exchange, 500, "internal_error", "The server failed to answer this request");
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    private void respond(HttpExchange exchange) throws IOException {
        URI uri = exchange.getRequestURI();
        String path = uri.getPath();
        if (!allowedHosts.contains(hostHeader(exchange))) {
            throw new ApiException(403, "forbidden_host", "This server answers only requests addressed to "
                    + String.join(" or ", allowedHosts.stream().sorted().toList()));
        }
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            throw new ApiException(405, "method_not_allowed", "The server is read-only: only GET is answered");
        }
        if (path == null || path.contains("..") || path.contains("\\") || path.contains("//") || path.indexOf('\0') >= 0) {
            throw ApiException.notFound("No such path");
        }
        Params params = Params.parse(uri.getRawQuery());
        String token = options.token();
        if (token != null) {
            String given = params.text("token");
            if (given != null && matches(given, token)) {
                exchange.getResponseHeaders().add("Set-Cookie", TOKEN_COOKIE + "=" + token
                        + "; Path=/; HttpOnly; SameSite=Strict");
                if (!path.startsWith("/api/")) {
                    exchange.getResponseHeaders().set("Location", withoutToken(uri));
                    exchange.getResponseHeaders().set("Cache-Control", "no-store");
                    exchange.sendResponseHeaders(303, -1);
                    return;
                }
            } else if (!authorized(exchange, token)) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"hermes-state\"");
                throw new ApiException(401, "unauthorized", "This server needs its access token: send"
                        + " 'Authorization: Bearer TOKEN', or open the page once with ?token=TOKEN");
            }
        }
        if (path.startsWith("/api/")) {
            if (path.equals("/api/openapi.json")) {
                resource(exchange, WEB.replace("web/", "") + "openapi.json", "application/json", false);
                return;
            }
            Optional<Object> answer = api.get(path, params);
            if (answer.isEmpty()) {
                throw ApiException.notFound("No API endpoint " + path);
            }
            Object document = answer.get();
            if (document instanceof Api.Attachment attachment) {
                exchange.getResponseHeaders().set("Content-Disposition",
                        "attachment; filename=\"" + attachment.filename().replaceAll("[^A-Za-z0-9._-]", "_") + "\"");
                document = attachment.document();
            }
            send(exchange, 200, "application/json", Json.bytes(document), "no-store");
            return;
        }
        if (path.startsWith("/vendor/uplot/")) {
            String file = path.substring("/vendor/uplot/".length());
            resource(exchange, UPLOT + file, contentType(file), true);
            return;
        }
        String file = path.equals("/") ? "index.html" : path.substring(1);
        if (!file.contains(".")) {
            file = "index.html"; // the pages' own routes (/sessions/ID, /search, /analytics)
        }
        resource(exchange, WEB + file, contentType(file), false);
    }

    private void resource(HttpExchange exchange, String name, String type, boolean immutable) throws IOException {
        if (name.endsWith("/") || name.isEmpty()) {
            throw ApiException.notFound("No such file");
        }
        byte[] body;
        try (InputStream in = StateServer.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw ApiException.notFound("No such file");
            }
            body = in.readAllBytes();
        }
        send(exchange, 200, type, body, immutable ? "public, max-age=86400" : "no-cache");
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body, String cache) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        headers.set("Content-Type", type.startsWith("text/") || type.equals("application/json")
                || type.equals("image/svg+xml") ? type + "; charset=utf-8" : type);
        headers.set("Cache-Control", cache);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static void error(HttpExchange exchange, int status, String type, @Nullable String message) throws IOException {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type);
        error.put("message", message == null ? type : message);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("error", error);
        document.put("detail", message == null ? type : message); // FastAPI's key, which the dashboard's clients read
        exchange.getResponseHeaders().remove("Content-Disposition");
        send(exchange, status, "application/json", Json.bytes(document), "no-store");
    }

    private void logFailure(HttpExchange exchange, Exception e) {
        if (log != null) {
            log.println("hermes-state serve: " + exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath()
                    + " failed: " + e);
        }
    }

    // ------------------------------------------------------------------ access

    private static String hostHeader(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        return host == null ? "" : host.strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The Host headers a request may carry: the bound address with its port, and for a loopback address
     * every name of the loopback. On a wildcard address (0.0.0.0, ::), which a token must protect, any
     * host: the machine's names are not known here, and a rebinding page cannot know the token.
     */
    static Set<String> allowedHosts(String host, int port) {
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (bare.equals("0.0.0.0") || bare.equals("::")) {
            return new AnyHost();
        }
        Set<String> hosts = new java.util.TreeSet<>();
        hosts.add(authority(bare, port));
        if (ServeOptions.isLoopback(bare)) {
            hosts.addAll(List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port));
        }
        return hosts;
    }

    private static String authority(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host).toLowerCase(Locale.ROOT) + ":" + port;
    }

    private static boolean authorized(HttpExchange exchange, String token) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && matches(authorization.substring(7).strip(), token)) {
            return true;
        }
        List<String> cookies = exchange.getRequestHeaders().get("Cookie");
        if (cookies != null) {
            for (String header : cookies) {
                for (String cookie : header.split(";", -1)) {
                    String c = cookie.strip();
                    if (c.startsWith(TOKEN_COOKIE + "=") && matches(c.substring(TOKEN_COOKIE.length() + 1), token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean matches(String given, String token) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    private static String withoutToken(URI uri) {
        String query = uri.getRawQuery();
        StringBuilder kept = new StringBuilder();
        if (query != null) {
            for (String pair : query.split("&", -1)) {
                if (!pair.startsWith("token=") && !pair.equals("token") && !pair.isEmpty()) {
                    kept.append(kept.length() == 0 ? "?" : "&").append(pair);
                }
            }
        }
        return uri.getRawPath() + kept;
    }

    static String contentType(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        int dot = lower.lastIndexOf('.');
        String extension = dot < 0 ? "" : lower.substring(dot + 1);
        return switch (extension) {
            case "html" -> "text/html";
            case "js", "mjs" -> "text/javascript";
            case "css" -> "text/css";
            case "json", "map" -> "application/json";
            case "svg" -> "image/svg+xml";
            case "png" -> "image/png";
            case "ico" -> "image/x-icon";
            case "woff2" -> "font/woff2";
            case "txt", "ts" -> "text/plain";
            default -> "application/octet-stream";
        };
    }

    /** Every Host header. */
    private static final class AnyHost extends java.util.AbstractSet<String> {
        @Override
        public boolean contains(Object o) {
            return true;
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("any host").iterator();
        }

        @Override
        public int size() {
            return 1;
        }
    }
}
