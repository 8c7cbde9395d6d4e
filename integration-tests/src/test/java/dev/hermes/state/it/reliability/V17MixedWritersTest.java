package dev.hermes.state.it.reliability;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.testsupport.SqliteFiles;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RewindResult;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Python;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Python process writing a schema-17 file the way the agent does at 17 (rows born active, rewinds and
 * compactions as flag updates, the archive flag, titles, list content behind the NUL + "json:" marker)
 * and hermes-state writing the same kinds of things to the same file through StateRepository, at the
 * same time. Afterwards each side must read the other's writes exactly (typed content included), nothing
 * may be lost, every message must be found by its own word exactly when the agent's search shows it
 * (active, or compacted), and the file must pass SQLite's and both FTS5 indexes' integrity checks.
 *
 * <p>One thing the checks cannot make version-proof: SQLite's trigram tokenizer changed how it treats a
 * NUL character. Older builds (3.40, what Debian's python3 links) stop at the NUL, so a marked list row
 * gets no trigram entries at all; newer ones (sqlite-jdbc's) index past it. A file holding marked rows
 * indexed by the other kind of build then fails the trigram integrity-check, whoever wrote the rows.
 * The test probes the Python build: when it tokenizes like sqlite-jdbc the check must pass; when not,
 * the failure must be exactly that (a rebuild of the trigram index under sqlite-jdbc passes, on a copy).
 */
class V17MixedWritersTest {
    private static final System.Logger LOG = System.getLogger(V17MixedWritersTest.class.getName());

    private static final int PYTHON_ROUNDS = Integer.getInteger("hermes.reliability.v17Rounds", 250);
    private static final int JAVA_ROUNDS = PYTHON_ROUNDS;
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);
    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() { };
    private static final String IMAGE = "data:image/png;base64,iVBORw0KGgo=";

    @TempDir
    Path dir;

    private final List<ChildProcess> children = new ArrayList<>();

    @AfterEach
    void closeChildren() {
        children.forEach(ChildProcess::close);
    }

    @Test
    void agentStyleAndJavaWritersReadEachOthersWritesExactly() throws Exception {
        Python.requireSqlite3();
        long seed = Seeds.seed("v17 mixed writers");
        String context = Seeds.replay(seed);
        Path db = dir.resolve("state.db");
        Path script = dir.resolve("v17_writer.py");
        try (InputStream in = V17MixedWritersTest.class.getResourceAsStream("/reliability/v17_writer.py")) {
            Files.copy(in, script);
        }
        try (StateRepository store = StateRepository.builder().path(db).schemaVersion(17).build()) {
            store.sessionCount(); // the file exists at schema 17 before the Python side opens it
            ChildProcess python = Command.python(script.toString(), db.toString(), "py",
                    String.valueOf(seed & 0x7fffffff), String.valueOf(PYTHON_ROUNDS)).start();
            children.add(python);
            assertTrue(python.awaitLines(1, Duration.ofSeconds(60)), context + python.transcript());

            JavaWriter java = new JavaWriter(store, new Random(seed));
            CompletableFuture<Void> javaDone = CompletableFuture.runAsync(() -> {
                for (int round = 0; round < JAVA_ROUNDS; round++) {
                    java.round(round);
                    java.checkReportedAppends(python);
                }
            });
            javaDone.get(120, TimeUnit.SECONDS);
            assertTrue(python.awaitLines(2, Duration.ofSeconds(120)), context + python.transcript());
            waitForLine(python, "DONE ");
            List<String> errors = python.lines().stream().filter(line -> line.startsWith("ERROR")).toList();
            assertEquals(List.of(), errors, context + "the Python writer saw errors\n" + python.transcript());
            python.send("VIEW");
            waitForLine(python, "VIEW ");
            assertEquals(0, python.waitFor(Duration.ofSeconds(60)), context + python.transcript());

            Map<String, Object> pythonModel = json(line(python, "MODEL "));
            Map<String, Object> pythonView = json(line(python, "VIEW "));
            line(python, "DONE ");
            assertTrue(java.reportedChecked > 0, context + "the Java side never saw a Python append while writing");
            assertEquals(List.of(), java.missingReported, context + "Python appends reported committed but not read");

            // each side reads the other's writes exactly (and its own)
            assertEquals(java.model(), subset(pythonView, java.sessions.keySet()), context + "what Python reads of Java's sessions");
            assertEquals(stripWords(pythonModel), subset(pythonView, pythonModel.keySet()), context + "what Python reads of its own");
            assertEquals(stripWords(pythonModel), read(store, pythonModel.keySet()), context + "what Java reads of Python's sessions");
            assertEquals(java.model(), read(store, java.sessions.keySet()), context + "what Java reads of its own");
            assertEquals(new TreeMap<>(pythonView).keySet(), union(pythonModel.keySet(), java.sessions.keySet()),
                    context + "no session but the writers'");
            assertTypedContent(store, pythonModel, context);

            // search finds every message by its word exactly when the agent shows it; listings and counts
            Map<String, Object> all = new LinkedHashMap<>(pythonModel);
            all.putAll(java.wordModel());
            assertEquals(List.of(), searchMismatches(store, all), context + "search by each message's own word");
            for (var side : Map.of("py", pythonModel, "java", java.wordModel()).entrySet()) {
                String source = side.getKey().equals("py") ? "python" : JavaWriter.SOURCE;
                Set<String> unarchived = new TreeSet<>();
                side.getValue().forEach((id, s) -> {
                    if (number(map(s).get("archived")) == 0) {
                        unarchived.add(id);
                    }
                });
                List<RichSession> listed = store.listSessionsRich(ListSessionsQuery.builder().source(source).limit(1000).build());
                assertEquals(unarchived, new TreeSet<>(listed.stream().map(r -> r.session().id()).toList()),
                        context + "list_sessions_rich of " + source);
                assertEquals(unarchived.size(), store.sessionCount(source), context + "session_count of " + source);
            }
        }

        try (Connection connection = SqliteFiles.readWrite(db)) {
            assertEquals(null, ftsCheck(connection, "messages_fts"), context + "messages_fts integrity-check");
            String trigram = ftsCheck(connection, "messages_fts_trigram");
            if (pythonIndexesPastNul(dir) == jdbcIndexesPastNul(connection)) {
                assertEquals("ok", StoreFiles.integrityCheck(connection), context + "PRAGMA integrity_check");
                assertNull(trigram, context + "messages_fts_trigram integrity-check");
            } else {
                // the builds disagree on NUL: only the marked rows Python's build indexed are out of step
                LOG.log(System.Logger.Level.INFO, "python3's SQLite stops the trigram tokenizer at NUL,"
                        + " sqlite-jdbc's does not; trigram integrity-check under sqlite-jdbc: " + trigram);
                assertEquals("malformed inverted index for FTS5 table main.messages_fts_trigram",
                        StoreFiles.integrityCheck(connection), context + "PRAGMA integrity_check: only the trigram index");
                assertTrue(trigram != null && trigram.contains("malformed"), context + "expected the NUL tokenizer difference, got " + trigram);
            }
        }
        Path copy = dir.resolve("rebuilt.db");
        try (Connection connection = SqliteFiles.readWrite(db); Statement statement = connection.createStatement()) {
            statement.execute("VACUUM INTO '" + copy + "'");
        }
        try (Connection connection = SqliteFiles.readWrite(copy); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild')");
            assertEquals("ok", StoreFiles.integrityCheck(connection), context + "PRAGMA integrity_check after a rebuild");
            assertNull(ftsCheck(connection, "messages_fts"), context + "messages_fts after a rebuild");
            assertNull(ftsCheck(connection, "messages_fts_trigram"), context + "messages_fts_trigram after a rebuild");
        }
    }

    /** The hermes-state writer: the same kinds of writes through StateRepository, with its model of them. */
    private static final class JavaWriter {
        static final String SOURCE = "java";
        private final StateRepository store;
        private final Random random;
        /** session id → title, archived, counters and its messages (each with its word), as Python's model. */
        final Map<String, Map<String, Object>> sessions = new TreeMap<>();
        final List<String> missingReported = new ArrayList<>();
        long writes;
        long reportedChecked;
        private int words;
        private int reportedSeen;

        JavaWriter(StateRepository store, Random random) {
            this.store = store;
            this.random = random;
        }

        void round(int number) {
            if (number % 10 == 0) {
                String id = "java-s" + number / 10;
                store.createSession(NewSession.builder(id, SOURCE).model("test-model").build());
                writes++;
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("title", null);
                s.put("archived", 0L);
                s.put("rewind_count", 0L);
                s.put("message_count", 0L);
                s.put("tool_call_count", 0L);
                s.put("messages", new ArrayList<Map<String, Object>>());
                sessions.put(id, s);
            }
            List<String> ids = new ArrayList<>(sessions.keySet());
            String sid = ids.get(random.nextInt(ids.size()));
            Map<String, Object> s = sessions.get(sid);
            for (int i = random.nextInt(3); i >= 0; i--) {
                append(sid, s);
            }
            double r = random.nextDouble();
            if (r < 0.25) {
                String title = "java title " + number;
                assertTrue(store.setSessionTitle(sid, title));
                writes++;
                s.put("title", title);
            } else if (r < 0.45) {
                rewind(sid, s, random.nextBoolean());
            } else if (r < 0.55) {
                long archived = 1 - number(s.get("archived"));
                assertTrue(store.setSessionArchived(sid, archived == 1));
                writes++;
                s.put("archived", archived);
            } else if (r < 0.60) {
                compact(sid, s);
            }
        }

        private String word() {
            return "wjava" + ++words + "x";
        }

        private void append(String sid, Map<String, Object> s) {
            String word = word();
            NewMessage message;
            Object content;
            Object toolCalls = null;
            String toolName = null;
            String toolCallId = null;
            String role;
            switch (random.nextInt(4)) {
                case 0 -> {
                    role = "user";
                    content = "please check " + word + " and the docker logs";
                    message = NewMessage.builder(role).content((String) content).build();
                }
                case 1 -> {
                    role = "user";
                    content = List.of(Map.of("type", "text", "text", "look at " + word),
                            Map.of("type", "image_url", "image_url", Map.of("url", IMAGE)));
                    message = NewMessage.builder(role).parts((List<?>) content).build();
                }
                case 2 -> {
                    role = "assistant";
                    content = "running " + word;
                    List<Map<String, Object>> calls = new ArrayList<>();
                    for (int i = random.nextInt(3); i >= 0; i--) {
                        calls.add(Map.of("id", "call_" + word + "_" + calls.size(), "type", "function",
                                "function", Map.of("name", "terminal", "arguments", "{\"command\": \"ls " + calls.size() + "\"}")));
                    }
                    toolCalls = calls;
                    message = NewMessage.builder(role).content((String) content).toolCalls(ToolCalls.json(calls)).build();
                }
                default -> {
                    role = "tool";
                    content = "output " + word + " total 0";
                    toolName = "terminal";
                    toolCallId = "call_" + word;
                    message = NewMessage.builder(role).content((String) content).toolName(toolName).toolCallId(toolCallId).build();
                }
            }
            long id = store.appendMessage(sid, message);
            writes++;
            messages(s).add(row(id, role, content, toolCalls, toolName, toolCallId, 1, 0, word));
            s.put("message_count", number(s.get("message_count")) + 1);
            s.put("tool_call_count", number(s.get("tool_call_count")) + (toolCalls == null ? 0 : ((List<?>) toolCalls).size()));
        }

        private void rewind(String sid, Map<String, Object> s, boolean restore) {
            List<Map<String, Object>> users = messages(s).stream()
                    .filter(m -> m.get("role").equals("user") && number(m.get("active")) == 1).toList();
            if (users.isEmpty()) {
                return;
            }
            long target = number(users.get(random.nextInt(users.size())).get("id"));
            RewindResult result = store.rewindToMessage(sid, target);
            writes++;
            int flipped = 0;
            for (Map<String, Object> m : messages(s)) {
                if (number(m.get("id")) >= target && number(m.get("active")) == 1) {
                    m.put("active", 0L);
                    flipped++;
                }
            }
            assertEquals(flipped, result.rewoundCount(), "rewind of " + sid + " at " + target);
            s.put("rewind_count", number(s.get("rewind_count")) + 1);
            if (restore) {
                int back = store.restoreRewound(sid, target);
                writes++;
                int restored = 0;
                for (Map<String, Object> m : messages(s)) {
                    if (number(m.get("id")) >= target && number(m.get("active")) == 0) {
                        m.put("active", 1L);
                        restored++;
                    }
                }
                assertEquals(restored, back, "restore of " + sid + " at " + target);
            }
        }

        private void compact(String sid, Map<String, Object> s) {
            String first = word();
            String second = word();
            List<Object> contents = List.of("summary " + first + " of the earlier turns",
                    List.of(Map.of("type", "text", "text", "noted " + second)));
            List<NewMessage> summary = List.of(NewMessage.builder("user").content((String) contents.get(0)).build(),
                    NewMessage.builder("assistant").parts((List<?>) contents.get(1)).build());
            assertEquals(2, store.archiveAndCompact(sid, summary));
            writes++;
            for (Map<String, Object> m : messages(s)) {
                if (number(m.get("active")) == 1) {
                    m.put("active", 0L);
                    m.put("compacted", 1L);
                }
            }
            List<Message> live = store.getMessages(sid);
            assertEquals(2, live.size(), "live rows after the compaction of " + sid);
            messages(s).add(row(live.get(0).id(), "user", contents.get(0), null, null, null, 1, 0, first));
            messages(s).add(row(live.get(1).id(), "assistant", contents.get(1), null, null, null, 1, 0, second));
            s.put("message_count", 2L);
            s.put("tool_call_count", 0L);
        }

        /** Every append the Python side has reported since the last look must be readable here now. */
        void checkReportedAppends(ChildProcess python) {
            List<String> lines = python.lines();
            for (int i = reportedSeen; i < lines.size(); i++) {
                String[] parts = lines.get(i).split(" ");
                if (parts.length == 3 && parts[0].equals("M")) {
                    long id = Long.parseLong(parts[2]);
                    if (store.getMessages(parts[1], true).stream().noneMatch(m -> m.id() == id)) {
                        missingReported.add(lines.get(i));
                    }
                    reportedChecked++;
                }
            }
            reportedSeen = lines.size();
        }

        /** The model without the words, as the file holds it. */
        Map<String, Object> model() {
            return stripWords(wordModel());
        }

        Map<String, Object> wordModel() {
            return JSON.convertValue(sessions, JSON_OBJECT);
        }
    }

    private static Map<String, Object> row(long id, String role, Object content, Object toolCalls, String toolName,
                                           String toolCallId, long active, long compacted, String word) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("role", role);
        row.put("content", content);
        row.put("tool_calls", toolCalls);
        row.put("tool_name", toolName);
        row.put("tool_call_id", toolCallId);
        row.put("active", active);
        row.put("compacted", compacted);
        row.put("word", word);
        return row;
    }

    /** The sessions as hermes-state reads them, in the models' shape (source left out, as in the models). */
    private static Map<String, Object> read(StateRepository store, Set<String> ids) {
        Map<String, Object> out = new TreeMap<>();
        for (String id : ids) {
            Session session = store.getSession(id).orElseThrow();
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("title", session.title());
            s.put("archived", session.archived() ? 1L : 0L);
            s.put("rewind_count", session.rewindCount());
            s.put("message_count", session.messageCount());
            s.put("tool_call_count", session.toolCallCount());
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Message m : store.getMessages(id, true)) {
                Object content = m.content() instanceof MessageContent.Text text ? text.text()
                        : m.content() instanceof MessageContent.Structured structured ? structured.value() : null;
                Map<String, Object> r = row(m.id(), m.role(), content, m.toolCalls() == null ? null : m.toolCalls().value(), m.toolName(), m.toolCallId(),
                        m.active() ? 1 : 0, m.compacted() ? 1 : 0, null);
                r.remove("word");
                rows.add(r);
            }
            s.put("messages", rows);
            out.put(id, s);
        }
        return JSON.convertValue(out, JSON_OBJECT);
    }

    /** List content must come back as structured content, text as text: the typed view, not only equal JSON. */
    private static void assertTypedContent(StateRepository store, Map<String, Object> pythonModel, String context) {
        for (String id : pythonModel.keySet()) {
            Map<Long, Object> written = new TreeMap<>();
            for (Object m : messages(map(pythonModel.get(id)))) {
                written.put(number(map(m).get("id")), map(m).get("content"));
            }
            for (Message m : store.getMessages(id, true)) {
                Object content = written.get(m.id());
                boolean typed = content instanceof List<?> ? m.content() instanceof MessageContent.Structured
                        : m.content() instanceof MessageContent.Text;
                assertTrue(typed, context + "message " + m.id() + " of " + id + " reads as " + m.content());
            }
        }
    }

    /** Messages whose own word finds something else than themselves (or something when rewound). */
    private static List<String> searchMismatches(StateRepository store, Map<String, Object> sessions) {
        List<String> mismatches = new ArrayList<>();
        for (var session : sessions.entrySet()) {
            for (Object m : messages(map(session.getValue()))) {
                Map<String, Object> row = map(m);
                long id = number(row.get("id"));
                boolean shown = number(row.get("active")) == 1 || number(row.get("compacted")) == 1;
                List<Long> hits = store.searchMessages(SearchQuery.builder((String) row.get("word")).limit(5).build())
                        .stream().map(SearchHit::id).toList();
                if (!hits.equals(shown ? List.of(id) : List.of())) {
                    mismatches.add(session.getKey() + " " + id + " " + row.get("word") + " -> " + hits);
                }
            }
        }
        return mismatches;
    }

    private static Map<String, Object> stripWords(Map<String, Object> model) {
        Map<String, Object> copy = JSON.convertValue(model, JSON_OBJECT);
        copy.values().forEach(s -> messages(map(s)).forEach(m -> map(m).remove("word")));
        return new TreeMap<>(copy);
    }

    private static Map<String, Object> subset(Map<String, Object> view, Set<String> ids) {
        Map<String, Object> out = new TreeMap<>();
        for (String id : ids) {
            Map<String, Object> s = new LinkedHashMap<>(map(view.get(id)));
            s.remove("source");
            out.put(id, s);
        }
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    /** FTS5's integrity-check of one table: null when it passes, else SQLite's message. */
    private static String ftsCheck(Connection connection, String table) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + table + "(" + table + ") VALUES ('integrity-check')");
            return null;
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    private static final String NUL_PROBE = "CREATE VIRTUAL TABLE temp.t USING fts5(c, tokenize='trigram');"
            + " INSERT INTO temp.t VALUES (char(0) || 'json:abc');"
            + " CREATE VIRTUAL TABLE temp.v USING fts5vocab(temp, t, row);";

    /** Whether sqlite-jdbc's trigram tokenizer indexes text after a NUL character. */
    private static boolean jdbcIndexesPastNul(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : NUL_PROBE.split(";")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
            try (var rows = statement.executeQuery("SELECT count(*) FROM temp.v")) {
                rows.next();
                boolean past = rows.getLong(1) > 0;
                statement.execute("DROP TABLE temp.v");
                statement.execute("DROP TABLE temp.t");
                return past;
            }
        }
    }

    /** The same probe under python3's sqlite3. */
    private static boolean pythonIndexesPastNul(Path dir) {
        String probe = "import sqlite3\nc = sqlite3.connect(':memory:')\nc.executescript(\"" + NUL_PROBE + "\")\n"
                + "print(c.execute('SELECT count(*) FROM temp.v').fetchone()[0] > 0)\n";
        var result = Command.python("-c", probe).run(Duration.ofSeconds(30));
        assertEquals(0, result.exitCode(), result.toString());
        return result.stdout().strip().equals("True");
    }

    private static void waitForLine(ChildProcess process, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (process.lines().stream().noneMatch(l -> l.startsWith(prefix))) {
            assertTrue(System.nanoTime() < deadline, "no " + prefix + "line\n" + process.transcript());
            assertTrue(process.isAlive() || process.lines().stream().anyMatch(l -> l.startsWith(prefix)),
                    "the Python writer ended early\n" + process.transcript());
            Thread.sleep(20);
        }
    }

    private static String line(ChildProcess process, String prefix) {
        return process.lines().stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
    }

    private static Map<String, Object> json(String text) throws Exception {
        return new TreeMap<>(JSON.readValue(text, JSON_OBJECT));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> messages(Map<String, Object> session) {
        return (List<Map<String, Object>>) session.get("messages");
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
