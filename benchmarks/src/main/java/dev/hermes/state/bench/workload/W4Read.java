package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** W4 — reading a conversation: get_messages_as_conversation for the 200 sampled sessions. */
public final class W4Read {

    /** One conversation read returning its messages. */
    public interface Read {
        List<?> run(String sessionId) throws Exception;
    }

    public record Result(int sessions, long messages, Latencies latencies) {
        public double msgsPerS() {
            return messages / (latencies.sumNanos() / 1e9);
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("sessions", sessions);
            json.put("messages", messages);
            json.put("p50_ms", Report.round(latencies.p50Ms()));
            json.put("p95_ms", Report.round(latencies.p95Ms()));
            json.put("max_ms", Report.round(latencies.maxMs()));
            json.put("msgs_per_s", Report.round(msgsPerS()));
            return json;
        }
    }

    private W4Read() {
    }

    public static Result run(List<String> sessionIds, Read read) throws Exception {
        return runInterleaved(sessionIds, List.of(read)).get(0);
    }

    /** Every read under test reads each sampled session in turn (order rotating), under the same load. */
    public static List<Result> runInterleaved(List<String> sessionIds, List<Read> reads) throws Exception {
        List<Latencies> latencies = new ArrayList<>();
        long[] messages = new long[reads.size()];
        reads.forEach(read -> latencies.add(new Latencies(sessionIds.size())));
        for (int i = 0; i < sessionIds.size(); i++) {
            for (int turn = 0; turn < reads.size(); turn++) {
                int t = (turn + i) % reads.size();
                long before = System.nanoTime();
                List<?> conversation = reads.get(t).run(sessionIds.get(i));
                latencies.get(t).add(System.nanoTime() - before);
                messages[t] += conversation.size();
            }
        }
        List<Result> results = new ArrayList<>();
        for (int t = 0; t < reads.size(); t++) {
            results.add(new Result(sessionIds.size(), messages[t], latencies.get(t)));
        }
        return results;
    }
}
