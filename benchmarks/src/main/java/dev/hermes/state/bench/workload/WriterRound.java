package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.WriterPlan;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.process.Child;
import dev.hermes.state.bench.process.JavaProcess;
import dev.hermes.state.bench.process.WriterProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One round of concurrent writer processes on one store: {@code workers} JVMs (see {@link WriterProcess})
 * each open their own store on {@code target}, create their sessions and generate their 2,000
 * messages, report READY; then all get GO at the same moment and append. The wall time runs from GO
 * to the parent's receipt of the last worker's result line. W9 is a round of four; the writer-scaling
 * run ({@link WriterScaling}) rounds of 1, 2, 4 and 8.
 *
 * @param expectedMessages what the round appends when nothing fails
 */
public record WriterRound(int workers, int messagesOk, long wallNanos, Map<String, Integer> errors, Latencies appends,
                          List<Double> workerElapsedS, long expectedMessages) {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    public static long appendsPerWorker() {
        return (long) WriterPlan.SESSIONS * WriterPlan.MESSAGES_PER_SESSION;
    }

    /** Runs the round; the workers' sessions are {@code <sessionPrefix>-<worker>-<kk>}. */
    public static WriterRound run(String target, int workers, String sessionPrefix, Path scratch) throws Exception {
        List<Child> children = new ArrayList<>(workers);
        try {
            for (int w = 0; w < workers; w++) {
                children.add(Child.start(JavaProcess.command(JavaProcess.userOptions(false), WriterProcess.class,
                        String.valueOf(w), target, sessionPrefix), scratch.resolve(sessionPrefix + "-worker-" + w + ".err")));
            }
            for (Child child : children) {
                child.awaitLine(WriterProcess.READY, TIMEOUT);
            }
            long t0 = System.nanoTime();
            for (Child child : children) {
                child.send(WriterProcess.GO);
            }
            long t1 = t0;
            int ok = 0;
            Map<String, Integer> errors = new TreeMap<>();
            Latencies appends = new Latencies((int) (workers * appendsPerWorker()));
            List<Double> elapsed = new ArrayList<>();
            for (Child child : children) {
                Child.Line line = child.awaitLine(WriterProcess.RESULT, TIMEOUT);
                t1 = Math.max(t1, line.receivedNanos());
                Map<String, Object> report = W6Export.readMap(line.text().substring(WriterProcess.RESULT.length()));
                ok += field(report, "ok", Number.class).intValue();
                Map<?, ?> reported = field(report, "errors", Map.class);
                reported.forEach((kind, n) ->
                        errors.merge(String.valueOf(kind), ((Number) n).intValue(), Integer::sum));
                for (Object nanos : field(report, "latencies_ns", List.class)) {
                    appends.add(((Number) nanos).longValue());
                }
                elapsed.add(field(report, "elapsed_ns", Number.class).longValue() / 1e9);
            }
            for (Child child : children) {
                int code = child.waitFor(TIMEOUT);
                if (code != 0) {
                    errors.merge("worker exit code " + code, 1, Integer::sum);
                }
            }
            return new WriterRound(workers, ok, t1 - t0, errors, appends, elapsed, workers * appendsPerWorker());
        } finally {
            children.forEach(Child::close);
        }
    }

    public double msgsPerS() {
        return messagesOk / (wallNanos / 1e9);
    }

    /** A field every writer's report has, of the type it is written as. */
    private static <T> T field(Map<String, Object> report, String name, Class<T> type) {
        Object value = report.get(name);
        if (!type.isInstance(value)) {
            throw new IllegalStateException("writer report without " + name + ": " + report);
        }
        return type.cast(value);
    }
}
