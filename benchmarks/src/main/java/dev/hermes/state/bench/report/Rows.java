package dev.hermes.state.bench.report;

import dev.hermes.state.bench.data.SearchCases.Category;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.bench.workload.W1Ingest;
import dev.hermes.state.bench.workload.W3Listing;
import dev.hermes.state.bench.workload.W5Lineage;
import dev.hermes.state.bench.workload.W8ColdOpen;
import dev.hermes.state.bench.workload.W9Concurrency;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Locale;

/**
 * The result table: the headline measure of every workload, ours against the raw-JDBC baseline where
 * there is one, and every target of issue 5 with met / MISSED / n/a.
 */
public final class Rows {
    public static final double W1_MIN_RATIO = 0.85;
    public static final double W2_MAX_RATIO = 1.2;
    public static final double W2_RARE_MAX_MS = 1.0;
    public static final double W3_MAX_SCALING = 2.0;
    public static final double W5_MAX_P50_MS = 5.0;
    public static final long W7_MAX_WAL_BYTES = 16L * 1024 * 1024;
    public static final double W8_MAX_RATIO = 2.5;
    public static final double W9_MAX_P99_MS = 250;

    private Rows() {
    }

    public static List<Row> of(RunResults r) {
        List<Row> rows = new ArrayList<>();
        ingest(r, rows);
        search(r, rows);
        listing(r, rows);
        read(r, rows);
        lineage(r, rows);
        export(r, rows);
        prune(r, rows);
        coldOpen(r, rows);
        concurrency(r, rows);
        return rows;
    }

    private static void ingest(RunResults r, List<Row> rows) {
        double ratio = r.w1().msgsPerS() / r.rawW1().msgsPerS();
        rows.add(new Row("W1 ingest", "msgs/s, 1 tx per append_message", rate(r.w1().msgsPerS()),
                rate(r.rawW1().msgsPerS()), ratio(ratio), ">= 0.85 x raw", ratio >= W1_MIN_RATIO, null));
        rows.add(Row.compared("W1 ingest", "append p50 / p99 ms", ms(r.w1().appends().p50Ms()) + " / "
                + ms(r.w1().appends().p99Ms()), ms(r.rawW1().appends().p50Ms()) + " / " + ms(r.rawW1().appends().p99Ms()),
                ratio(r.w1().appends().p50Ms() / r.rawW1().appends().p50Ms())));
        if (r.rawCheckpointW1() != null) { // SQLite's checkpoint policy: no such baseline on PostgreSQL
            rows.add(Row.compared("W1 ingest", "msgs/s vs raw + PASSIVE checkpoint every 50", rate(r.w1().msgsPerS()),
                    rate(r.rawCheckpointW1().msgsPerS()), ratio(r.w1().msgsPerS() / r.rawCheckpointW1().msgsPerS())));
        }
        double batchRatio = r.batch().msgsPerS() / r.rawBatch().msgsPerS();
        rows.add(new Row("W1 batch", "msgs/s, appendMessages vs JDBC batch", rate(r.batch().msgsPerS()),
                rate(r.rawBatch().msgsPerS()), ratio(batchRatio), ">= 0.85 x raw", batchRatio >= W1_MIN_RATIO, null));
        List<W1Ingest.Slice> slices = r.w1().slices();
        double first = slices.get(0).msgsPerS();
        double last = slices.get(slices.size() - 1).msgsPerS();
        double rawSlices = r.rawW1().slices().get(slices.size() - 1).msgsPerS() / r.rawW1().slices().get(0).msgsPerS();
        rows.add(new Row("W1 ingest", "last 10% slice / first, msgs/s", ratio(last / first), ratio(rawSlices), "",
                ">= 0.85", last / first >= W1_MIN_RATIO, null));
    }

    private static void search(RunResults r, List<Row> rows) {
        for (Category category : Category.values()) {
            double ours = at(r.w2().pass2(), category).p50Ms();
            double raw = at(r.rawW2().pass2(), category).p50Ms();
            rows.add(new Row("W2 search " + category.key(), "pass-2 p50 ms", ms(ours), ms(raw), ratio(ours / raw),
                    "<= 1.2 x raw", ours / raw <= W2_MAX_RATIO, null));
        }
        double rare = at(r.w2().pass2(), Category.RARE).p50Ms();
        rows.add(new Row("W2 search rare", "pass-2 p50 ms", ms(rare), "", "", "< 1 ms", rare < W2_RARE_MAX_MS, null));
        rows.add(new Row("W2 search", "same hits as raw (60 queries)", r.w2QueriesWithDifferentHits().isEmpty() ? "yes"
                : "differ: " + r.w2QueriesWithDifferentHits(), "", "", "identical", r.w2QueriesWithDifferentHits().isEmpty(),
                null));
    }

