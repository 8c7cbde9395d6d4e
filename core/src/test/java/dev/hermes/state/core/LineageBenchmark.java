package dev.hermes.state.core;

import dev.hermes.state.migrations.Migrator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Arrays;

/**
 * get_compression_tip along compression chains 1,000 and 10,000 deep (BENCHMARK.md W5 and its
 * extra), in a file that also holds 5,000 unrelated sessions, and where every tenth hop also has a
 * delegate child (started before its parent ended, so the walk must skip it). Reports the p50 and
 * max of 50 calls after 10 untimed ones, wall clock and CPU time of the calling thread (SQLite
 * runs in it), and the p50 of 10 calls of ancestors and lineageTree of the whole chain.
 * Not a test: run it by hand (see the report).
 *
 * <pre>java -cp CLASSPATH dev.hermes.state.core.LineageBenchmark [depth...]</pre>
 */
public final class LineageBenchmark {
    private static final double START = 1_773_133_200.0;

    private LineageBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int[] depths = args.length == 0 ? new int[]{1000, 10_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Path work = Files.createTempDirectory("lineage-bench");
        for (int depth : depths) {
            Path file = work.resolve("chain" + depth + ".db");
            Migrator.create().toVersion(StateRepository.DEFAULT_SCHEMA_VERSION).migrate(file);
            fill(file, depth);
            try (StateRepository store = StateRepository.open(file)) {
                String expected = "chain-" + depth;
                String tip = store.compressionTip("chain-0");
                if (!tip.equals(expected)) {
                    throw new IllegalStateException("wrong tip " + tip + ", expected " + expected);
                }
                double[] tipTimes = times(() -> store.compressionTip("chain-0"), 50);
                int ancestors = store.ancestors(expected).size();
                double[] ancestorsTimes = times(() -> store.ancestors(expected), 10);
                int tree = store.lineageTree("chain-0").size();
                double[] treeTimes = times(() -> store.lineageTree("chain-0"), 10);
                System.out.printf("depth %5d: compressionTip p50 %.2f ms (max %.2f), CPU p50 %.2f ms; ancestors (%d) p50 %.1f ms, tree (%d) p50 %.1f ms%n",
                        depth, tipTimes[0], tipTimes[1], tipTimes[2], ancestors, ancestorsTimes[0], tree, treeTimes[0]);
            }
        }
    }

    /** p50 and max wall-clock ms, and p50 CPU ms, of {@code calls} calls after 10 untimed ones. */
    private static double[] times(Runnable call, int calls) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 10; i++) {
            call.run();
        }
        long[] wall = new long[calls];
        long[] cpu = new long[calls];
        for (int i = 0; i < calls; i++) {
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            call.run();
            wall[i] = System.nanoTime() - start;
            cpu[i] = threads.getCurrentThreadCpuTime() - cpuStart;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new double[]{wall[calls / 2] / 1e6, wall[calls - 1] / 1e6, cpu[calls / 2] / 1e6};
    }

    /** 5,000 unrelated sessions, then the chain chain-0 ... chain-DEPTH, a delegate on every tenth hop. */
    private static void fill(Path file, int depth) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO sessions (id, source, model,"
                    + " parent_session_id, started_at, ended_at, end_reason) VALUES (?, 'cli', 'bench/model-a', ?, ?, ?, ?)")) {
                for (int i = 0; i < 5000; i++) {
                    add(insert, "other-" + i, null, START - 100_000 + i, START - 100_000 + i + 0.5, "cli_close");
                }
                for (int hop = 0; hop <= depth; hop++) {
                    double started = START + 10.0 * hop;
                    boolean last = hop == depth;
                    add(insert, "chain-" + hop, hop == 0 ? null : "chain-" + (hop - 1), started,
                            last ? null : started + 5, last ? null : "compression");
                    if (hop % 10 == 0) {
                        add(insert, "delegate-" + hop, "chain-" + hop, started + 1, started + 2, "delegate_complete");
                    }
                }
            }
            connection.commit();
        }
    }

    private static void add(PreparedStatement insert, String id, String parent, double startedAt, Double endedAt,
                            String endReason) throws Exception {
        insert.setString(1, id);
        insert.setString(2, parent);
        insert.setDouble(3, startedAt);
        insert.setObject(4, endedAt);
        insert.setString(5, endReason);
        insert.executeUpdate();
    }
}
