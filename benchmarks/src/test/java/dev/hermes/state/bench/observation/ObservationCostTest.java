package dev.hermes.state.bench.observation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The smallest run of the harness behind docs/observability.md's figures: it runs, and the observed store was timed. */
class ObservationCostTest {
    @Test
    void aTinyRunReportsBothOperationsOnBothClocksAndTimesTheObservedStore(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ObservationCost.run(dir, 1, 50, "all", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(5, lines.size(), String.join("\n", lines));
        for (String line : lines.subList(0, 4)) {
            assertTrue(line.matches("(append|read) .* µs/op: off [0-9.,]+, on [0-9.,]+, on/off [0-9.,]+"), line);
        }
        Matcher timers = Pattern.compile("timers: (\\d+), operations timed: (\\d+)").matcher(lines.get(4));
        assertTrue(timers.matches(), lines.get(4));
        // setting up: 100 sessions and 4,000 messages in the observed store; then 4 rounds of 50 appends and 50 reads
        assertTrue(Long.parseLong(timers.group(2)) >= 4_100 + 4 * 100, lines.get(4));
    }
}
