package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.PlainSqlWriter;
import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchQuery;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Search latency of {@link new SqliteMessageSearch()} against raw JDBC doing the same work, in the same
 * run, on the v6 fixture and on a generated 100,000-message database (BENCHMARK.md's vocabulary and
 * Zipf sampler, seed 42; W2's 60 queries). Not a test: run it by hand (see the report for the command):
 * <pre>
 *   mvn -q -B -ntp -pl core -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 *   java -cp core/target/test-classes:core/target/classes:$(cat /tmp/cp.txt) dev.hermes.state.core.search.SearchBenchmark [sessions] [rounds]
 * </pre>
 * Baselines, each a plain {@link PreparedStatement} prepared once:
 * <ul>
 *   <li><b>raw page</b>: Hermes' MATCH/snippet/rank statement (limit 20) without the context — less work
 *       than a search, the strict baseline;</li>
 *   <li><b>raw Hermes</b>: that statement plus Hermes' context query once per hit (N+1 round trips);</li>
 *   <li><b>raw same SQL</b>: the very statement our jOOQ search renders: what jOOQ itself costs.</li>
 * </ul>
 * Implementations alternate query by query so that machine load hits all of them alike.
 */
public final class SearchBenchmark {
    private static final String RAW_PAGE_SQL = """
            SELECT m.id, m.session_id, m.role, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet,
                   m.timestamp, m.tool_name, s.source, s.model, s.started_at AS session_started
            FROM messages_fts
            JOIN messages m ON m.id = messages_fts.rowid
            JOIN sessions s ON s.id = m.session_id
            WHERE messages_fts MATCH ?
            ORDER BY rank
            LIMIT ? OFFSET ?""";
    private static final String HERMES_CONTEXT_SQL = """
            WITH target AS (SELECT session_id, timestamp, id FROM messages WHERE id = ?)
            SELECT role, content FROM (
                SELECT m.id, m.timestamp, m.role, m.content FROM messages m JOIN target t ON t.session_id = m.session_id
                WHERE (m.timestamp < t.timestamp) OR (m.timestamp = t.timestamp AND m.id < t.id)
                ORDER BY m.timestamp DESC, m.id DESC LIMIT 1)
            UNION ALL
            SELECT role, content FROM messages WHERE id = ?
            UNION ALL
            SELECT role, content FROM (
                SELECT m.id, m.timestamp, m.role, m.content FROM messages m JOIN target t ON t.session_id = m.session_id
                WHERE (m.timestamp > t.timestamp) OR (m.timestamp = t.timestamp AND m.id > t.id)
                ORDER BY m.timestamp ASC, m.id ASC LIMIT 1)""";

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    /** The cheap rare-word queries run in every round, the slow others in the first 1/RARE_REPEAT of them. */
    private static final int RARE_REPEAT = 5;

    private SearchBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 2500;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path dir = Files.createTempDirectory("hermes-search-bench");
        System.out.printf("java %s, %d cpus, %s%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), dir);

        Path fixture = SearchDatabases.migratedFixture("state-v6.db", dir);
        try (Connection connection = SearchDatabases.open(fixture)) {
            List<String> queries = List.of("docker", "\"database migration\"", "deploy*", "ENDMARKER_7f3a",
                    "kubernetes OR k8s", "\"chat-send\"", "the", "main", "Python");
            run("v6 fixture (95 messages)", connection, Map.of("manifest", queries), 500, rounds * 20);
        }

        Path generated = dir.resolve("generated").resolve("state.db");
        Files.createDirectories(generated.getParent());
        SearchDatabases.newDatabase(generated.getParent());
        try (Connection connection = SearchDatabases.open(generated)) {
            long start = System.nanoTime();
            int messages = BenchmarkCorpus.write(connection, sessions, 40);
            System.out.printf("generated %d sessions, %d messages in %.1f s%n", sessions, messages,
                    (System.nanoTime() - start) / 1e9);
            run("generated (" + messages + " messages)", connection, BenchmarkCorpus.W2, 50, rounds * RARE_REPEAT);
        }
    }

    private static void run(String title, Connection connection, Map<String, List<String>> categories, int warmupRounds,
                            int rounds) throws SQLException {
        Transaction reader = SearchDatabases.reader(connection);
        MessageSearch search = new SqliteMessageSearch();
        Map<String, Timed> implementations = new LinkedHashMap<>();
        try (PreparedStatement page = connection.prepareStatement(RAW_PAGE_SQL);
             PreparedStatement context = connection.prepareStatement(HERMES_CONTEXT_SQL)) {
            // the statement the search executes for each query, with its bind values, captured on its way to the driver
            Map<String, PreparedStatement> sameSql = new LinkedHashMap<>();
            Map<String, List<Object>> sameSqlBinds = new LinkedHashMap<>();
            for (List<String> queries : categories.values()) {
                for (String query : queries) {
                    Recorder recorder = new Recorder(connection);
                    search.search(SearchDatabases.reader(recorder.connection()), SearchQuery.of(query));
                    sameSql.put(query, connection.prepareStatement(recorder.sql));
                    sameSqlBinds.put(query, recorder.binds);
                }
            }
            implementations.put("search", query -> search.search(reader, SearchQuery.of(query)).size());
            implementations.put("raw page", query -> rawPage(page, query, null));
            implementations.put("raw Hermes", query -> rawPage(page, query, context));
            implementations.put("raw same SQL", query -> rawSameSql(sameSql.get(query), sameSqlBinds.get(query)));

            Map<String, Map<String, List<Long>>> samples = new LinkedHashMap<>();
            Map<String, Map<String, List<Long>>> cpuSamples = new LinkedHashMap<>();
            Map<String, Integer> results = new LinkedHashMap<>();
            // warm-up: the cheap queries until the JIT has compiled every path (thousands of calls), then one round of all
            for (int round = -warmupRounds - 1; round < rounds; round++) {
                int queryIndex = 0;
                for (Map.Entry<String, List<String>> category : categories.entrySet()) {
                    boolean cheap = category.getKey().equals("rare") || categories.size() == 1;
                    if (!cheap && (round < -1 || round >= rounds / RARE_REPEAT)) {
                        continue;
                    }
                    for (String query : category.getValue()) {
                        // whoever runs a query first may find its index pages evicted: take turns
                        int first = Math.floorMod(round + queryIndex++, implementations.size());
                        List<String> names = new ArrayList<>(implementations.keySet());
                        for (int i = 0; i < names.size(); i++) {
                            String name = names.get((i + first) % names.size());
                            long cpuStart = CPU.getCurrentThreadCpuTime();
                            long start = System.nanoTime();
                            int count = implementations.get(name).run(query);
                            long nanos = System.nanoTime() - start;
                            long cpuNanos = CPU.getCurrentThreadCpuTime() - cpuStart;
                            if (round >= 0) {
                                samples.computeIfAbsent(category.getKey(), key -> new LinkedHashMap<>())
                                        .computeIfAbsent(name, key -> new ArrayList<>()).add(nanos);
                                cpuSamples.computeIfAbsent(category.getKey(), key -> new LinkedHashMap<>())
                                        .computeIfAbsent(name, key -> new ArrayList<>()).add(cpuNanos);
                            }
                            Integer previous = results.put(name + "|" + query, count);
                            if (previous != null && previous != count) {
                                throw new IllegalStateException(name + " returned " + count + " then " + previous + " for " + query);
                            }
                        }
                        check(results, query, implementations.keySet());
                    }
                }
            }
            report(title + ", wall-clock", samples, implementations.keySet());
            report(title + ", thread CPU time", cpuSamples, implementations.keySet());
            for (PreparedStatement statement : sameSql.values()) {
                statement.close();
            }
        }
    }

    /** Every implementation returns the same number of hits for the query. */
    private static void check(Map<String, Integer> results, String query, Set<String> names) {
        Set<Integer> counts = new HashSet<>();
        for (String name : names) {
            counts.add(results.get(name + "|" + query));
        }
        if (counts.size() != 1) {
            throw new IllegalStateException("implementations disagree on " + query + ": " + results);
        }
    }

    private static void report(String title, Map<String, Map<String, List<Long>>> samples, Set<String> names) {
        System.out.printf("%n== %s: p50 in ms (ratio = search / baseline)%n", title);
        System.out.printf("%-9s %6s %9s %9s %9s %9s %12s %12s %12s%n", "category", "calls", "search", "raw page",
                "raw Hermes", "raw same", "vs page", "vs Hermes", "vs same SQL");
        List<Long> all = new ArrayList<>();
        Map<String, List<Long>> allByName = new LinkedHashMap<>();
        samples.forEach((category, byName) -> {
            double[] p50 = names.stream().mapToDouble(name -> percentile(byName.get(name), 50) / 1e6).toArray();
            System.out.printf("%-9s %6d %9.3f %9.3f %9.3f %9.3f %12.2f %12.2f %12.2f%n", category,
                    byName.values().iterator().next().size(), p50[0], p50[1], p50[2], p50[3],
                    p50[0] / p50[1], p50[0] / p50[2], p50[0] / p50[3]);
            byName.forEach((name, values) -> allByName.computeIfAbsent(name, key -> new ArrayList<>()).addAll(values));
        });
        double[] p50 = names.stream().mapToDouble(name -> percentile(allByName.get(name), 50) / 1e6).toArray();
        System.out.printf("%-9s %6d %9.3f %9.3f %9.3f %9.3f %12.2f %12.2f %12.2f%n", "all",
                allByName.values().iterator().next().size(), p50[0], p50[1], p50[2], p50[3],
                p50[0] / p50[1], p50[0] / p50[2], p50[0] / p50[3]);
    }

    /** Nearest rank, as BENCHMARK.md defines it. */
    private static long percentile(List<Long> values, int percent) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[(int) Math.ceil(percent / 100.0 * sorted.length) - 1];
    }

    @FunctionalInterface
    private interface Timed {
        int run(String query) throws SQLException;
    }

    /** Hermes' statement read into Java values; with {@code context}, Hermes' per-hit context query too. */
    private static int rawPage(PreparedStatement page, String query, PreparedStatement context) throws SQLException {
        page.setString(1, query);
        page.setInt(2, 20);
        page.setInt(3, 0);
        List<Object[]> hits = new ArrayList<>();
        try (ResultSet rows = page.executeQuery()) {
            while (rows.next()) {
                hits.add(new Object[]{rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                        rows.getDouble(5), rows.getString(6), rows.getString(7), rows.getString(8), rows.getDouble(9)});
            }
        }
        if (context != null) {
            for (Object[] hit : hits) {
                context.setLong(1, (Long) hit[0]);
                context.setLong(2, (Long) hit[0]);
                List<String[]> messages = new ArrayList<>(3);
                try (ResultSet rows = context.executeQuery()) {
                    while (rows.next()) {
                        String content = rows.getString(2);
                        messages.add(new String[]{rows.getString(1), cut(content == null ? "" : content)});
                    }
                }
                if (messages.isEmpty()) {
                    throw new IllegalStateException("no context for " + Arrays.toString(hit));
                }
            }
        }
        return hits.size();
    }

    private static String cut(String content) {
        return content.codePointCount(0, content.length()) <= 200 ? content
                : content.substring(0, content.offsetByCodePoints(0, 200));
    }

    private static int rawSameSql(PreparedStatement statement, List<Object> binds) throws SQLException {
        for (int i = 0; i < binds.size(); i++) {
            statement.setObject(i + 1, binds.get(i));
        }
        int count = 0;
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                for (int column = 1; column <= 14; column++) {
                    rows.getObject(column);
                }
                count++;
            }
        }
        return count;
    }

    /** A connection that notes the last statement prepared on it and the values bound to it. */
    private static final class Recorder {
        private final Connection target;
        private String sql;
        private final List<Object> binds = new ArrayList<>();

        Recorder(Connection target) {
            this.target = target;
        }

        Connection connection() {
            return proxy(Connection.class, (proxy, method, args) -> {
                Object result = invoke(target, method, args);
                if (method.getName().equals("prepareStatement")) {
                    sql = (String) args[0];
                    binds.clear();
                    PreparedStatement statement = (PreparedStatement) result;
                    return proxy(PreparedStatement.class, (p, m, a) -> {
                        if (m.getName().equals("setObject")) {
                            binds.add(a[1]);
                        }
                        return invoke(statement, m, a);
                    });
                }
                return result;
            });
        }

        private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private static <T> T proxy(Class<T> type, InvocationHandler handler) {
            return type.cast(Proxy.newProxyInstance(SearchBenchmark.class.getClassLoader(), new Class<?>[]{type}, handler));
        }
    }

    /** BENCHMARK.md section 1: SplitMix64 streams, the ranked vocabulary, the Zipf sampler. */
    static final class BenchmarkCorpus {
        static final Map<String, List<String>> W2 = new LinkedHashMap<>();

        static {
            W2.put("common", List.of("wune", "serai", "sistefout", "poufouten", "covoun", "facutroun", "vosai", "docker",
                    "venin", "stouhain", "kousar", "dofoux", "fubadum", "tozo", "deploy", "zosus", "braja", "lubaitain",
                    "macofoun", "busaix"));
            W2.put("rare", List.of("quasar", "ludon", "ravehair", "necou", "saipiwoul", "gobair", "hohotoum", "tagobrou",
                    "cicer", "bevais"));
            W2.put("phrase", List.of("\"wune serai\"", "\"serai wune\"", "\"wune sistefout\"", "\"serai poufouten\"",
                    "\"sistefout covoun\"", "\"docker deploy\"", "\"deploy docker\"", "\"wune kubernetes\"",
                    "\"postgres migration\"", "\"latency rollback\""));
            W2.put("prefix", List.of("doc*", "dep*", "kub*", "pos*", "mig*", "lat*", "rol*", "wun*", "ser*", "sis*"));
            W2.put("or", List.of("docker OR kubernetes", "postgres OR migration", "latency OR rollback", "deploy OR quasar",
                    "quasar OR rollback", "wune OR serai", "wune OR quasar", "brobrouho OR voutrul",
                    "joukoupail OR ravehair", "bevais OR quasar"));
        }

        private static final String[] ONSETS = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t",
                "v", "w", "z", "br", "ch", "st", "tr"};
        private static final String[] NUCLEI = {"a", "e", "i", "o", "u", "ai", "ou"};
        private static final String[] CODAS = {"", "", "", "n", "r", "s", "l", "x", "m", "t"};

        private static final class SplitMix64 {
            private long state;

            SplitMix64(long seed) {
                state = seed;
            }

            long next() {
                long z = (state += 0x9E3779B97F4A7C15L);
                z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
                z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
                return z ^ (z >>> 31);
            }

            long nextBelow(long n) {
                return (next() >>> 11) % n;
            }
        }

        static List<String> vocabulary() {
            SplitMix64 random = new SplitMix64(42);
            Set<String> excluded = Set.of("docker", "kubernetes", "postgres", "migration", "deploy", "latency",
                    "rollback", "quasar", "and", "or", "not", "near");
            List<String> words = new ArrayList<>();
            Set<String> accepted = new HashSet<>();
            while (words.size() < 2000) {
                int syllables = random.nextBelow(4) == 0 ? 3 : 2;
                StringBuilder word = new StringBuilder();
                for (int s = 0; s < syllables; s++) {
                    word.append(ONSETS[(int) random.nextBelow(22)]).append(NUCLEI[(int) random.nextBelow(7)]);
                }
                word.append(CODAS[(int) random.nextBelow(10)]);
                String candidate = word.toString();
                if (!excluded.contains(candidate) && accepted.add(candidate)) {
                    words.add(candidate);
                }
            }
            String[][] fixed = {{"docker", "8"}, {"deploy", "15"}, {"kubernetes", "40"}, {"postgres", "60"},
                    {"migration", "120"}, {"latency", "250"}, {"rollback", "500"}};
            for (String[] word : fixed) {
                words.add(Integer.parseInt(word[1]) - 1, word[0]);
            }
            return words;
        }

        /** W1's data in W1's order (50 sessions filled in lock-step), written in one transaction. */
        static int write(Connection connection, int sessions, int perSession) throws Exception {
            List<String> vocabulary = vocabulary();
            String fingerprint = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", vocabulary).getBytes(StandardCharsets.UTF_8)));
            if (!fingerprint.equals("3955edcac4a088dcf5cf7fb902c9743ed08c0fcb53fa2add89547b1fe125a958")) {
                throw new IllegalStateException("vocabulary fingerprint " + fingerprint);
            }
            long[] cumulative = new long[vocabulary.size()];
            long total = 0;
            for (int k = 1; k <= vocabulary.size(); k++) {
                total += (long) (1e9 / Math.pow(k, 1.1));
                cumulative[k - 1] = total;
            }
            int messages = sessions * perSession;
            SplitMix64 quasarStream = new SplitMix64(43);
            Map<Integer, Integer> quasar = new LinkedHashMap<>();
            while (quasar.size() < 25) {
                int ordinal = (int) quasarStream.nextBelow(messages);
                int position = (int) quasarStream.nextBelow(40);
                quasar.putIfAbsent(ordinal, position);
            }
            SplitMix64 content = new SplitMix64(44);
            connection.setAutoCommit(false);
            try (PlainSqlWriter writer = new PlainSqlWriter(connection)) {
                String[] sources = {"cli", "telegram", "discord", "slack", "whatsapp"};
                double clock = 1_700_000_000;
                int ordinal = 0;
                for (int wave = 0; wave < sessions; wave += 50) {
                    int waveEnd = Math.min(sessions, wave + 50);
                    for (int i = wave; i < waveEnd; i++) {
                        writer.session(String.format("bench-%06d", i), sources[i % 5], clock += 0.001);
                    }
                    for (int j = 0; j < perSession; j++) {
                        for (int i = wave; i < waveEnd; i++) {
                            String[] words = new String[40];
                            for (int w = 0; w < 40; w++) {
                                long r = content.nextBelow(total);
                                int rank = Arrays.binarySearch(cumulative, r + 1);
                                words[w] = vocabulary.get(rank >= 0 ? rank : -rank - 1);
                            }
                            Integer position = quasar.get(ordinal++);
                            if (position != null) {
                                words[position] = "quasar";
                            }
                            writer.message(String.format("bench-%06d", i), j % 2 == 0 ? "user" : "assistant",
                                    String.join(" ", words), clock += 0.001);
                        }
                    }
                }
            }
            connection.commit();
            connection.setAutoCommit(true);
            return messages;
        }
    }
}
