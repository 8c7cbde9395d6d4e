package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.IngestPlan;
import dev.hermes.state.bench.data.Vocabulary;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.data.ZipfSampler;
import dev.hermes.state.bench.engine.PostgresDatabases;
import dev.hermes.state.bench.engine.RunDatabases;
import dev.hermes.state.bench.engine.SqliteDatabases;
import dev.hermes.state.bench.raw.RawStore;
import dev.hermes.state.core.StateRepository;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * The W1 batch row alone, as the benchmark runs it (the same plan, {@code appendMessages} per session
 * against one raw JDBC batch plus one counter update per session, interleaved session by session), on
 * a PostgreSQL URL (fresh throwaway schemas, dropped at the end) or in a fresh folder for SQLite:
 *
 * <pre>java -cp benchmarks/target/hermes-state-bench.jar dev.hermes.state.bench.workload.BatchAppends [URL|-] [sessions] [messages] [rounds]</pre>
 */
public final class BatchAppends {
    private BatchAppends() {
    }

    public static void main(String[] args) throws Exception {
        String db = args.length > 0 ? args[0] : "-";
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : Workload.QUICK_SESSIONS;
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : Workload.DEFAULT_MESSAGES;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        IngestPlan plan = IngestPlan.build(sessions, messages, new ZipfSampler(Vocabulary.build()));
        PrintStream log = System.err;
        for (int round = 0; round < rounds; round++) {
            try (RunDatabases databases = db.startsWith("postgres")
                    ? PostgresDatabases.open(db, null, false, StateRepository.DEFAULT_SCHEMA_VERSION, log)
                    : new SqliteDatabases(Files.createTempDirectory("hermes-batch-appends"), null, StateRepository.DEFAULT_SCHEMA_VERSION)) {
                List<W1Ingest.BatchResult> results = run(databases, plan);
                double ours = results.get(0).msgsPerS();
                double raw = results.get(1).msgsPerS();
                System.out.printf(Locale.ROOT, "W1 batch, %d sessions x %d messages: ours %.0f msgs/s, raw %.0f msgs/s, ours/raw %.3f%n",
                        sessions, messages, ours, raw, ours / raw);
            }
        }
    }

    /** The batch row on {@code databases}' places {@code batch} and {@code raw-batch}: ours, then raw. */
    public static List<W1Ingest.BatchResult> run(RunDatabases databases, IngestPlan plan) throws Exception {
        try (StateRepository store = databases.openStore("batch"); RawStore raw = databases.openRaw("raw-batch", 0)) {
            return W1Ingest.runBatchesInterleaved(plan, List.of(W1Ingest.BatchCalls.of(store), W1Ingest.BatchCalls.of(raw)));
        }
    }
}
