package dev.hermes.state.it.reliability;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Python;
import org.jooq.Field;
import org.jooq.Record3;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Java writer processes and (when python3 exists) a Python process writing the agent's way share
 * one file for about 20 seconds (-Dhermes.reliability.mixedSeconds=N), while reader threads list
 * sessions and search. Nothing may be lost, no error may reach a writer or a reader, every reader
 * snapshot and the final file must have counters that agree with the rows, and the FTS index must
 * match the messages.
 */
class MixedWritersTest {
    private static final System.Logger LOG = System.getLogger(MixedWritersTest.class.getName());

    private static final long SECONDS = Long.getLong("hermes.reliability.mixedSeconds", 20);
    private static final List<String> SHARED = List.of("mixed-shared-1", "mixed-shared-2");
    private static final List<String> SEARCHES = List.of("docker", "migration", "foo@bar.com", "C++", "数据库迁移问题",
            "v2.14.3", "chat-send", "alpha OR zephyr", "\"deploy docker\"", "what's", "a:b", "kernel*");

    @TempDir
    Path dir;

    /** The writer processes, killed if a failed test left them running. */
    private final List<ChildProcess> children = new ArrayList<>();

    @AfterEach
    void closeChildren() {
        children.forEach(ChildProcess::close);
    }

    @Test
    void javaAndPythonWritersWithConcurrentReadersLoseNothing() throws Exception {
        long seed = Seeds.seed("mixed writers");
        String context = Seeds.replay(seed);
        Path db = dir.resolve("state.db");
        try (StateRepository store = StateRepository.open(db)) {
            for (String id : SHARED) {
                store.createSession(id, AppendingWriterChild.SOURCE);
            }
            Map<String, ChildProcess> writers = startWriters(db, seed);
            for (var writer : writers.entrySet()) {
                assertTrue(writer.getValue().awaitLines(1, Duration.ofSeconds(120)),
                        context + writer.getKey() + " never got ready\n" + writer.getValue().transcript());
            }

            Readers readers = new Readers(store, seed);
            readers.start();
            Map<Long, String> committed = new HashMap<>();
            for (var writer : writers.entrySet()) {
                ChildProcess process = writer.getValue();
                int exit = process.waitFor(Duration.ofSeconds(SECONDS + 180));
                WriterReport report = WriterReport.parse(process.lines());
                assertEquals(List.of(), report.errors(), context + writer.getKey() + " saw errors\n" + process.transcript());
                assertEquals(0, exit, context + writer.getKey() + " failed\n" + process.transcript());
                assertTrue(report.done(), context + writer.getKey() + " did not finish\n" + process.transcript());
                committed.putAll(report.committed());
            }
            readers.stop();
            assertEquals(Map.of(), readers.errors(), context + "errors seen by the readers");
            assertTrue(readers.listings.get() > 0 && readers.searches.get() > 0, context + "the readers did not run");

            try (Connection connection = SqliteFiles.readWrite(db)) {
                assertEquals("ok", StoreFiles.integrityCheck(connection), context + "PRAGMA integrity_check");
                assertNull(StoreFiles.ftsIntegrityProblem(connection), context + "FTS5 integrity-check");
                assertEquals(List.of(), StoreFiles.counterMismatches(connection), context + "session counters vs rows");
                Map<Long, String> stored = StoreFiles.messageSessions(connection);
                assertEquals(List.of(), new WriterReport(committed, 0, List.of(), true, true).missingFrom(stored),
                        context + "messages reported committed but missing");
                assertEquals(committed.size(), stored.size(), context + "every stored message was reported by its writer");
            }
        }
    }

