package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.SearchCases;
import dev.hermes.state.bench.data.SearchCases.Category;
import dev.hermes.state.bench.data.SearchCases.SearchCase;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * W2 — full-text search: the 60 queries twice in table order (pass 1 warms up, pass 2 is reported),
 * each one {@code search_messages(q, limit=20)} call with the full result (snippets and context).
 */
public final class W2Search {
    public static final int LIMIT = 20;

    /** One search call returning the full documented result. */
    public interface Search<R> {
        R run(String query, int limit) throws Exception;
    }

    public record Result(Map<Category, Latencies> pass1, Map<Category, Latencies> pass2,
                         Map<String, Long> pass2Nanos, Map<String, Integer> resultsReturned,
                         Map<String, List<Long>> hitIds) {

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("pass2", byCategory(pass2));
            Map<String, Object> perQuery = new LinkedHashMap<>();
            pass2Nanos.forEach((query, nanos) -> perQuery.put(query, Report.round(Latencies.ms(nanos))));
            json.put("pass2_per_query_ms", perQuery);
            json.put("results_returned", resultsReturned);
            return json;
        }

        /** Pass 1 (warm-up), reported beside the result layout. */
        public Map<String, Object> pass1Json() {
            return byCategory(pass1);
        }

        private static Map<String, Object> byCategory(Map<Category, Latencies> latencies) {
            Map<String, Object> json = new LinkedHashMap<>();
            latencies.forEach((category, values) -> json.put(category.key(), values.p50p95Max()));
            return json;
        }
    }

    private W2Search() {
    }

    /** A search under test: the call, and how to read the hit ids of its result (outside the timer). */
    public record Searcher<R>(Search<R> search, Function<R, List<Long>> hitIds) {
    }

    /** Runs both passes on one searcher. */
    public static <R> Result run(Search<R> search, Function<R, List<Long>> hitIds) throws Exception {
        return runInterleaved(List.of(new Searcher<>(search, hitIds))).get(0);
    }

    /**
     * Runs both passes on every searcher, query by query (each query on each searcher, the order
     * rotating), so that store and baseline are timed under the same machine load. Each searcher
     * still sees the 60 queries in table order, twice.
     */
    public static List<Result> runInterleaved(List<Searcher<?>> searchers) throws Exception {
        List<Map<Category, Latencies>> pass1 = new ArrayList<>();
        List<Map<Category, Latencies>> pass2 = new ArrayList<>();
        List<Map<String, Long>> pass2Nanos = new ArrayList<>();
        List<Map<String, Integer>> returned = new ArrayList<>();
        List<Map<String, List<Long>>> ids = new ArrayList<>();
        for (int t = 0; t < searchers.size(); t++) {
            pass1.add(new EnumMap<>(Category.class));
            pass2.add(new EnumMap<>(Category.class));
            pass2Nanos.add(new LinkedHashMap<>());
            returned.add(new LinkedHashMap<>());
            ids.add(new LinkedHashMap<>());
        }
        int call = 0;
        for (int pass = 1; pass <= 2; pass++) {
            for (SearchCase searchCase : SearchCases.ALL) {
                for (int turn = 0; turn < searchers.size(); turn++) {
                    int t = (turn + call) % searchers.size();
                    Timed timed = timed(searchers.get(t), searchCase.query());
                    (pass == 1 ? pass1 : pass2).get(t).computeIfAbsent(searchCase.category(), c -> new Latencies())
                            .add(timed.nanos());
                    if (pass == 2) {
                        pass2Nanos.get(t).put(searchCase.query(), timed.nanos());
                        returned.get(t).put(searchCase.query(), timed.hitIds().size());
                        ids.get(t).put(searchCase.query(), timed.hitIds());
                    }
                }
                call++;
            }
        }
        List<Result> results = new ArrayList<>();
        for (int t = 0; t < searchers.size(); t++) {
            results.add(new Result(pass1.get(t), pass2.get(t), pass2Nanos.get(t), returned.get(t), ids.get(t)));
        }
        return results;
    }

    private record Timed(long nanos, List<Long> hitIds) {
    }

    private static <R> Timed timed(Searcher<R> searcher, String query) throws Exception {
        long before = System.nanoTime();
        R result = searcher.search().run(query, LIMIT);
        long nanos = System.nanoTime() - before;
        return new Timed(nanos, searcher.hitIds().apply(result));
    }
}
