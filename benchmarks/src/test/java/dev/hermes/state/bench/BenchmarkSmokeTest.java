package dev.hermes.state.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole benchmark end to end at a tiny size (S=120, M=12: every workload, the child JVMs, the
 * raw baseline, the result file), checking the exact counts the workload definition implies. Not a
 * performance measurement: nothing here asserts a time.
 */
class BenchmarkSmokeTest {
    private static final List<String> LAYOUT = List.of("params", "env", "data", "W1_ingest", "W2_search", "W3_list",
            "W4_read", "W5_lineage", "W6_export", "W7_prune", "W8_open", "W9_concurrency", "final",
            "baseline_raw_jdbc", "targets");

    @Test
    void tinyRunCompletesWithExactCountsAndTheResultLayout(@TempDir Path folder) throws Exception {
        Path result = folder.resolve("results").resolve("smoke.json");
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        int exit = Benchmark.run(folder.resolve("work"), 120, 12, result,
                new PrintStream(table, true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8),
                new Benchmark.Extent(1_001, 1));
        String errors = progress.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, errors);

        Map<?, ?> json = new ObjectMapper().readValue(result.toFile(), Map.class);
        assertEquals(LAYOUT, List.copyOf(json.keySet()));
        assertEquals(Map.of("sessions", 120, "messages_per_session", 12, "seed", 42), json.get("params"));
        Map<?, ?> env = (Map<?, ?>) json.get("env");
        assertEquals(List.of("runtime", "engine", "cpus", "cpu_model", "sqlite", "journal_mode", "synchronous"),
                List.copyOf(env.keySet()));
        assertEquals("SQLite " + env.get("sqlite"), env.get("engine"));
        assertEquals("wal", String.valueOf(env.get("journal_mode")).toLowerCase());
        Map<?, ?> data = (Map<?, ?>) json.get("data");
        assertEquals("3955edcac4a088dcf5cf7fb902c9743ed08c0fcb53fa2add89547b1fe125a958", data.get("vocab_sha256"));
        assertEquals(60, ((Map<?, ?>) data.get("match_counts_after_W1")).size());

        Map<?, ?> w1 = (Map<?, ?>) json.get("W1_ingest");
        assertEquals(1440, w1.get("messages"));
        assertEquals(10, ((List<?>) w1.get("slices")).size());
        Map<?, ?> w2 = (Map<?, ?>) json.get("W2_search");
        assertEquals(List.of("common", "rare", "phrase", "prefix", "or"), List.copyOf(((Map<?, ?>) w2.get("pass2")).keySet()));
        assertEquals(60, ((Map<?, ?>) w2.get("results_returned")).size());
        assertEquals(20, ((Map<?, ?>) w2.get("results_returned")).get("wune"));
        Map<?, ?> w3 = (Map<?, ?>) json.get("W3_list");
        assertEquals(List.of(0, 100, 60, 100), w3.get("offsets"));
        for (Object measures : List.of(w3.get("list_sessions_rich"), w3.get("search_sessions"))) {
            ((Map<?, ?>) measures).values().forEach(m -> assertEquals(20, ((Map<?, ?>) m).get("rows")));
        }
        Map<?, ?> w4 = (Map<?, ?>) json.get("W4_read");
        assertEquals(200, w4.get("sessions"));
        assertEquals(2400, w4.get("messages"));

        Map<?, ?> w5 = (Map<?, ?>) json.get("W5_lineage");
        Map<?, ?> deep = (Map<?, ?>) w5.get("depth_1000");
        // the store is at 17: today's agent walks at most 100 continuations (7e8f50a's get_compression_tip)
        assertEquals("chain1000-0100", deep.get("tip_returned"));
        assertEquals(100, deep.get("tip_hops_from_root"));
        assertEquals(true, deep.get("tip_correct"));
        assertEquals("chain99-0099", ((Map<?, ?>) w5.get("depth_99")).get("tip_returned"));
        assertEquals(2, ((Map<?, ?>) w5.get("list_sessions_rich_first_page_with_2_chain_roots")).get("projected_rows"));

        Map<?, ?> w6 = (Map<?, ?>) json.get("W6_export");
        assertEquals(120 + 1101, w6.get("sessions"));
        assertEquals(1440 + 1101, w6.get("messages"));
        assertTrue(((Number) w6.get("jsonl_bytes")).longValue() > 1440 * 280);

        Map<?, ?> w7 = (Map<?, ?>) json.get("W7_prune");
        assertEquals(60, w7.get("pruned"));
        assertEquals(720, w7.get("messages_deleted"));

        Map<?, ?> w9 = (Map<?, ?>) json.get("W9_concurrency");
        assertEquals(8000, w9.get("messages_ok"));
        assertEquals(Map.of(), w9.get("errors"));
        assertEquals(true, w9.get("check_counts_equal"));
        assertEquals(true, w9.get("fts_integrity_ok"));

        assertEquals(Map.of("sessions", 120 + 1101 - 60 + 40, "messages", 1440 + 1101 - 720 + 8000),
                Map.of("sessions", ((Map<?, ?>) json.get("final")).get("sessions"),
                        "messages", ((Map<?, ?>) json.get("final")).get("messages")));

        Map<?, ?> targets = (Map<?, ?>) json.get("targets");
        Map<?, ?> details = (Map<?, ?>) targets.get("details");
        assertEquals(true, ((Map<?, ?>) details.get("W6")).get("byte_identical_second_run"));
        assertEquals(true, ((Map<?, ?>) details.get("W5_deep_chain")).get("tip_correct"));
        assertTrue(((Number) ((Map<?, ?>) details.get("W7")).get("vacuum_reclaimed_bytes")).longValue() >= 0);
        Map<?, ?> baseline = (Map<?, ?>) json.get("baseline_raw_jdbc");
        assertEquals(1440, ((Map<?, ?>) baseline.get("W1_ingest")).get("messages"));
        assertEquals(List.of(), ((Map<?, ?>) baseline.get("W2_search")).get("queries_with_different_hits"));

        String printed = table.toString(StandardCharsets.UTF_8);
        for (String workload : List.of("W1 ingest", "W1 batch", "W2 search common", "W3 list_sessions_rich", "W4 read",
                "W5 lineage depth 1000", "W6 export", "W7 prune", "W8 cold open", "W9 4 writers")) {
            assertTrue(printed.contains(workload), workload + " missing from\n" + printed);
        }
        assertTrue(printed.contains("ours/raw"));
        // the run cleans up its databases; only the result file stays
        try (var left = Files.list(folder.resolve("work"))) {
            assertFalse(left.findAny().isPresent());
        }
    }
}
