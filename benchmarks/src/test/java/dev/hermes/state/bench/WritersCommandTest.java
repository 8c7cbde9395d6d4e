package dev.hermes.state.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.core.StateRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bench writers}: rounds of writer processes on the store {@code --db} names, the table and the result file. */
class WritersCommandTest {
    @TempDir
    Path dir;

    private record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachRoundAppendsTwoThousandMessagesPerWriterAndLosesNone() throws Exception {
        Path db = dir.resolve("writers.db");
        Path json = dir.resolve("writers.json");
        Result result = run("writers", "--writers", "1,2", "--db", db.toString(), "--out", json.toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.out().lines().toList();
        assertEquals("writer scaling on " + db + " (sqlite): 2,000 appends per writer, "
                + Runtime.getRuntime().availableProcessors() + " CPUs", lines.get(0));
        assertEquals("writers  appends ok  errors   wall s    msgs/s   p50 ms   p99 ms    max ms  >100 ms  >1 s  check",
                lines.get(1));
        assertTrue(lines.get(2).matches(" {6}1 {7}2,000 {7}0 .* ok"), lines.get(2));
        assertTrue(lines.get(3).matches(" {6}2 {7}4,000 {7}0 .* ok"), lines.get(3));
        assertEquals("result file: " + json, lines.get(5));

        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("writer-scaling/1", report.get("definition").asText());
        assertEquals(2000, report.get("appends_per_writer").asInt());
        JsonNode target = report.get("targets").get(0);
        assertEquals(db.toString(), target.get("target").asText());
        assertEquals("sqlite", target.get("engine").asText());
        List<Integer> writers = new ArrayList<>();
        for (JsonNode round : target.get("rounds")) {
            int n = round.get("writers").asInt();
            writers.add(n);
            assertEquals(2000 * n, round.get("messages_ok").asInt(), round.toString());
            assertEquals(0, round.get("errors").size());
            assertEquals(2000 * n, round.get("messages_in_store").asInt());
            assertTrue(round.get("check_counts_equal").asBoolean());
            assertTrue(round.get("nothing_lost").asBoolean());
            assertEquals(n, round.get("worker_elapsed_s").size());
            assertTrue(round.get("append_max_ms").asDouble() >= round.get("append_p99_ms").asDouble());
        }
        assertEquals(List.of(1, 2), writers);
        try (StateRepository store = StateRepository.open(db)) {
            assertEquals(6000, store.dsl().fetchCount(MESSAGES));
            assertEquals(30, store.sessionCount());
        }
    }

    @Test
    void aRefusedPostgresqlTargetIsOneLineAndItsPasswordIsNeverShown() {
        // no such role on any test server (and where none runs, the connection is refused): one line either way
        Result result = run("writers", "--writers", "1", "--db", "postgresql://bench:s3cret@127.0.0.1:5432/hermes",
                "--out", dir.resolve("w.json").toString());
        assertEquals(1, result.exitCode(), result.toString());
        List<String> lines = result.err().lines().toList();
        assertEquals(List.of("writer scaling on postgresql://bench:***@127.0.0.1:5432/hermes"), lines.subList(0, 1));
        assertEquals(2, lines.size(), result.toString());
        assertTrue(lines.get(1).startsWith("bench writers: failed: ") && lines.get(1).contains("postgresql://bench@127.0.0.1:5432/hermes"),
                result.toString());
        assertFalse(result.out().contains("s3cret") || result.err().contains("s3cret"));
        assertEquals("jdbc:postgresql://h/db?user=u&password=***", StoreTarget.describe("jdbc:postgresql://h/db?user=u&password=pw"));
        assertEquals("/tmp/a:b@c.db", StoreTarget.describe("/tmp/a:b@c.db"));
    }

    @Test
    void writerCountsBelowOneAreRefused() {
        Result result = run("writers", "--writers", "1,0");
        assertEquals(2, result.exitCode());
        assertEquals("bench writers: --writers takes counts of at least 1 (got [1, 0])\n", result.err());
        assertEquals(2, run("writers", "--writers", "x").exitCode());
    }
}
