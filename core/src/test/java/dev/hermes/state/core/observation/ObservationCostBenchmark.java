package dev.hermes.state.core.observation;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.TestStores;
import dev.hermes.state.core.model.NewMessage;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What observing costs per operation (not a test: run it by hand, see the report): two stores on
 * two files of the same content, one without registries and one observed as Actuator would observe
 * it (an ObservationRegistry with Micrometer's meter handler, and the store's own meters); the rounds
 * alternate between them so machine noise hits both alike; the median round is reported. Appends are
 * W1's operation (one transaction per message, 50 sessions round-robin), reads W4's
 * ({@code getMessagesAsConversation} of a 40-message session). The third argument: {@code control}
 * leaves both stores unobserved (the difference between two files on a busy machine), {@code meters}
 * gives the second only the meter registry, {@code observations} only the observation registry.
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.observation.ObservationCostBenchmark [rounds] [opsPerRound] [all|control|meters|observations]</pre>
 */
public final class ObservationCostBenchmark {
    private ObservationCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int ops = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        // "control": both stores unobserved, to see the noise between two files
        String mode = args.length > 2 ? args[2] : "all";
        boolean control = mode.equals("control");
        Path dir = Files.createTempDirectory("observation-cost");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        Path plainFile = TestStores.newDatabase(Files.createDirectory(dir.resolve("plain")), 17);
        Path observedFile = TestStores.newDatabase(Files.createDirectory(dir.resolve("observed")), 17);
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
            double[][] append = new double[2][rounds];
            double[][] read = new double[2][rounds];
            int counter = 0;
            for (int round = -3; round < rounds; round++) { // three warm-up rounds
                for (int turn = 0; turn < 2; turn++) {
                    int first = (round & 1) == 0 ? turn : 1 - turn; // alternate who goes first
                    StateRepository store = first == 0 ? plain : observed;
                    long start = System.nanoTime();
                    for (int i = 0; i < ops; i++) {
                        store.appendMessage("bench-" + (i % 50), NewMessage.of("user", "appended " + counter++));
                    }
                    double appendMicros = (System.nanoTime() - start) / 1000.0 / ops;
                    start = System.nanoTime();
                    for (int i = 0; i < ops; i++) {
                        store.getMessagesAsConversation("read-" + (i * 7 % 50));
                    }
                    double readMicros = (System.nanoTime() - start) / 1000.0 / ops;
                    if (round >= 0) {
                        append[first][round] = appendMicros;
                        read[first][round] = readMicros;
                    }
                }
            }
            System.out.printf("append (W1's operation) µs/op: off %.1f, on %.1f, on/off %.3f%n", median(append[0]),
                    median(append[1]), median(append[1]) / median(append[0]));
            System.out.printf("read (W4's operation)   µs/op: off %.1f, on %.1f, on/off %.3f%n", median(read[0]),
                    median(read[1]), median(read[1]) / median(read[0]));
            if (!control && !mode.equals("meters")) {
                System.out.println("timers: " + meters.get(StoreOperationConvention.NAME).timers().size()
                        + ", operations timed: " + meters.get(StoreOperationConvention.NAME).timers().stream()
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
