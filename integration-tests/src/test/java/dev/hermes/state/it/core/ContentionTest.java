package dev.hermes.state.it.core;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.ProcessResult;
import dev.hermes.state.testsupport.Python;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several writers on one state.db at once: threads of this JVM sharing one store, separate JVM
 * processes with their own stores, and a Python process writing the way the Hermes agent does.
 * No error may reach any caller, no message may be lost, every session's counters must equal its
 * rows, and SQLite's and FTS5's integrity checks must pass. Latencies are printed, not asserted
 * (the benchmark measures fairness).
 */
class ContentionTest {
    private static final System.Logger LOG = System.getLogger(ContentionTest.class.getName());

    static final int ROUNDS = 40; // per writer: 4 sessions x 40 rounds x (1 single + 1 batch of 3)

    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    Path dir;

    /** The writer processes, killed if a failed test left them running. */
    private final List<ChildProcess> children = new ArrayList<>();

    @AfterEach
    void closeChildren() {
        children.forEach(ChildProcess::close);
    }

    @Test
    void fourThreadsAndTwoProcessesAppendAtOnce() throws Exception {
        Path file = dir.resolve("state.db");
        List<String> writers = new ArrayList<>();
        try (StateRepository store = StateRepository.open(file)) {
            List<ChildProcess> processes = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                String name = "process" + p;
                writers.add(name);
                ChildProcess child = start(Command.java(ContentionWriterChild.class, file.toString(), name, String.valueOf(ROUNDS)));
                processes.add(child);
                expectLine(child, "READY");
            }
            List<CompletableFuture<long[]>> threads = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 4; t++) {
                String name = "thread" + t;
                writers.add(name);
                threads.add(CompletableFuture.supplyAsync(() -> {
                    await(go);
                    return new AppendWorkload(name, ROUNDS).run(store);
                }, runnable -> new Thread(runnable, name).start()));
            }
            for (ChildProcess child : processes) {
                child.send("GO");
            }
            go.countDown();
            for (int t = 0; t < threads.size(); t++) {
                long[] thread = threads.get(t).get(5, TimeUnit.MINUTES);
                LOG.log(System.Logger.Level.DEBUG, "thread{0}: {1}", t, AppendWorkload.summary(thread));
            }
            for (int p = 0; p < processes.size(); p++) {
                String result = finish(processes.get(p));
                assertTrue(result.startsWith("DONE "), result);
            }
            checkEverySession(store, writers, new AppendWorkload("any", ROUNDS));
        }
        checkIntegrity(file);
    }

    @Test
    void aPythonAgentWritesAlongsideJava() throws Exception {
        Assumptions.assumeTrue(Python.hasSqlite3(), "python3 is not installed: the Python-agent contention test is skipped");
        Path file = dir.resolve("state.db");
        Path script = dir.resolve("agent_writer.py");
        try (InputStream source = ContentionTest.class.getResourceAsStream("agent_writer.py")) {
            Files.copy(source, script);
        }
        List<String> writers = new ArrayList<>(List.of("python"));
        try (StateRepository store = StateRepository.open(file)) {
            ChildProcess python = start(Command.python(script.toString(), file.toString(), "python", String.valueOf(ROUNDS)));
            expectLine(python, "READY");
            ChildProcess child = start(Command.java(ContentionWriterChild.class, file.toString(), "process0", String.valueOf(ROUNDS)));
            expectLine(child, "READY");
            writers.add("process0");
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<long[]>> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                String name = "thread" + t;
                writers.add(name);
                threads.add(CompletableFuture.supplyAsync(() -> {
                    await(go);
                    return new AppendWorkload(name, ROUNDS).run(store);
                }, runnable -> new Thread(runnable, name).start()));
            }
            python.send("GO");
            child.send("GO");
            go.countDown();
            for (int t = 0; t < threads.size(); t++) {
                long[] thread = threads.get(t).get(5, TimeUnit.MINUTES);
                LOG.log(System.Logger.Level.DEBUG, "thread{0} (with python): {1}", t, AppendWorkload.summary(thread));
            }
            String childResult = finish(child);
            assertTrue(childResult.startsWith("DONE "), childResult);
            String pythonResult = finish(python);
            assertTrue(pythonResult.startsWith("DONE "), pythonResult);

            checkEverySession(store, writers, new AppendWorkload("any", ROUNDS));
            // what Python wrote reads back through the typed API: its json.dumps tool calls decode
            Message pythonCall = store.getMessages("python-s0").stream()
                    .filter(message -> "assistant".equals(message.role()) && message.toolCalls() != null)
                    .findFirst().orElseThrow();
            assertEquals("call_a", ((Map<?, ?>) ((List<?>) pythonCall.toolCalls().value()).get(0)).get("id"));
        }
        checkIntegrity(file);
        // and what Java wrote reads back in Python: every JSON column decodes with json.loads
        ProcessResult reader = Command.python("-c", String.join("\n",
                "import json, sqlite3, sys",
                "c = sqlite3.connect(sys.argv[1])",
                "rows = c.execute(\"SELECT tool_calls FROM messages WHERE tool_calls IS NOT NULL AND session_id NOT LIKE 'python-%'\").fetchall()",
                "calls = [json.loads(r[0]) for r in rows]",
                "assert all(isinstance(x, list) and x[0]['id'] == 'call_a' for x in calls), calls[:3]",
                "print(len(calls))"), file.toString()).run(Duration.ofMinutes(1));
        assertEquals(0, reader.exitCode(), reader.toString());
        assertEquals(String.valueOf(javaToolCallRows()), reader.stdout().strip());
    }

    /** Rows with tool calls the three Java writers of the Python test wrote: every batch row, and the single append of every 4th round. */
    private static long javaToolCallRows() {
        long perSession = (long) ROUNDS * AppendWorkload.BATCH + ROUNDS / 4;
        return 3L * AppendWorkload.SESSIONS * perSession;
    }

    /** Every session has exactly the rows its writer appended, and its counters agree with them. */
    static void checkEverySession(StateRepository store, List<String> writers, AppendWorkload shape) {
        assertEquals(checkSessions(store, writers, shape), store.messageCount(null), "no message lost or duplicated");
    }

    /** Checks every session of the {@code writers}' workloads (rows, counters, tokens); returns their rows. */
    static long checkSessions(StateRepository store, List<String> writers, AppendWorkload shape) {
        long expectedTotal = 0;
        for (String writer : writers) {
            AppendWorkload workload = new AppendWorkload(writer, ROUNDS);
            for (int s = 0; s < AppendWorkload.SESSIONS; s++) {
                String id = workload.session(s);
                Session session = store.getSession(id).orElseThrow(() -> new AssertionError("missing session " + id));
                List<Message> messages = store.getMessages(id);
                assertEquals(shape.messagesPerSession(), messages.size(), "rows of " + id);
                assertEquals(messages.size(), session.messageCount(), "message_count of " + id);
                assertEquals(shape.toolCallsPerSession(), session.toolCallCount(), "tool_call_count of " + id);
                if (!writer.equals("python")) { // agent_writer.py does no token accounting
                    assertEquals(shape.inputTokensPerSession(), session.inputTokens(), "input_tokens of " + id);
                    assertEquals(2L * shape.inputTokensPerSession(), session.outputTokens(), "output_tokens of " + id);
                }
                expectedTotal += messages.size();
            }
        }
        return expectedTotal;
    }

    private static void checkIntegrity(Path file) throws Exception {
        try (Connection connection = SqliteFiles.readWrite(file);
             Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("PRAGMA integrity_check")) {
                rows.next();
                assertEquals("ok", rows.getString(1));
            }
            statement.execute("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')");
            try (ResultSet rows = statement.executeQuery(
                    "SELECT (SELECT SUM(message_count) FROM sessions) = (SELECT COUNT(*) FROM messages)")) {
                rows.next();
                assertEquals(1, rows.getInt(1));
            }
        }
    }

    private ChildProcess start(Command command) {
        ChildProcess child = command.start();
        children.add(child);
        return child;
    }

    static void expectLine(ChildProcess process, String expected) {
        assertEquals(expected, process.nextLine(CHILD_TIMEOUT), "first line of " + process.transcript());
    }

    /** Waits for a child to exit 0; returns the last line it wrote. */
    static String finish(ChildProcess process) {
        ProcessResult result = process.finish(CHILD_TIMEOUT);
        assertEquals(0, result.exitCode(), "exit code of " + result);
        List<String> lines = result.lines();
        return lines.isEmpty() ? "null" : lines.get(lines.size() - 1);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
