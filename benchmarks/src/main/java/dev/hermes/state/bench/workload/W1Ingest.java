package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.IngestPlan.Append;
import dev.hermes.state.bench.data.IngestPlan.CreateSession;
import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.raw.RawStore;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

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

        /** The store's create_session and append_message. */
        static Calls of(StateRepository store) {
            return new Calls() {
                @Override
                public void create(CreateSession s) {
                    store.createSession(NewSession.builder(s.id(), s.source()).model(Workload.MODEL).build());
                }

                @Override
                public void append(Append a) {
                    store.appendMessage(a.sessionId(), a.message());
                }
            };
        }

        /** The raw-JDBC baseline's. */
        static Calls of(RawStore raw) {
            return new Calls() {
                @Override
                public void create(CreateSession s) throws SQLException {
                    raw.createSession(s.id(), s.source(), Workload.MODEL);
                }

                @Override
                public void append(Append a) throws SQLException {
                    raw.appendMessage(a.sessionId(), a.message());
                }
            };
        }
    }

    /** One session's messages in one call. */
    public interface BatchCalls {
        void create(CreateSession step) throws Exception;

        void appendAll(String sessionId, List<NewMessage> messages) throws Exception;

        /** The store's create_session and append_messages. */
        static BatchCalls of(StateRepository store) {
            return new BatchCalls() {
                @Override
                public void create(CreateSession s) {
                    store.createSession(NewSession.builder(s.id(), s.source()).model(Workload.MODEL).build());
                }

                @Override
                public void appendAll(String sessionId, List<NewMessage> messages) {
                    store.appendMessages(sessionId, messages);
                }
            };
        }

        /** The raw-JDBC baseline's: one JDBC batch per session. */
        static BatchCalls of(RawStore raw) {
            return new BatchCalls() {
                @Override
                public void create(CreateSession s) throws SQLException {
                    raw.createSession(s.id(), s.source(), Workload.MODEL);
                }

                @Override
                public void appendAll(String sessionId, List<NewMessage> messages) throws SQLException {
                    raw.appendBatch(sessionId, messages);
                }
            };
        }
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

    /** A store under test: its calls, and the size of what it writes (measured at each slice end) and of its WAL. */
    public record Target(Calls calls, LongSupplier dbBytes, LongSupplier walBytes) {
        /** A SQLite file's target. */
        public static Target file(Path db, Calls calls) {
            return new Target(calls, () -> Report.sizeOrZero(db), () -> Report.sizeOrZero(walOf(db)));
        }
    }

    /** Runs the schedule on one target. */
    public static Result run(IngestPlan plan, Path db, Calls calls) throws Exception {
        return runInterleaved(plan, List.of(Target.file(db, calls))).get(0);
    }

    /**
     * Runs the schedule on every target, interleaved by 10% slice (slice 1 on each target, then slice 2
     * on each, ..., the order rotating from slice to slice) so that all targets see the same machine
     * load: on a shared machine, load drifts over minutes, and a store measured a minute after its
     * baseline would be compared under different conditions. A target's elapsed time is the sum of
     * its slices, each from just before its first call to just after its last append; slice k holds
     * appends k·N/10 + 1 … (k+1)·N/10 and the create_session calls before them.
     */
    public static List<Result> runInterleaved(IngestPlan plan, List<Target> targets) throws Exception {
        int total = plan.appends().size();
        List<List<IngestPlan.Step>> slices = slices(plan);
        List<Latencies> appends = new ArrayList<>();
        List<Latencies> creates = new ArrayList<>();
        List<List<Slice>> sliceResults = new ArrayList<>();
        long[] elapsed = new long[targets.size()];
        for (int t = 0; t < targets.size(); t++) {
            appends.add(new Latencies(total));
            creates.add(new Latencies(plan.sessions()));
            sliceResults.add(new ArrayList<>(SLICES));
        }
        for (int k = 0; k < slices.size(); k++) {
            for (int turn = 0; turn < targets.size(); turn++) {
                int t = (turn + k) % targets.size();
                Target target = targets.get(t);
                Latencies sliceAppends = new Latencies(total / SLICES + 1);
                long start = System.nanoTime();
                long end = start;
                for (IngestPlan.Step step : slices.get(k)) {
                    long before = System.nanoTime();
                    if (step instanceof CreateSession create) {
                        target.calls().create(create);
                        end = System.nanoTime();
                        creates.get(t).add(end - before);
                    } else {
                        target.calls().append((Append) step);
                        end = System.nanoTime();
                        appends.get(t).add(end - before);
                        sliceAppends.add(end - before);
                    }
                }
                elapsed[t] += end - start;
                sliceResults.get(t).add(new Slice(k + 1, sliceAppends.count() / ((end - start) / 1e9),
                        sliceAppends.p50Ms(), sliceAppends.p99Ms(), target.dbBytes().getAsLong()));
            }
        }
        List<Result> results = new ArrayList<>(targets.size());
        for (int t = 0; t < targets.size(); t++) {
            Target target = targets.get(t);
            results.add(new Result(total, elapsed[t], appends.get(t), creates.get(t), List.copyOf(sliceResults.get(t)),
                    target.dbBytes().getAsLong(), target.walBytes().getAsLong()));
        }
        return results;
    }

    /** The steps of each 10% slice: a slice ends with its last append. */
    private static List<List<IngestPlan.Step>> slices(IngestPlan plan) {
        int total = plan.appends().size();
        List<List<IngestPlan.Step>> slices = new ArrayList<>(SLICES);
        List<IngestPlan.Step> current = new ArrayList<>();
        int done = 0;
        int slice = 0;
        for (IngestPlan.Step step : plan.steps()) {
            current.add(step);
            if (step instanceof Append && ++done == sliceEnd(slice, total)) {
                slices.add(current);
                current = new ArrayList<>();
                slice++;
            }
        }
        return slices;
    }

    /** For each session in index order: create it (untimed), then one timed call with all its messages. */
    public static BatchResult runBatches(IngestPlan plan, BatchCalls calls) throws Exception {
        return runBatchesInterleaved(plan, List.of(calls)).get(0);
    }

    /** As {@link #runBatches} on every target, session by session, the order rotating per session. */
    public static List<BatchResult> runBatchesInterleaved(IngestPlan plan, List<BatchCalls> targets) throws Exception {
        List<List<Append>> bySession = plan.appendsBySession();
        List<Latencies> batches = new ArrayList<>();
        targets.forEach(target -> batches.add(new Latencies(plan.sessions())));
        int messages = 0;
        for (IngestPlan.Step step : plan.steps()) {
            if (step instanceof CreateSession create) {
                List<NewMessage> own = bySession.get(create.index()).stream().map(Append::message).toList();
                for (int turn = 0; turn < targets.size(); turn++) {
                    int t = (turn + create.index()) % targets.size();
                    targets.get(t).create(create);
                    long before = System.nanoTime();
                    targets.get(t).appendAll(create.id(), own);
                    batches.get(t).add(System.nanoTime() - before);
                }
                messages += own.size();
            }
        }
        List<BatchResult> results = new ArrayList<>();
        for (Latencies latencies : batches) {
            results.add(new BatchResult(messages, latencies));
        }
        return results;
    }

    /** Appends k·N/10 + 1 … (k+1)·N/10 form slice k (0-based here): its last append is number (k+1)·N/10. */
    private static long sliceEnd(int slice, int total) {
        return (long) (slice + 1) * total / SLICES;
    }

    public static Path walOf(Path db) {
        return db.resolveSibling(db.getFileName() + "-wal");
    }
}
