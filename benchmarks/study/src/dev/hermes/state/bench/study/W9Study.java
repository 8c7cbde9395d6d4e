package dev.hermes.state.bench.study;

import dev.hermes.state.bench.process.Child;
import dev.hermes.state.bench.process.JavaProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * W9 as the benchmark runs it (four worker JVMs, READY, one GO, t1 = last result line read), with
 * {@link W9Worker} so that each append's start and duration come back. Usage:
 * W9Study DB SCRATCH_DIR [JVM options for the workers...]. DB is used as is (copy it first).
 * Prints total msgs/s, p50/p99/max, appends over 100 ms / 1 s, per worker elapsed / JIT / GC / CPU time,
 * and the 12 slowest appends with their time after GO.
 */
public final class W9Study {
    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        Path scratch = Path.of(args[1]);
        Files.createDirectories(scratch);
        List<String> options = new ArrayList<>(Arrays.asList(args).subList(2, args.length));
        List<Child> workers = new ArrayList<>();
        Duration timeout = Duration.ofMinutes(5);
        for (int w = 0; w < 4; w++) {
            workers.add(Child.start(JavaProcess.command(options, W9Worker.class, String.valueOf(w), db.toString()),
                    scratch.resolve("w9-" + w + ".err")));
        }
        for (Child worker : workers) {
            worker.awaitLine("READY", timeout);
        }
        long t0 = System.nanoTime();
        for (Child worker : workers) {
            worker.send("GO");
        }
        long t1 = t0;
        List<long[]> appends = new ArrayList<>(); // worker, start, duration
        StringBuilder perWorker = new StringBuilder();
        int ok = 0;
        for (int w = 0; w < 4; w++) {
            Child.Line line = workers.get(w).awaitLine("RESULT ", timeout);
            t1 = Math.max(t1, line.receivedNanos());
            String[] r = line.text().split(" ");
            ok += Integer.parseInt(r[1]);
            perWorker.append(String.format("  worker %d: ok %s errors %s elapsed %.2f s, JIT %s ms, GC %s ms, CPU %s ms%n",
                    w, r[1], r[2], Long.parseLong(r[3]) / 1e9, r[4], r[5], r[6]));
            for (Child.Line a = workers.get(w).nextLine(timeout); a.text() != null; a = workers.get(w).nextLine(timeout)) {
                if (a.text().startsWith("A ")) {
                    String[] f = a.text().split(" ");
                    appends.add(new long[]{w, Long.parseLong(f[1]), Long.parseLong(f[2])});
                }
            }
            workers.get(w).waitFor(timeout);
        }
        long[] durations = appends.stream().mapToLong(a -> a[2]).sorted().toArray();
        int n = durations.length;
        System.out.printf("W9 study (%s): %d ok, %.0f msgs/s (wall %.2f s), p50 %.2f ms, p99 %.1f ms, max %.0f ms, "
                        + ">100ms %d, >1s %d%n", String.join(" ", options), ok, ok / ((t1 - t0) / 1e9), (t1 - t0) / 1e9,
                durations[(int) Math.ceil(0.5 * n) - 1] / 1e6, durations[(int) Math.ceil(0.99 * n) - 1] / 1e6,
                durations[n - 1] / 1e6, Arrays.stream(durations).filter(d -> d > 100_000_000L).count(),
                Arrays.stream(durations).filter(d -> d > 1_000_000_000L).count());
        System.out.print(perWorker);
        appends.sort((a, b) -> Long.compare(b[2], a[2]));
        System.out.print("  slowest appends (worker @ ms after GO: ms):");
        for (int i = 0; i < Math.min(12, appends.size()); i++) {
            long[] a = appends.get(i);
            System.out.printf(" %d@%.0f:%.0f", a[0], (a[1] - t0) / 1e6, a[2] / 1e6);
        }
        System.out.println();
        long go = t0;
        long slowFirstSecond = appends.stream().filter(a -> a[2] > 100_000_000L && a[1] - go < 1_000_000_000L).count();
        long slow = appends.stream().filter(a -> a[2] > 100_000_000L).count();
        System.out.printf("  appends > 100 ms starting in the first second after GO: %d of %d%n", slowFirstSecond, slow);
        long wall = t1 - t0;
        System.out.printf("  appends started in the first second: %d; in the last: %d%n",
                appends.stream().filter(a -> a[1] - go < 1_000_000_000L).count(),
                appends.stream().filter(a -> a[1] - go > wall - 1_000_000_000L).count());
    }
}
