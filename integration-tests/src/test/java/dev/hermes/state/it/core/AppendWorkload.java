package dev.hermes.state.it.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.TokenUsage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One writer's share of a contention test: its own sessions, messages appended round-robin over
 * them, single appends mixed with small batches, every 4th assistant message carrying two tool
 * calls. Deterministic, so the test knows exactly what every session must hold afterwards.
 */
final class AppendWorkload {
    static final int SESSIONS = 4;
    static final int BATCH = 3;
    private static final List<Map<String, Object>> TWO_CALLS = List.of(
            Map.of("id", "call_a", "type", "function", "function", Map.of("name", "terminal", "arguments", "{}")),
            Map.of("id", "call_b", "type", "function", "function", Map.of("name", "web", "arguments", "{}")));

    private final String writer;
    private final int rounds;

    /** @param rounds per session: each round appends one single message and one batch of {@link #BATCH} */
    AppendWorkload(String writer, int rounds) {
        this.writer = writer;
        this.rounds = rounds;
    }

    String session(int index) {
        return writer + "-s" + index;
    }

    /** Messages each session holds afterwards. */
    int messagesPerSession() {
        return rounds * (1 + BATCH);
    }

    /** Input tokens each session counts afterwards (output tokens: twice as many). */
    int inputTokensPerSession() {
        return rounds;
    }

    /**
     * Tool calls each session counts afterwards, as today's agent counts them (the stores are at 17):
     * the single append of every 4th round carries two, and so does each tool result of every batch.
     */
    int toolCallsPerSession() {
        return 2 * (int) java.util.stream.IntStream.range(0, rounds).filter(round -> round % 4 == 3).count()
                + rounds * BATCH * 2;
    }

    /** Runs the workload; returns the latency of every call in nanoseconds (sorted). Exceptions propagate. */
    long[] run(StateRepository store) {
        for (int s = 0; s < SESSIONS; s++) {
            store.createSession(session(s), "cli");
        }
        List<Long> latencies = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int s = 0; s < SESSIONS; s++) {
                NewMessage.Builder single = NewMessage.builder(round % 2 == 0 ? "user" : "assistant")
                        .content(writer + " round " + round + " session " + s + " contention marker");
                if (round % 4 == 3) {
                    single.toolCalls(ToolCalls.json(TWO_CALLS));
                }
                long start = System.nanoTime();
                store.appendMessage(session(s), single.build());
                latencies.add(System.nanoTime() - start);
                List<NewMessage> batch = new ArrayList<>(BATCH);
                for (int b = 0; b < BATCH; b++) {
                    batch.add(NewMessage.builder("tool").content("batch " + b + " of round " + round).toolName("terminal")
                            .toolCalls(ToolCalls.json(TWO_CALLS)).build()); // counted at 17 (not under the rules of 6)
                }
                start = System.nanoTime();
                store.appendMessages(session(s), batch);
                latencies.add(System.nanoTime() - start);
                // incremental token accounting: a read-then-add that must not lose an update
                store.updateTokenCounts(session(s), TokenUsage.builder().inputTokens(1).outputTokens(2).build());
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    /** "p50 p99 max" in milliseconds, nearest rank. */
    static String summary(long[] sorted) {
        return String.format("p50 %.1f ms, p99 %.1f ms, max %.1f ms, over 1 s: %d", rank(sorted, 50) / 1e6, rank(sorted, 99) / 1e6,
                sorted[sorted.length - 1] / 1e6, Arrays.stream(sorted).filter(nanos -> nanos > 1_000_000_000L).count());
    }

    static long rank(long[] sorted, int percent) {
        return sorted[(int) Math.ceil(percent / 100.0 * sorted.length) - 1];
    }
}
