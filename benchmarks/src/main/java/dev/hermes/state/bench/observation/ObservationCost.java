package dev.hermes.state.bench.observation;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What observing costs per operation (docs/observability.md quotes its figures; run it by hand): two stores on
 * two files of the same content, one without registries and one observed as Actuator would observe
 * it (an ObservationRegistry with Micrometer's meter handler, and the store's own meters); the rounds
 * alternate between them so machine noise hits both alike; the median round is reported. Appends are
 * W1's operation (one transaction per message, 50 sessions round-robin), reads W4's
 * ({@code getMessagesAsConversation} of a 40-message session). The third argument: {@code control}
 * leaves both stores unobserved (the difference between two files on a busy machine), {@code meters}
 * gives the second only the meter registry, {@code observations} only the observation registry,
 * {@code boot} a registry set up as Spring Boot's Actuator sets it up without a tracer,
 * {@code no-long-task} the meter handler without its long-task timer. Each round alternates the
 * stores every {@value #BLOCK} operations; wall-clock and this thread's CPU time are both reported.
 *
 * <pre>java -cp benchmarks/target/hermes-state-bench.jar dev.hermes.state.bench.observation.ObservationCost [rounds] [opsPerRound] [all|control|meters|observations|boot|no-long-task]</pre>
 */
public final class ObservationCost {
    private static final int BLOCK = 50;
    /** The store's operation timer (StoreOperationConvention.NAME; core.observation is not core's API). */
    private static final String TIMER = "hermes.state.operation";

    private ObservationCost() {
    }

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int ops = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        // "control": both stores unobserved, to see the noise between two files
        String mode = args.length > 2 ? args[2] : "all";
        run(Files.createTempDirectory("observation-cost"), rounds, ops, mode, System.out);
    }

    /** Runs the comparison in {@code dir} (two store files are created there) and prints it on {@code out}. */
    static void run(Path dir, int rounds, int ops, String mode, PrintStream out) throws IOException {
        boolean control = mode.equals("control");
        SimpleMeterRegistry simple = new SimpleMeterRegistry();
        MeterRegistry meters = simple;
        ObservationRegistry observations = ObservationRegistry.create();
        if (mode.equals("boot")) {
            // as Actuator configures it without a tracer: a composite registry in front of the
            // exporter's, a predicate and a filter (its management.observations.* properties), and the
            // meter handler with its long-task timer
            meters = new CompositeMeterRegistry(Clock.SYSTEM, List.of(simple));
            observations.observationConfig().observationPredicate((name, context) -> true)
                    .observationFilter(context -> context)
                    .observationHandler(new DefaultMeterObservationHandler(meters));
        } else if (mode.equals("no-long-task")) {
            observations.observationConfig().observationHandler(
                    new DefaultMeterObservationHandler(meters, DefaultMeterObservationHandler.IgnoredMeters.LONG_TASK_TIMER));
        } else {
            observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        }
        Path plainFile = dir.resolve("plain.db");
        Path observedFile = dir.resolve("observed.db");
        try (StateRepository plain = StateRepository.builder().path(plainFile).build();
             StateRepository observed = control ? StateRepository.builder().path(observedFile).build()
                     : StateRepository.builder().path(observedFile).observationRegistry(mode.equals("meters") ? null : observations)
                     .meterRegistry(mode.equals("observations") ? null : meters).build()) {
            for (StateRepository store : List.of(plain, observed)) {
                for (int s = 0; s < 50; s++) {
                    store.createSession("bench-" + s, "cli");
                    store.createSession("read-" + s, "cli");
                    for (int m = 0; m < 40; m++) {
                        store.appendMessage("read-" + s, NewMessage.of(m % 2 == 0 ? "user" : "assistant", "message " + m));
                    }
                    for (int m = 0; m < 40; m++) {
                        store.appendMessage("bench-" + s, NewMessage.of(m % 2 == 0 ? "user" : "assistant", "message " + m));
                    }
                }
            }
            // per round and store: wall and CPU time (this thread's: SQLite runs on the caller's thread,
            // and CPU time is what other processes on a busy machine disturb least), in blocks of
            // BLOCK operations alternating between the stores, so that a burst of load hits both
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            double[][][] append = new double[2][2][rounds]; // [store][wall|cpu][round]
            double[][][] read = new double[2][2][rounds];
            int counter = 0;
            for (int round = -3; round < rounds; round++) { // three warm-up rounds
                long[][] appendSums = new long[2][2];
                long[][] readSums = new long[2][2];
                for (int block = 0; block < ops / BLOCK; block++) {
                    for (int turn = 0; turn < 2; turn++) {
                        int which = ((round + block) & 1) == 0 ? turn : 1 - turn; // alternate who goes first
                        StateRepository store = which == 0 ? plain : observed;
                        long wall = System.nanoTime();
                        long used = cpu.getCurrentThreadCpuTime();
                        for (int i = 0; i < BLOCK; i++) {
                            store.appendMessage("bench-" + (i % 50), NewMessage.of("user", "appended " + counter++));
                        }
                        appendSums[which][0] += System.nanoTime() - wall;
                        appendSums[which][1] += cpu.getCurrentThreadCpuTime() - used;
                        wall = System.nanoTime();
                        used = cpu.getCurrentThreadCpuTime();
                        for (int i = 0; i < BLOCK; i++) {
                            store.getMessagesAsConversation("read-" + ((block * BLOCK + i) * 7 % 50));
                        }
                        readSums[which][0] += System.nanoTime() - wall;
                        readSums[which][1] += cpu.getCurrentThreadCpuTime() - used;
                    }
                }
                if (round >= 0) {
                    for (int which = 0; which < 2; which++) {
                        for (int clock = 0; clock < 2; clock++) {
                            append[which][clock][round] = appendSums[which][clock] / 1000.0 / ops;
                            read[which][clock][round] = readSums[which][clock] / 1000.0 / ops;
                        }
                    }
                }
            }
            for (int clock = 0; clock < 2; clock++) {
                String name = clock == 0 ? "wall" : "cpu ";
                out.printf("append (W1's operation) %s µs/op: off %.1f, on %.1f, on/off %.3f%n", name,
                        median(append[0][clock]), median(append[1][clock]), median(append[1][clock]) / median(append[0][clock]));
                out.printf("read (W4's operation)   %s µs/op: off %.1f, on %.1f, on/off %.3f%n", name,
                        median(read[0][clock]), median(read[1][clock]), median(read[1][clock]) / median(read[0][clock]));
            }
            if (!control && !mode.equals("meters")) {
                out.println("timers: " + simple.get(TIMER).timers().size()
                        + ", operations timed: " + simple.get(TIMER).timers().stream()
                        .mapToLong(t -> t.count()).sum());
            }
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
