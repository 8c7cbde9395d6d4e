package dev.hermes.state.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.IngestPlan.Append;
import dev.hermes.state.bench.data.Turn;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.TokenUsage;
import dev.hermes.state.serve.ServeOptions;
import dev.hermes.state.serve.StateServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import org.jspecify.annotations.Nullable;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.sqlite.SqliteFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code bench serve}: the latency of every API call of {@code hermes-state serve} on the benchmark's store
 * (S sessions of M messages, W1's content, spread over the last 90 days, with token counts, plus one
 * conversation of 2,000 messages), over real HTTP on loopback, one request at a time, after a warm-up;
 * with raw-JDBC baselines of three of the reads on the same file. The store is built once and kept
 * (target/bench/serve-S…-M….db): building it takes about a minute.
 */
@Command(name = "serve", description = {"Time every API call of hermes-state serve (p50, p95 over N requests) on a "
        + "store of S sessions x M messages (default 5000 x 40 = 200,000 messages), SQLite, read-only."})
final class ServeBenchCommand implements Callable<Integer> {
    private static final String BIG_SESSION = "bench_big_2000";
    private static final int BIG_MESSAGES = 2000;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    @SuppressWarnings("UnusedVariable") // set by picocli, which prints the help itself
    private boolean help;

    @Option(names = "--sessions", paramLabel = "S", description = "Sessions (default " + Workload.DEFAULT_SESSIONS + ").")
    private int sessions = Workload.DEFAULT_SESSIONS;

    @Option(names = "--messages", paramLabel = "M", description = "Messages per session (default " + Workload.DEFAULT_MESSAGES + ").")
    private int messages = Workload.DEFAULT_MESSAGES;

    @Option(names = "--requests", paramLabel = "N", description = "Timed requests per endpoint (default ${DEFAULT-VALUE}).")
    private int requests = 200;

    private final Path workDir;
    private final PrintStream out;
    private final PrintStream err;

