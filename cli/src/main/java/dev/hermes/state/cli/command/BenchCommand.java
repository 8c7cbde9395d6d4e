package dev.hermes.state.cli.command;

import dev.hermes.state.bench.Benchmark;
import dev.hermes.state.cli.HermesStateCli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code bench}: the W1-W9 workload of BENCHMARK.md with its raw-JDBC baseline, run by the
 * benchmarks module in a fresh work folder; prints one table and writes the result file.
 */
@Command(mixinStandardHelpOptions = true, name = "bench", description = {
        "Run the benchmark workload W1-W9 (BENCHMARK.md) against a new database, with a raw-JDBC baseline in the "
                + "same run; print the table and write the JSON result file.",
        "Full size (5,000 sessions x 40 messages) takes several minutes; --quick is 500 sessions."})
public final class BenchCommand implements Callable<Integer> {
    private static final int DEFAULT_SESSIONS = 5000;
    private static final int QUICK_SESSIONS = 500;
    /**
     * The databases go on disk under the current folder (the benchmark makes a fresh sub-folder per
     * run): a temporary folder may be memory-backed, which would hide the cost of durable commits.
     */
    private static final Path WORK_DIR = Path.of("target", "bench");

    @ParentCommand
    private HermesStateCli cli;

    @Option(names = "--sessions", paramLabel = "S", description = "Sessions (default " + DEFAULT_SESSIONS
            + ", " + QUICK_SESSIONS + " with --quick).")
    private Integer sessions;

    @Option(names = "--messages", paramLabel = "M", defaultValue = "40", description = "Messages per session (default ${DEFAULT-VALUE}).")
    private int messages;

    @Option(names = "--quick", description = "The quick variant: " + QUICK_SESSIONS + " sessions.")
    private boolean quick;

    @Option(names = "--out", paramLabel = "FILE", description = "The JSON result file (default: chosen by the "
            + "benchmark under target/bench/).")
    private Path out;

    @Override
    public Integer call() {
        int sessionCount = sessions != null ? sessions : quick ? QUICK_SESSIONS : DEFAULT_SESSIONS;
        cli.out().flush();
        // exit code: 0 done, 1 a data or correctness check failed, 2 bad arguments; a null result file lets it choose
        return Benchmark.run(WORK_DIR, sessionCount, messages, out, cli.out(), cli.err());
    }
}
