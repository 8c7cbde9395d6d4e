package dev.hermes.state.it.core;

import dev.hermes.state.core.StateRepository;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A separate writer process: opens its own store on the file (or the PostgreSQL URL, in the schema
 * given as a fourth argument), prints READY, waits for GO on stdin,
 * runs its {@link AppendWorkload}, prints one line "DONE latency-summary" (or "FAILED message")
 * and exits 0 (1 on failure).
 */
public final class ContentionWriterChild {
    private ContentionWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        AppendWorkload workload = new AppendWorkload(args[1], Integer.parseInt(args[2]));
        try (StateRepository store = StateRepository.builder().location(args[0]).schema(args.length > 3 ? args[3] : null)
                .build()) {
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"GO".equals(in.readLine())) {
                System.out.println("FAILED no GO");
                System.exit(1);
            }
            long[] latencies = workload.run(store);
            System.out.println("DONE " + AppendWorkload.summary(latencies));
        } catch (RuntimeException failure) {
            System.out.println("FAILED " + failure);
            System.exit(1);
        }
    }
}
