package dev.hermes.state.bench.process;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.WriterPlan;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewSession;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A writer worker w (W9's, and the writer-scaling run's): arguments {@code w TARGET [SESSION-PREFIX]};
 * opens its own store on the shared target (a file, see {@link StoreTarget}), creates its 10 sessions and generates its
 * 2,000 messages (untimed), prints {@code READY}, waits for {@code GO} on stdin, appends every message
 * with one append_message call each (timed, every exception counted by kind and message, never
 * stopping), closes the store and prints one {@code RESULT {...}} line.
 *
 * <p>The result line is written with Jackson's object mapper, whose first use in a fresh JVM loads and
 * links much of jackson-databind: 0.2-1 s on a busy two-core machine, measured. W9's clock stops when the
 * parent has read the last result line, so that cost would count as the store's; it is paid once before
 * READY instead (the Python worker's json module is loaded before its GO too).
 */
public final class WriterProcess {
    public static final String READY = "READY";
    public static final String GO = "GO";
    public static final String RESULT = "RESULT ";

    private WriterProcess() {
    }

    public static void main(String[] args) throws IOException {
        int worker = Integer.parseInt(args[0]);
        String target = args[1];
        String prefix = args.length > 2 ? args[2] : WriterPlan.W9_PREFIX;
        WriterPlan plan = WriterPlan.build(prefix, worker, new ZipfSampler(Vocabulary.build()));
        long[] latencies = new long[plan.appends().size()];
        Map<String, Integer> errors = new TreeMap<>();
        int ok = 0;
        long elapsed;
        ObjectMapper json = new ObjectMapper();
        json.writeValueAsString(result(worker, ok, errors, 0, latencies)); // warm-up, see the class comment
        StateRepository store = StoreTarget.open(target);
        try {
            for (int k = 0; k < plan.sessionIds().size(); k++) {
                store.createSession(NewSession.builder(plan.sessionIds().get(k), plan.sources().get(k))
                        .model(Workload.MODEL).build());
            }
            System.out.println(READY);
            System.out.flush();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line = stdin.readLine();
            if (!GO.equals(line)) {
                System.err.println("worker " + worker + ": expected GO, got " + line);
                System.exit(4);
            }
            long start = System.nanoTime();
            for (int i = 0; i < latencies.length; i++) {
                WriterPlan.Append append = plan.appends().get(i);
                long before = System.nanoTime();
                try {
                    store.appendMessage(append.sessionId(), append.message());
                    ok++;
                } catch (RuntimeException failure) {
                    errors.merge(failure.getClass().getSimpleName() + ": " + failure.getMessage(), 1, Integer::sum);
                }
                latencies[i] = System.nanoTime() - before;
            }
            elapsed = System.nanoTime() - start;
        } finally {
            store.close();
        }
        System.out.println(RESULT + json.writeValueAsString(result(worker, ok, errors, elapsed, latencies)));
        System.out.flush();
    }

    private static Map<String, Object> result(int worker, int ok, Map<String, Integer> errors, long elapsed, long[] latencies) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("worker", worker);
        result.put("ok", ok);
        result.put("errors", errors);
        result.put("elapsed_ns", elapsed);
        result.put("latencies_ns", Arrays.stream(latencies).boxed().toList());
        return result;
    }
}