    private static void listing(RunResults r, List<Row> rows) {
        W3Listing.Result w3 = r.w3();
        List<Integer> offsets = w3.offsets();
        for (int i = 0; i < offsets.size(); i++) {
            int offset = offsets.get(i);
            double p50 = at(w3.rich(), offset).latencies().p50Ms();
            String target = "<= 2 x S=500 p50";
            Boolean met = null;
            String note = null;
            String reference = "";
            String ratio = "";
            if (r.sessions() <= 500) {
                note = "this run is the S=500 reference; run the full size to compare";
            } else if (r.w3Reference().file() == null) {
                note = r.w3Reference().note();
            } else {
                double base = r.w3Reference().richP50ByPosition().get(i);
                reference = ms(base) + " (S=500)";
                ratio = ratio(p50 / base);
                met = p50 / base <= W3_MAX_SCALING;
                note = "reference: " + r.w3Reference().file();
            }
            rows.add(new Row("W3 list_sessions_rich", "offset " + offset + " p50 ms", ms(p50), reference, ratio,
                    target, met, i == 0 ? note : null));
        }
        for (int offset : offsets) {
            rows.add(Row.info("W3 search_sessions", "offset " + offset + " p50 ms",
                    ms(at(w3.search(), offset).latencies().p50Ms())));
        }
        double firstPage = at(w3.richKeyset(), offsets.get(0)).latencies().p50Ms();
        double worst = w3.richKeyset().values().stream().mapToDouble(m -> m.latencies().p50Ms()).max().orElseThrow();
        StringBuilder pages = new StringBuilder();
        for (int offset : offsets) {
            pages.append(pages.isEmpty() ? "" : " / ").append(ms(at(w3.richKeyset(), offset).latencies().p50Ms()));
        }
        rows.add(new Row("W3 keyset pages", "p50 ms at " + offsets, pages.toString(), "", ratio(worst / firstPage),
                "flat: max <= 2 x first", worst / firstPage <= W3_MAX_SCALING, null));
    }

    private static void read(RunResults r, List<Row> rows) {
        rows.add(Row.compared("W4 read", "p50 ms", ms(r.w4().latencies().p50Ms()), ms(r.rawW4().latencies().p50Ms()),
                ratio(r.w4().latencies().p50Ms() / r.rawW4().latencies().p50Ms())));
        rows.add(Row.compared("W4 read", "msgs/s", rate(r.w4().msgsPerS()), rate(r.rawW4().msgsPerS()),
                ratio(r.w4().msgsPerS() / r.rawW4().msgsPerS())));
    }

    private static void lineage(RunResults r, List<Row> rows) {
        for (W5Lineage.Chain chain : List.of(r.w5().depth99(), r.w5().depth1000(), r.deepChain())) {
            rows.add(new Row("W5 lineage depth " + chain.depth(), "tip returned (hop)", chain.tipReturned() + " ("
                    + chain.tipHops() + ")", "", "", "correct tip", chain.tipCorrect(),
                    chain.depth() > 1000 ? "extra chain on its own file (not part of BENCHMARK.md W5)" : null));
        }
        double p50 = r.w5().depth1000().tipLatencies().p50Ms();
        rows.add(new Row("W5 lineage depth 1000", "get_compression_tip p50 ms", ms(p50), "", "", "<= 5 ms",
                p50 <= W5_MAX_P50_MS, null));
        rows.add(Row.info("W5 lineage depth " + r.deepChain().depth(), "get_compression_tip p50 ms",
                ms(r.deepChain().tipLatencies().p50Ms())));
        rows.add(new Row("W5 lineage", "rich listing rows projected", String.valueOf(r.w5().projectedRows()), "", "",
                "2", r.w5().projectedRows() == 2, null));
    }

    private static void export(RunResults r, List<Row> rows) {
        boolean ok = r.w6().bothSucceeded();
        rows.add(new Row("W6 export", "whole export, -Xmx64m", ok ? "ok, total " + seconds(r.w6().totalSeconds())
                + ", peak RSS " + Math.round(r.w6().peakRssMb()) + " MB" : "FAILED", "", "", "completes", ok,
                ok ? null : r.w6().failure()));
        rows.add(new Row("W6 export", "two runs byte-identical", r.w6().identical() ? "yes" : "no", "", "", "identical",
                r.w6().identical(), null));
        if (r.w6().sqliteCopy() != null) {
            rows.add(new Row("W6 export", "same bytes as its SQLite copy's export", r.w6().sameAsSqliteCopy() ? "yes" : "no",
                    "", "", "identical", r.w6().sameAsSqliteCopy(), null));
        }
    }