    ServeBenchCommand(Path workDir, PrintStream out, PrintStream err) {
        this.workDir = workDir;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws Exception {
        Path file = workDir.resolve("serve-S" + sessions + "-M" + messages + ".db").toAbsolutePath();
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent());
            long started = System.nanoTime();
            build(file);
            out.printf(Locale.ROOT, "built %s in %.1f s%n", file, (System.nanoTime() - started) / 1e9);
        }
        try (StateRepository store = StateRepository.openReadOnly(file);
             StateServer server = StateServer.start(store, ServeOptions.loopback(0), err)) {
            String base = "http://127.0.0.1:" + server.port();
            HttpClient client = HttpClient.newHttpClient();
            ObjectMapper json = new ObjectMapper();
            JsonNode firstPage = json.readTree(body(client, base + "/api/sessions?limit=20"));
            String someId = firstPage.get("sessions").get(3).get("id").asText();
            String cursor = firstPage.get("next_cursor").asText();
            for (int page = 0; page < 100; page++) { // a cursor 2,000 sessions deep
                cursor = json.readTree(body(client, base + "/api/sessions?limit=20&cursor=" + cursor)).get("next_cursor").asText();
            }
            Map<String, String> calls = new LinkedHashMap<>();
            calls.put("sessions, first page", "/api/sessions?limit=20");
            calls.put("sessions, keyset page 2,000 deep", "/api/sessions?limit=20&cursor=" + cursor);
            calls.put("sessions, offset 2,000 (dashboard)", "/api/sessions?limit=20&offset=2000");
            calls.put("sessions, order=recent", "/api/sessions?limit=20&order=recent");
            calls.put("sessions, source+model+dates", "/api/sessions?limit=20&source=telegram&model=" + Workload.MODEL
                    + "&from=" + java.time.LocalDate.now(java.time.ZoneOffset.UTC).minusDays(30));
            calls.put("sessions, kind=chats archived=include", "/api/sessions?limit=20&kind=chats&archived=include");
            calls.put("sessions, q (id/title)", "/api/sessions?q=bench_00042");
            calls.put("session", "/api/sessions/" + someId);
            calls.put("messages, 40-message session", "/api/sessions/" + someId + "/messages");
            calls.put("messages, 2,000-message session", "/api/sessions/" + BIG_SESSION + "/messages");
            calls.put("messages, 2,000-message session, 200", "/api/sessions/" + BIG_SESSION + "/messages?limit=200");
            calls.put("export, 40-message session", "/api/sessions/" + someId + "/export");
            calls.put("lineage", "/api/sessions/" + someId + "/lineage");
            calls.put("sessions/search (dashboard)", "/api/sessions/search?q=quasar");
            calls.put("search, messages", "/api/search?q=quasar");
            calls.put("search, common word", "/api/search?q=the");
            calls.put("sessions/stats", "/api/sessions/stats");
            calls.put("analytics/usage 7 days", "/api/analytics/usage?days=7");
            calls.put("analytics/usage 30 days", "/api/analytics/usage?days=30");
            calls.put("analytics/usage 90 days", "/api/analytics/usage?days=90");
            calls.put("store", "/api/store");
            calls.put("page (index.html)", "/");
            calls.put("uPlot script", "/vendor/uplot/uPlot.esm.js");
            out.printf(Locale.ROOT, "hermes-state serve on %s (%d sessions, %,d messages), %d requests each, one at a time%n",
                    file.getFileName(), store.sessionCount(), store.messageCount(null), requests);
            out.printf(Locale.ROOT, "%-40s %9s %9s %9s %10s %9s%n", "call", "p50 ms", "p95 ms", "max ms", "bytes", "first ms");
            for (Map.Entry<String, String> call : calls.entrySet()) {
                URI uri = URI.create(base + call.getValue());
                int bytes = 0;
                long first = 0;
                for (int i = 0; i < 20; i++) {
                    long before = System.nanoTime();
                    bytes = send(client, uri).length();
                    if (i == 0) {
                        first = System.nanoTime() - before;
                    }
                }
                long[] times = new long[requests];
                for (int i = 0; i < requests; i++) {
                    long before = System.nanoTime();
                    send(client, uri);
                    times[i] = System.nanoTime() - before;
                }
                print(call.getKey(), times, bytes, first / 1e6);
            }
            raw(file, someId);
        }
        return 0;
    }

    /** Three of the reads in plain JDBC on the same file: the floor under the API's figures. */
    private void raw(Path file, String someId) throws Exception {
        out.println("raw JDBC baselines (same file, read-only connection, no HTTP, no JSON):");
        // through SqliteConnections: the server's store has this file open in this process, whose locks a
        // second, unregistered connection's close would drop
        try (Connection c = SqliteConnections.open(file, RetryPolicy.HERMES, true)) {
            time(c, "raw: first page of sessions", "SELECT * FROM sessions WHERE parent_session_id IS NULL"
                    + " ORDER BY started_at DESC, id DESC LIMIT 20", null);
            time(c, "raw: messages of a 40-message session", "SELECT * FROM messages WHERE session_id = ? ORDER BY id", someId);
            time(c, "raw: messages of the 2,000-message session", "SELECT * FROM messages WHERE session_id = ? ORDER BY id", BIG_SESSION);
            time(c, "raw: usage per day, 90 days", "SELECT CAST(started_at / 86400 AS INTEGER) d, COUNT(*), SUM(input_tokens),"
                    + " SUM(output_tokens), SUM(cache_read_tokens), SUM(estimated_cost_usd) FROM sessions"
                    + " WHERE started_at > strftime('%s','now') - 90*86400 GROUP BY d ORDER BY d", null);
        }
    }

    private void time(Connection c, String name, String sql, @Nullable String arg) throws Exception {
        long[] times = new long[requests];
        int rows = 0;
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = -20; i < requests; i++) {
                long before = System.nanoTime();
                if (arg != null) {
                    statement.setString(1, arg);
                }
                rows = 0;
                try (ResultSet result = statement.executeQuery()) {
                    int columns = result.getMetaData().getColumnCount();
                    while (result.next()) {
                        for (int col = 1; col <= columns; col++) {
                            result.getObject(col);
                        }
                        rows++;
                    }
                }
                if (i >= 0) {
                    times[i] = System.nanoTime() - before;
                }
            }
        }
        print(name, times, rows, Double.NaN);
    }

    /** One row: p50, p95, max, the answer's size, and the first (cold) request when there was one. */
    private void print(String name, long[] times, int size, double firstMs) {
        long[] sorted = times.clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "%-40s %9.2f %9.2f %9.2f %10d %9s%n", name, sorted[sorted.length / 2] / 1e6,
                sorted[(int) Math.ceil(sorted.length * 0.95) - 1] / 1e6, sorted[sorted.length - 1] / 1e6, size,
                Double.isNaN(firstMs) ? "" : String.format(Locale.ROOT, "%.2f", firstMs));
    }

    private static String body(HttpClient client, String uri) throws Exception {
        return send(client, URI.create(uri));
    }

    private static String send(HttpClient client, URI uri) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /**
     * W1's sessions and messages, one transaction per session, started evenly over the last 90 days
     * (the store's clock is moved for each), each with token counts and costs, and one long conversation.
     */
    private void build(Path file) {
        MovableClock clock = new MovableClock(Instant.now().minus(Duration.ofDays(90)));
        Duration step = Duration.ofDays(90).dividedBy(sessions + 1);
        IngestPlan plan = IngestPlan.build(sessions, messages, new ZipfSampler(Vocabulary.build()));
        List<List<Append>> bySession = plan.appendsBySession();
        try (StateRepository store = StateRepository.builder().path(file).clock(clock).build()) {
            for (IngestPlan.Step s : plan.steps()) {
                if (s instanceof IngestPlan.CreateSession create) {
                    clock.now = clock.now.plus(step);
                    String model = create.index() % 3 == 0 ? "bench/model-b" : Workload.MODEL;
                    store.createSession(NewSession.builder(create.id(), create.source()).model(model).build());
                    store.appendMessages(create.id(), bySession.get(create.index()).stream().map(Append::message).toList());
                    int i = create.index();
                    store.updateTokenCounts(create.id(), TokenUsage.builder().inputTokens(1000 + i % 700)
                            .outputTokens(200 + i % 300).cacheReadTokens(500 + i % 400).cacheWriteTokens(i % 50)
                            .reasoningTokens(i % 120).estimatedCostUsd(0.001 * (i % 37)).actualCostUsd(0.0009 * (i % 37))
                            .apiCallCount(1 + i % 4).build());
                    store.endSession(create.id(), "cli_close");
                }
            }
            store.createSession(NewSession.builder(BIG_SESSION, "cli").model(Workload.MODEL).build());
            List<NewMessage> big = new ArrayList<>(BIG_MESSAGES);
            List<Turn> script = Turn.script(BIG_MESSAGES);
            for (int i = 0; i < BIG_MESSAGES; i++) {
                big.add(script.get(i).message("Message " + i + " of the long conversation: **bold**, `code`, a [link]"
                        + "(https://example.org/" + i + ") and a list:\n\n- one\n- two\n", i));
            }
            store.appendMessages(BIG_SESSION, big);
        }
    }

    /** A clock the build moves forward session by session. */
    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