    /** Two Java writer processes and, when python3 is installed, the Python agent writer. */
    private Map<String, ChildProcess> startWriters(Path db, long seed) throws IOException {
        Map<String, ChildProcess> writers = new LinkedHashMap<>();
        String millis = String.valueOf(SECONDS * 1000);
        for (String name : List.of("java1", "java2")) {
            List<String> args = new ArrayList<>(List.of(db.toString(), name, String.valueOf(seed + name.hashCode()), millis));
            args.addAll(SHARED);
            writers.put(name, Command.java(List.of("-Xmx256m"), AppendingWriterChild.class, args.toArray(String[]::new)).start());
        }
        if (Python.hasSqlite3()) {
            Path script = dir.resolve("agent_writer.py");
            try (InputStream in = MixedWritersTest.class.getResourceAsStream("/reliability/agent_writer.py")) {
                Files.copy(in, script);
            }
            List<String> args = new ArrayList<>(List.of(script.toString(), db.toString(), "python",
                    String.valueOf(seed & 0x7fffffff), String.valueOf(SECONDS)));
            args.addAll(SHARED);
            writers.put("python", Command.python(args.toArray(String[]::new)).start());
        } else {
            LOG.log(System.Logger.Level.INFO, "python3 with sqlite3 not found; the Python agent writer is left out");
        }
        children.addAll(writers.values());
        return writers;
    }

    /**
     * Reader threads on the test's own store: one lists sessions (the rich listing, with and without
     * children) and checks, in single-statement snapshots, that every session's message_count equals
     * its rows; one searches. Every exception is an error.
     */
    private static final class Readers {
        private final StateRepository store;
        private final Random random;
        private final AtomicBoolean running = new AtomicBoolean(true);
        /** Each distinct error (thread, exception, first frames) with how often it happened. */
        private final Map<String, Integer> errors = new LinkedHashMap<>();
        private final AtomicLong listings = new AtomicLong();
        private final AtomicLong searches = new AtomicLong();
        private final AtomicLong snapshots = new AtomicLong();
        private final List<Thread> threads = new ArrayList<>();

        Readers(StateRepository store, long seed) {
            this.store = store;
            this.random = new Random(seed);
        }

        void start() {
            threads.add(loop("lister", this::listOnce));
            threads.add(loop("searcher", this::searchOnce));
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            }
        }

        private void listOnce() {
            List<RichSession> page = store.listSessionsRich(ListSessionsQuery.defaults());
            List<RichSession> all = store.listSessionsRich(ListSessionsQuery.builder().includeChildren(true).limit(100).build());
            if (page.isEmpty() || all.size() < page.size()) {
                error("listing returned " + page.size() + " / " + all.size() + " sessions");
            }
            listings.addAndGet(2);
            Field<Integer> rows = DSL.selectCount().from(MESSAGES).where(MESSAGES.SESSION_ID.eq(SESSIONS.ID)).asField("rows");
            for (Record3<String, Long, Integer> session : store.dsl().select(SESSIONS.ID, SESSIONS.MESSAGE_COUNT, rows)
                    .from(SESSIONS).fetch()) {
                if (session.value2() != session.value3().longValue()) {
                    error("a reader saw session " + session.value1() + " with message_count " + session.value2()
                            + " but " + session.value3() + " rows in one snapshot");
                }
            }
            snapshots.incrementAndGet();
        }

        private void searchOnce() {
            String query;
            synchronized (random) {
                query = SEARCHES.get(random.nextInt(SEARCHES.size()));
            }
            List<SearchHit> hits = store.searchMessages(SearchQuery.builder(query).limit(20).build());
            for (SearchHit hit : hits) {
                if (hit.sessionId() == null || hit.context().isEmpty()) {
                    error("search '" + query + "' returned an incomplete hit " + hit);
                }
            }
            searches.incrementAndGet();
        }

        private synchronized void error(String error) {
            errors.merge(error, 1, Integer::sum);
        }

        synchronized Map<String, Integer> errors() {
            return new LinkedHashMap<>(errors);
        }

        private Thread loop(String name, Runnable work) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        work.run();
                    } catch (Throwable e) {
                        StringWriter trace = new StringWriter();
                        e.printStackTrace(new PrintWriter(trace));
                        error(name + ": " + String.join("\n", trace.toString().lines().limit(4).toList()));
                    }
                }
            }, "reader-" + name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }
    }
}
