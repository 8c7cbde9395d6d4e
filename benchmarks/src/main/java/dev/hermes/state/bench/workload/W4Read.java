package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;

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
        Latencies latencies = new Latencies(sessionIds.size());
        long messages = 0;
        for (String id : sessionIds) {
            long before = System.nanoTime();
            List<?> conversation = read.run(id);
            latencies.add(System.nanoTime() - before);
            messages += conversation.size();
        }
        return new Result(sessionIds.size(), messages, latencies);
    }
}
