package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.SearchCases;
import dev.hermes.state.bench.data.SearchCases.Category;
import dev.hermes.state.bench.data.SearchCases.SearchCase;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;

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

    /** Runs both passes; {@code hitIds} extracts the hit ids of a result after the timer stopped. */
    public static <R> Result run(Search<R> search, Function<R, List<Long>> hitIds) throws Exception {
        Map<Category, Latencies> pass1 = new EnumMap<>(Category.class);
        Map<Category, Latencies> pass2 = new EnumMap<>(Category.class);
        Map<String, Long> pass2Nanos = new LinkedHashMap<>();
        Map<String, Integer> returned = new LinkedHashMap<>();
        Map<String, List<Long>> ids = new LinkedHashMap<>();
        for (int pass = 1; pass <= 2; pass++) {
            Map<Category, Latencies> latencies = pass == 1 ? pass1 : pass2;
            for (SearchCase searchCase : SearchCases.ALL) {
                long before = System.nanoTime();
                R result = search.run(searchCase.query(), LIMIT);
                long nanos = System.nanoTime() - before;
                latencies.computeIfAbsent(searchCase.category(), c -> new Latencies()).add(nanos);
                if (pass == 2) {
                    List<Long> hits = hitIds.apply(result);
                    pass2Nanos.put(searchCase.query(), nanos);
                    returned.put(searchCase.query(), hits.size());
                    ids.put(searchCase.query(), hits);
                }
            }
        }
        return new Result(pass1, pass2, pass2Nanos, returned, ids);
    }
}
