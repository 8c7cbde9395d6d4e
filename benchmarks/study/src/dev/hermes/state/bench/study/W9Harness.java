package dev.hermes.state.bench.study;

import dev.hermes.state.bench.engine.SqliteDatabases;
import dev.hermes.state.bench.workload.W9Concurrency;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the benchmark's own W9 (W9Concurrency with WriterProcess children, started with this JVM's class
 * path and options) on DB and prints its figures plus the gap between the slowest worker's append loop
 * and the wall time (t1 - t0), i.e. what the worker does after its last append (close, result line).
 * Start it on the packaged jar as the benchmark is started: java [bench options] -cp hermes-state.jar:STUDY
 * dev.hermes.state.bench.study.W9Harness DB SCRATCH.
 */
public final class W9Harness {
    public static void main(String[] args) throws Exception {
        Path scratch = Files.createDirectories(Path.of(args[1]));
        W9Concurrency.Result r = W9Concurrency.run(new SqliteDatabases(scratch, Path.of(args[0])), scratch);
        double slowest = r.workerElapsedS().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        System.out.printf("W9 harness: %.0f msgs/s, wall %.3f s, slowest worker loop %.3f s, after-loop gap %.3f s, "
                        + "max append %.0f ms, >1s %d, p99 %.1f ms%n", r.msgsPerS(), r.wallNanos() / 1e9, slowest,
                r.wallNanos() / 1e9 - slowest, r.appends().maxMs(), r.appends().countOver(W9Concurrency.VERY_SLOW_NANOS),
                r.appends().p99Ms());
    }
}
