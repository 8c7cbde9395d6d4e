package dev.hermes.state.it.core;

import dev.hermes.state.it.Python;
import dev.hermes.state.core.Message;
import dev.hermes.state.core.Session;
import dev.hermes.state.core.StateRepository;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
    private static final int ROUNDS = 40; // per writer: 4 sessions x 40 rounds x (1 single + 1 batch of 3)

    @TempDir
    Path dir;

    @Test
    void fourThreadsAndTwoProcessesAppendAtOnce() throws Exception {
        Path file = dir.resolve("state.db");
        List<String> writers = new ArrayList<>();
        try (StateRepository store = StateRepository.open(file)) {
            List<Writer> processes = new ArrayList<>();
            List<Process> children = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                String name = "process" + p;
                writers.add(name);
                Process child = java(ContentionWriterMain.class, file.toString(), name, String.valueOf(ROUNDS));
                children.add(child);
                processes.add(new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8));
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
            for (Writer stdin : processes) {
                stdin.write("GO\n");
                stdin.flush();
            }
            go.countDown();
            for (int t = 0; t < threads.size(); t++) {
                System.out.println("thread" + t + ": " + AppendWorkload.summary(threads.get(t).get(5, TimeUnit.MINUTES)));
            }
            for (int p = 0; p < children.size(); p++) {
                String result = finish(children.get(p));
                System.out.println("process" + p + ": " + result);
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
            Process python = new ProcessBuilder("python3", script.toString(), file.toString(), "python", String.valueOf(ROUNDS)).start();
            Writer pythonIn = new OutputStreamWriter(python.getOutputStream(), StandardCharsets.UTF_8);
            expectLine(python, "READY");
            Process child = java(ContentionWriterMain.class, file.toString(), "process0", String.valueOf(ROUNDS));
            Writer childIn = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
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
            pythonIn.write("GO\n");
            pythonIn.flush();
            childIn.write("GO\n");
            childIn.flush();
            go.countDown();
            for (int t = 0; t < threads.size(); t++) {
                System.out.println("thread" + t + " (with python): " + AppendWorkload.summary(threads.get(t).get(5, TimeUnit.MINUTES)));
            }
            String childResult = finish(child);
            System.out.println("process0 (with python): " + childResult);
            assertTrue(childResult.startsWith("DONE "), childResult);
            String pythonResult = finish(python);
            System.out.println("python agent: " + pythonResult);
            assertTrue(pythonResult.startsWith("DONE "), pythonResult);

            checkEverySession(store, writers, new AppendWorkload("any", ROUNDS));
            // what Python wrote reads back through the typed API: its json.dumps tool calls decode
            Message pythonCall = store.getMessages("python-s0").stream()
                    .filter(message -> "assistant".equals(message.role()) && message.toolCalls() != null)
                    .findFirst().orElseThrow();
            assertEquals("call_a", ((Map<?, ?>) ((List<?>) pythonCall.toolCalls()).get(0)).get("id"));
        }
        checkIntegrity(file);
        // and what Java wrote reads back in Python: every JSON column decodes with json.loads
        Process reader = new ProcessBuilder("python3", "-c", String.join("\n",
                "import json, sqlite3, sys",
                "c = sqlite3.connect(sys.argv[1])",
                "rows = c.execute(\"SELECT tool_calls FROM messages WHERE tool_calls IS NOT NULL AND session_id NOT LIKE 'python-%'\").fetchall()",
                "calls = [json.loads(r[0]) for r in rows]",
                "assert all(isinstance(x, list) and x[0]['id'] == 'call_a' for x in calls), calls[:3]",
                "print(len(calls))"), file.toString()).redirectErrorStream(true).start();
        String decoded = new String(reader.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(reader.waitFor(1, TimeUnit.MINUTES));
        assertEquals(0, reader.exitValue(), decoded);
        assertEquals(String.valueOf(javaToolCallRows()), decoded);
    }

    /** Rows with tool calls the three Java writers of the Python test wrote: every batch row, and the single append of every 4th round. */
    private static long javaToolCallRows() {
        long perSession = (long) ROUNDS * AppendWorkload.BATCH + ROUNDS / 4;
        return 3L * AppendWorkload.SESSIONS * perSession;
    }

    /** Every session has exactly the rows its writer appended, and its counters agree with them. */
    private static void checkEverySession(StateRepository store, List<String> writers, AppendWorkload shape) {
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
                expectedTotal += messages.size();
            }
        }
        assertEquals(expectedTotal, store.messageCount(null), "no message lost or duplicated");
    }

    private static void checkIntegrity(Path file) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
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

    static Process java(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void expectLine(Process process, String expected) throws IOException {
        String line = reader(process).readLine();
        assertEquals(expected, line, "first line of " + process.info().commandLine().orElse("child"));
    }

    /** Reads the last line of a child's output and waits for it to exit 0. */
    private static String finish(Process process) throws Exception {
        String last = null;
        for (String line; (line = reader(process).readLine()) != null; ) {
            last = line;
        }
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "child did not exit");
        assertEquals(0, process.exitValue(), "exit code of child; last line: " + last);
        return String.valueOf(last);
    }

    private static final Map<Process, BufferedReader> READERS = new java.util.concurrent.ConcurrentHashMap<>();

    private static BufferedReader reader(Process process) {
        return READERS.computeIfAbsent(process, p -> new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
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
