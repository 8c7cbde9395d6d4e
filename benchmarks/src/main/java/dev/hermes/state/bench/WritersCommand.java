package dev.hermes.state.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.bench.workload.WriterRound;
import dev.hermes.state.bench.workload.WriterScaling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * {@code hermes-state bench writers}: the writer-scaling run ({@link WriterScaling}) on each target
 * {@code --db} names, in the order given, in one run; one table per target and one JSON result file.
 */
@Command(name = "writers", description = {
        "Writer scaling: rounds of 1, 2, 4 and 8 writer processes appending at once to one store (2,000 "
                + "append_message calls each); per round the total messages/s and the append latency p50/p99/max, "
                + "then a check that nothing was lost and the counters match the rows.",
        "Without --db the store is a new SQLite file in a fresh folder under target/bench (deleted at the end)."})
final class WritersCommand implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    @SuppressWarnings("UnusedVariable") // set by picocli, which prints the help itself
    private boolean help;

    @Option(names = "--db", paramLabel = "TARGET", description = "A store to run on: a SQLite file (created when missing), "
            + "or a PostgreSQL URL once the store opens one. Repeat it to run on several stores in one run.")
    private List<String> targets = new ArrayList<>();

    @Option(names = "--writers", paramLabel = "N,N...", split = ",", description = "The rounds' writer counts "
            + "(default 1,2,4,8).")
    private List<Integer> writers = new ArrayList<>(WriterScaling.DEFAULT_WRITERS);

    @Option(names = "--out", paramLabel = "FILE", description = "The JSON result file (default "
            + "target/bench/hermes-writers.json).")
    private @Nullable Path out;

    private final Path workDir;
    private final PrintStream stdout;
    private final PrintStream stderr;

    WritersCommand(Path workDir, PrintStream stdout, PrintStream stderr) {
        this.workDir = workDir;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    @Override
    public Integer call() {
        if (writers.isEmpty() || writers.stream().anyMatch(n -> n < 1)) {
            stderr.println("bench writers: --writers takes counts of at least 1 (got " + writers + ")");
            return 2;
        }
        Path runDir = null;
        try {
            Files.createDirectories(workDir);
            runDir = Files.createTempDirectory(workDir, "writers-run-");
            List<String> stores = targets.isEmpty() ? List.of(runDir.resolve("state.db").toString()) : targets;
            List<Map<String, Object>> results = new ArrayList<>();
            boolean allOk = true;
            for (String target : stores) {
                stderr.println("writer scaling on " + StoreTarget.describe(target));
                List<WriterScaling.Round> rounds = WriterScaling.run(target, writers, runDir, stderr);
                WriterScaling.print(target, rounds, stdout);
                stdout.println();
                allOk &= rounds.stream().allMatch(round -> round.nothingLost() && round.countsEqual());
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("target", StoreTarget.describe(target));
                result.put("engine", StoreTarget.engine(target));
                result.put("rounds", rounds.stream().map(WriterScaling.Round::toJson).toList());
                results.add(result);
            }
            Path resultFile = out != null ? out : workDir.resolve("hermes-writers.json");
            writeResult(resultFile, results);
            stdout.println("result file: " + resultFile);
            return allOk ? 0 : 1;
        } catch (HermesStateException | IllegalArgumentException | IllegalStateException e) {
            stderr.println("bench writers: failed: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            stderr.println("bench writers: failed: " + e);
            e.printStackTrace(stderr);
            return 1;
        } finally {
            if (runDir != null && !Boolean.getBoolean("hermes.bench.keep")) {
                Benchmark.deleteRecursively(runDir);
            }
        }
    }

    private void writeResult(Path resultFile, List<Map<String, Object>> results) throws java.io.IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("definition", "writer-scaling/1");
        json.put("appends_per_writer", WriterRound.appendsPerWorker());
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("runtime", "Java " + System.getProperty("java.version"));
        env.put("cpus", Runtime.getRuntime().availableProcessors());
        env.put("cpu_model", Benchmark.cpuModel());
        json.put("env", env);
        json.put("targets", results);
        Path parent = resultFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(resultFile.toFile(), json);
    }
}
