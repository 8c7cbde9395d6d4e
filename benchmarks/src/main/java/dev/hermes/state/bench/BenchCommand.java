package dev.hermes.state.bench;

import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.bench.workload.W8ColdOpen;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * {@code hermes-state bench}: the W1-W9 workload of BENCHMARK.md with its raw-JDBC baseline, in a
 * fresh work folder; prints one table and writes the result file. The main class of the benchmark's
 * own jar ({@code benchmarks/target/hermes-state-bench.jar}), to which the root script
 * {@code ./hermes-state} hands {@code bench} and its options: the command's jar carries no benchmark.
 */
@Command(name = "hermes-state bench", description = {
        "Run the benchmark workload W1-W9 (BENCHMARK.md) against a new database, with a raw-JDBC baseline in the "
                + "same run; print the table and write the JSON result file.",
        "Full size (5,000 sessions x 40 messages) takes several minutes; --quick is 500 sessions.",
        "With --db URL the same run goes to a PostgreSQL server, against a raw pgjdbc baseline on the same server."},
        footer = {"", "hermes-state bench writers [--db TARGET]... : the writer-scaling run (1, 2, 4, 8 writer processes;"
                + " more: bench writers --help).",
                "hermes-state bench serve : every API call of hermes-state serve on the S=5000 store (p50/p95; bench serve --help).", "", "W8 also times the start of the command line when the JVM is given its jar:",
                "-D" + W8ColdOpen.CLI_JAR_PROPERTY + "=cli/target/hermes-state.jar (./hermes-state bench passes it)."})
public final class BenchCommand implements Callable<Integer> {
    /**
     * The databases go on disk under the current folder (the benchmark makes a fresh sub-folder per
     * run): a temporary folder may be memory-backed, which would hide the cost of durable commits.
     */
    private static final Path WORK_DIR = Path.of("target", "bench");

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    @SuppressWarnings("UnusedVariable") // set by picocli, which prints the help itself
    private boolean help;

    @Option(names = "--sessions", paramLabel = "S", description = "Sessions (default " + Workload.DEFAULT_SESSIONS
            + ", " + Workload.QUICK_SESSIONS + " with --quick).")
    private @Nullable Integer sessions;

    @Option(names = "--messages", paramLabel = "M", description = "Messages per session (default "
            + Workload.DEFAULT_MESSAGES + ").")
    private int messages = Workload.DEFAULT_MESSAGES;

    @Option(names = "--quick", description = "The quick variant: " + Workload.QUICK_SESSIONS + " sessions.")
    private boolean quick;

    @Option(names = "--db", paramLabel = "FILE|URL", description = {"Where the stores go: a new SQLite file (default: "
            + "state.db in a fresh folder under target/bench), or a PostgreSQL server, postgresql://user:password@host:port/dbname"
            + " (or jdbc:postgresql://...): the store in a new schema (--schema), the raw baseline and the other stores of the"
            + " run in schemas named after it."})
    private @Nullable String db;

    @Option(names = "--schema", paramLabel = "NAME", description = "With a PostgreSQL --db: the main store's schema, which "
            + "must not exist yet (default: a fresh hermes_bench_<random>); the run's other schemas are NAME_<store>.")
    private @Nullable String schema;

    @Option(names = "--schema-version", paramLabel = "6|17", description = "The schema version of the run's stores "
            + "(default ${DEFAULT-VALUE}; 6: the stores kept at 6, to compare with).")
    private int schemaVersion = StateRepository.DEFAULT_SCHEMA_VERSION;

    @Option(names = "--keep", description = "Keep the run's stores (files or schemas) after the run; by default they are "
            + "deleted (dropped).")
    private boolean keep;

    @Option(names = "--out", paramLabel = "FILE", description = "The JSON result file (default: chosen by the "
            + "benchmark under target/bench/).")
    private @Nullable Path out;

    private final PrintStream stdout;
    private final PrintStream stderr;

    private BenchCommand(PrintStream stdout, PrintStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintStream(System.out, true, StandardCharsets.UTF_8),
                new PrintStream(System.err, true, StandardCharsets.UTF_8)));
    }

    /**
     * Runs one command line and returns the exit code: 0 done, 1 a data or correctness check failed,
     * 2 bad usage or arguments.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new CommandLine(new BenchCommand(out, err))
                .addSubcommand("writers", new WritersCommand(WORK_DIR, out, err))
                .addSubcommand("serve", new ServeBenchCommand(WORK_DIR, out, err))
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
                .execute(args);
    }

    @Override
    public Integer call() {
        int sessionCount = sessions != null ? sessions : quick ? Workload.QUICK_SESSIONS : Workload.DEFAULT_SESSIONS;
        // a null result file lets the benchmark choose
        if (schemaVersion != Migrator.KEPT_VERSION && schemaVersion != Migrator.LATEST_VERSION) {
            stderr.println("bench: --schema-version is " + Migrator.KEPT_VERSION + " or " + Migrator.LATEST_VERSION
                    + ", not " + schemaVersion);
            return 2;
        }
        // the child processes open the run's stores at the same version
        System.setProperty(StoreTarget.SCHEMA_VERSION_PROPERTY, String.valueOf(schemaVersion));
        return Benchmark.run(WORK_DIR, new Benchmark.Stores(db, schema, keep, schemaVersion), sessionCount, messages, out,
                stdout, stderr);
    }
}