    private static void prune(RunResults r, List<Row> rows) {
        boolean counts = r.w7().pruned() == r.sessions() / 2
                && r.w7().messagesDeleted() == (long) (r.sessions() / 2) * r.messagesPerSession();
        rows.add(new Row("W7 prune", "pruned / messages deleted", r.w7().pruned() + " / " + r.w7().messagesDeleted()
                + " in " + seconds(r.w7().pruneNanos() / 1e9), "", "", (r.sessions() / 2) + " / "
                + (long) (r.sessions() / 2) * r.messagesPerSession(), counts, null));
        rows.add(new Row("W7 prune", "-wal bytes after prune", mib(r.w7().walBytes()), "", "", "< 16 MB",
                r.w7().walBytes() < W7_MAX_WAL_BYTES, null));
        rows.add(new Row("W7 prune", "free space reported / VACUUM reclaimed", mib(r.w7().freeBytes()) + " / "
                + mib(r.vacuumReclaimedBytes()), "", "", "reported, reclaimable", r.vacuumReclaimedBytes() > 0, null));
    }

    private static void coldOpen(RunResults r, List<Row> rows) {
        W8ColdOpen.Result w8 = r.w8();
        rows.add(Row.info("W8 cold open", "spawn->ready / baseline median ms", ms(w8.spawnToReady().medianMs()) + " / "
                + ms(w8.baseline().medianMs())));
        W8ColdOpen.CliStart cli = w8.cli();
        if (cli.skipped() != null) {
            rows.add(new Row("W8 cold open", "sessions list vs hello-world jar", "not measured", "", "",
                    "<= 2.5 x hello", null, cli.skipped()));
        } else {
            String how = cli.script() != null ? "./hermes-state" : "java -jar";
            rows.add(new Row("W8 cold open", how + " sessions list vs hello-world jar, median ms",
                    ms(cli.measured().medianMs()), ms(cli.helloWorld().medianMs()) + " (hello)", ratio(cli.ratio()),
                    "<= 2.5 x hello", cli.ratio() <= W8_MAX_RATIO, null));
            if (cli.script() != null) {
                rows.add(Row.compared("W8 cold open", "java -jar sessions list (no script), median ms",
                        ms(cli.direct().medianMs()), ms(cli.helloWorld().medianMs()) + " (hello)",
                        ratio(cli.direct().medianMs() / cli.helloWorld().medianMs())));
            }
        }
    }

    private static void concurrency(RunResults r, List<Row> rows) {
        W9Concurrency.Result w9 = r.w9();
        boolean clean = w9.errors().isEmpty() && w9.nothingLost() && w9.countsEqual() && w9.ftsIntegrityOk();
        rows.add(new Row("W9 4 writers", "errors / lost / counters / FTS", w9.errors().size() + " kinds / "
                + (w9.expectedMessages() - w9.w9MessagesInFile()) + " lost / " + (w9.countsEqual() ? "equal" : "DIFFER")
                + " / " + (w9.ftsIntegrityOk() ? "ok" : "CORRUPT"), "", "", "0 / 0 / equal / ok", clean,
                w9.errors().isEmpty() ? null : w9.errors().toString()));
        rows.add(new Row("W9 4 writers", "max append ms", ms(w9.appends().maxMs()), "", "", "<= 1000",
                w9.appends().maxNanos() <= W9Concurrency.VERY_SLOW_NANOS, null));
        rows.add(new Row("W9 4 writers", "append p99 ms", ms(w9.appends().p99Ms()), "", "", "< 250",
                w9.appends().p99Ms() < W9_MAX_P99_MS, null));
        rows.add(Row.info("W9 4 writers", "msgs/s total", rate(w9.msgsPerS())));
    }

    static String ms(double value) {
        return value < 10 ? String.format(Locale.ROOT, "%.3f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    static String rate(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    static String seconds(double value) {
        return String.format(Locale.ROOT, "%.2f s", value);
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", Report.mb(bytes));
    }

    /** The measure of a key the workload always records (every category, every offset). */
    private static <K, V> V at(Map<K, V> measures, K key) {
        return Objects.requireNonNull(measures.get(key), () -> "no measure for " + key);
    }
}
