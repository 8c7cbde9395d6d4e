package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.process.StoreTarget;
import dev.hermes.state.core.StateRepository;
import org.jooq.impl.DSL;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The writer-scaling run of issue 10: rounds of 1, 2, 4 and 8 writer processes (by default) appending
 * at once to one store, whatever {@code --db} names ({@link StoreTarget}); each round is a
 * {@link WriterRound} (2,000 appends per writer, one append_message call each) on sessions of its own,
 * followed by a check through the store that nothing was lost and the counters match the rows.
 * Reported per round: total messages/s (all successful appends / wall time from GO to the last
 * result) and the append latency p50, p99 and max over every append of the round.
 */
public final class WriterScaling {
    public static final List<Integer> DEFAULT_WRITERS = List.of(1, 2, 4, 8);

    /** A round and what the store holds for it afterwards. */
    public record Round(WriterRound writers, long messagesInStore, long messageCountSum) {
        public boolean nothingLost() {
            return writers.errors().isEmpty() && messagesInStore == writers.expectedMessages()
                    && writers.messagesOk() == writers.expectedMessages();
        }

        public boolean countsEqual() {
            return messagesInStore == messageCountSum;
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("writers", writers.workers());
            json.put("messages_ok", writers.messagesOk());
            json.put("errors", writers.errors());
            json.put("wall_s", Report.round(writers.wallNanos() / 1e9));
            json.put("msgs_per_s", Report.round(writers.msgsPerS()));
            json.put("append_p50_ms", Report.round(writers.appends().p50Ms()));
            json.put("append_p99_ms", Report.round(writers.appends().p99Ms()));
            json.put("append_max_ms", Report.round(writers.appends().maxMs()));
            json.put("appends_over_100ms", writers.appends().countOver(W9Concurrency.SLOW_NANOS));
            json.put("appends_over_1s", writers.appends().countOver(W9Concurrency.VERY_SLOW_NANOS));
            json.put("worker_elapsed_s", writers.workerElapsedS().stream().map(Report::round).toList());
            json.put("messages_in_store", messagesInStore);
            json.put("check_counts_equal", countsEqual());
            json.put("nothing_lost", nothingLost());
            return json;
        }
    }

    private WriterScaling() {
    }

    /** Runs the rounds in order on {@code target}; a line per round on {@code progress}. */
    public static List<Round> run(String target, List<Integer> writerCounts, Path scratch, PrintStream progress)
            throws Exception {
        // a tag of this run, so that rounds of several runs on one store never share a session id
        String run = Long.toString(System.currentTimeMillis(), 36);
        List<Round> rounds = new ArrayList<>();
        try (StateRepository store = StoreTarget.open(target)) {   // creates the schema before the writers open it
            for (int writers : writerCounts) {
                String prefix = "ws" + writers + "-" + run;
                progress.printf(Locale.ROOT, "  %d writer%s ...%n", writers, writers == 1 ? "" : "s");
                WriterRound round = WriterRound.run(target, writers, prefix, scratch);
                long inStore = store.dsl().fetchCount(MESSAGES, MESSAGES.SESSION_ID.like(prefix + "-%"));
                Long counted = store.dsl().select(DSL.sum(SESSIONS.MESSAGE_COUNT)).from(SESSIONS)
                        .where(SESSIONS.ID.like(prefix + "-%")).fetchOne(0, Long.class);
                rounds.add(new Round(round, inStore, counted == null ? 0 : counted));
            }
        }
        return rounds;
    }

    /** One aligned table, a line per round. */
    public static void print(String target, List<Round> rounds, PrintStream out) {
        out.printf(Locale.ROOT, "writer scaling on %s (%s): %,d appends per writer, %d CPUs%n", StoreTarget.describe(target),
                StoreTarget.engine(target), WriterRound.appendsPerWorker(), Runtime.getRuntime().availableProcessors());
        String format = "%7s  %10s  %6s  %7s  %8s  %7s  %7s  %8s  %7s  %4s  %s%n";
        out.printf(Locale.ROOT, format, "writers", "appends ok", "errors", "wall s", "msgs/s", "p50 ms", "p99 ms", "max ms",
                ">100 ms", ">1 s", "check");
        for (Round round : rounds) {
            WriterRound w = round.writers();
            int errors = w.errors().values().stream().mapToInt(Integer::intValue).sum();
            out.printf(Locale.ROOT, format, w.workers(), String.format(Locale.ROOT, "%,d", w.messagesOk()), errors,
                    String.format(Locale.ROOT, "%.2f", w.wallNanos() / 1e9), String.format(Locale.ROOT, "%,.0f", w.msgsPerS()),
                    String.format(Locale.ROOT, "%.2f", w.appends().p50Ms()),
                    String.format(Locale.ROOT, "%.2f", w.appends().p99Ms()),
                    String.format(Locale.ROOT, "%.1f", w.appends().maxMs()),
                    w.appends().countOver(W9Concurrency.SLOW_NANOS), w.appends().countOver(W9Concurrency.VERY_SLOW_NANOS),
                    round.nothingLost() && round.countsEqual() ? "ok" : "FAILED " + w.errors() + " in store "
                            + round.messagesInStore() + "/" + w.expectedMessages() + ", counters " + round.messageCountSum());
        }
    }
}
