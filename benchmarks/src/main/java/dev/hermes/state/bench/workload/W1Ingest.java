package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.IngestPlan.Append;
import dev.hermes.state.bench.data.IngestPlan.CreateSession;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.core.NewMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W1 — ingest: the whole schedule of section 1.7, one call per operation, every call timed; plus the
 * batch variant (one call per session with all its messages) used to compare {@code appendMessages}
 * with a raw JDBC batch. The same loop drives the store and the raw baseline.
 */
public final class W1Ingest {
    public static final int SLICES = 10;

    /** The two calls of the schedule, on the store or on the baseline. */
    public interface Calls {
        void create(CreateSession step) throws Exception;

        void append(Append step) throws Exception;
    }

    /** One session's messages in one call. */
    public interface BatchCalls {
        void create(CreateSession step) throws Exception;

        void appendAll(String sessionId, List<NewMessage> messages) throws Exception;
    }

    public record Slice(int slice, double msgsPerS, double p50Ms, double p99Ms, long dbBytes) {
        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("slice", slice);
            json.put("msgs_per_s", Report.round(msgsPerS));
            json.put("p50_ms", Report.round(p50Ms));
            json.put("p99_ms", Report.round(p99Ms));
            json.put("db_bytes", dbBytes);
            return json;
        }
    }

    public record Result(int messages, long elapsedNanos, Latencies appends, Latencies creates, List<Slice> slices,
                         long dbBytes, long walBytes) {
        public double seconds() {
            return elapsedNanos / 1e9;
        }

        public double msgsPerS() {
            return messages / seconds();
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("messages", messages);
            json.put("seconds", Report.round(seconds()));
            json.put("msgs_per_s", Report.round(msgsPerS()));
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("p50_ms", Report.round(appends.p50Ms()));
            latency.put("p95_ms", Report.round(appends.p95Ms()));
            latency.put("p99_ms", Report.round(appends.p99Ms()));
            latency.put("p999_ms", Report.round(appends.p999Ms()));
            latency.put("max_ms", Report.round(appends.maxMs()));
            json.put("append_latency", latency);
            json.put("create_session_latency", creates.p50Max());
            json.put("slices", slices.stream().map(Slice::toJson).toList());
            Map<String, Object> size = new LinkedHashMap<>();
            size.put("db_bytes", dbBytes);
            size.put("wal_bytes", walBytes);
            json.put("size_end", size);
            return json;
        }
    }

    /** Result of the batch variant: time is the sum of the batch calls (session creation untimed). */
    public record BatchResult(int messages, Latencies batches) {
        public double seconds() {
            return batches.sumNanos() / 1e9;
        }

        public double msgsPerS() {
            return messages / seconds();
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("messages", messages);
            json.put("batches", batches.count());
            json.put("seconds", Report.round(seconds()));
            json.put("msgs_per_s", Report.round(msgsPerS()));
            json.put("batch_latency", batches.p50p95Max());
            return json;
        }
    }

    private W1Ingest() {
    }

    /** Runs the schedule; {@code db} is the file the calls write, measured at each slice end. */
    public static Result run(IngestPlan plan, Path db, Calls calls) throws Exception {
        int total = plan.appends().size();
        Latencies appends = new Latencies(total);
        Latencies creates = new Latencies(plan.sessions());
        List<Slice> slices = new ArrayList<>(SLICES);
        Latencies sliceAppends = new Latencies(total / SLICES + 1);
        int slice = 0;
        int done = 0;
        long nextSliceEnd = sliceEnd(0, total);

        long start = System.nanoTime();
        long sliceStart = start;
        long end = start;
        for (IngestPlan.Step step : plan.steps()) {
            if (step instanceof CreateSession create) {
                long before = System.nanoTime();
                calls.create(create);
                end = System.nanoTime();
                creates.add(end - before);
            } else {
                Append append = (Append) step;
                long before = System.nanoTime();
                calls.append(append);
                end = System.nanoTime();
                appends.add(end - before);
                sliceAppends.add(end - before);
                if (++done == nextSliceEnd) {
                    int count = sliceAppends.count();
                    slices.add(new Slice(slice + 1, count / ((end - sliceStart) / 1e9), sliceAppends.p50Ms(),
                            sliceAppends.p99Ms(), Report.sizeOrZero(db)));
                    sliceStart = end;
                    sliceAppends = new Latencies(total / SLICES + 1);
                    slice++;
                    nextSliceEnd = slice < SLICES ? sliceEnd(slice, total) : -1;
                }
            }
        }
        return new Result(total, end - start, appends, creates, List.copyOf(slices), Report.sizeOrZero(db),
                Report.sizeOrZero(walOf(db)));
    }

    /** For each session in index order: create it (untimed), then one timed call with all its messages. */
    public static BatchResult runBatches(IngestPlan plan, BatchCalls calls) throws Exception {
        List<List<Append>> bySession = plan.appendsBySession();
        Latencies batches = new Latencies(plan.sessions());
        int messages = 0;
        for (IngestPlan.Step step : plan.steps()) {
            if (step instanceof CreateSession create) {
                List<NewMessage> own = bySession.get(create.index()).stream().map(Append::message).toList();
                calls.create(create);
                long before = System.nanoTime();
                calls.appendAll(create.id(), own);
                batches.add(System.nanoTime() - before);
                messages += own.size();
            }
        }
        return new BatchResult(messages, batches);
    }

    /** Appends k·N/10 + 1 … (k+1)·N/10 form slice k (0-based here): its last append is number (k+1)·N/10. */
    private static long sliceEnd(int slice, int total) {
        return (long) (slice + 1) * total / SLICES;
    }

    public static Path walOf(Path db) {
        return db.resolveSibling(db.getFileName() + "-wal");
    }
}
