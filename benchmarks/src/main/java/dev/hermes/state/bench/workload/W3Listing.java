package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W3 — listing: at offsets 0, 100, S/2, S−20, twenty {@code list_sessions_rich(limit=20, offset=o)}
 * then twenty {@code search_sessions(limit=20, offset=o)}. In addition (not part of W3, reported in
 * the targets) the keyset-paged rich listing is timed at the same positions, to show whether deep
 * pages stay flat.
 */
public final class W3Listing {
    public static final int CALLS = 20;
    public static final int LIMIT = 20;

    /** Latencies and returned rows of one operation at one offset. */
    public record Measure(Latencies latencies, int rows) {
        Map<String, Object> toJson() {
            Map<String, Object> json = latencies.p50Max();
            json.put("rows", rows);
            return json;
        }
    }

    public record Result(List<Integer> offsets, Map<Integer, Measure> rich, Map<Integer, Measure> search,
                         Map<Integer, Measure> richKeyset) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("offsets", offsets);
            json.put("list_sessions_rich", byOffset(rich));
            json.put("search_sessions", byOffset(search));
            return json;
        }

        public Map<String, Object> keysetJson() {
            return byOffset(richKeyset);
        }

        private static Map<String, Object> byOffset(Map<Integer, Measure> measures) {
            Map<String, Object> json = new LinkedHashMap<>();
            measures.forEach((offset, measure) -> json.put(String.valueOf(offset), measure.toJson()));
            return json;
        }
    }

    private W3Listing() {
    }

    public static List<Integer> offsets(int sessions) {
        return List.of(0, 100, sessions / 2, sessions - 20);
    }

    public static Result run(StateRepository store, int sessions) {
        List<Integer> offsets = offsets(sessions);
        Map<Integer, Measure> rich = new LinkedHashMap<>();
        Map<Integer, Measure> search = new LinkedHashMap<>();
        for (int offset : offsets) {
            ListSessionsQuery query = ListSessionsQuery.builder().limit(LIMIT).offset(offset).build();
            Latencies richLatencies = new Latencies(CALLS);
            int richRows = 0;
            for (int i = 0; i < CALLS; i++) {
                long before = System.nanoTime();
                List<RichSession> rows = store.listSessionsRich(query);
                richLatencies.add(System.nanoTime() - before);
                richRows = rows.size();
            }
            rich.put(offset, new Measure(richLatencies, richRows));
            Latencies searchLatencies = new Latencies(CALLS);
            int searchRows = 0;
            for (int i = 0; i < CALLS; i++) {
                long before = System.nanoTime();
                List<Session> rows = store.searchSessions(new SearchSessionsQuery(null, LIMIT, offset));
                searchLatencies.add(System.nanoTime() - before);
                searchRows = rows.size();
            }
            search.put(offset, new Measure(searchLatencies, searchRows));
        }
        return new Result(offsets, rich, search, keysetPages(store, offsets));
    }

    /** The page of 20 that starts at each offset, reached through keyset cursors (walk untimed). */
    private static Map<Integer, Measure> keysetPages(StateRepository store, List<Integer> offsets) {
        ListSessionsQuery page = ListSessionsQuery.builder().limit(LIMIT).build();
        Map<Integer, Measure> measures = new LinkedHashMap<>();
        String cursor = null;
        int position = 0;
        for (int offset : offsets) {
            while (position < offset) {
                int step = Math.min(LIMIT, offset - position);
                Page<RichSession> walked = store.listSessionsRichPage(
                        ListSessionsQuery.builder().limit(step).build(), cursor);
                cursor = walked.nextCursor().orElseThrow(() -> new IllegalStateException(
                        "keyset listing ended before offset " + offset));
                position += step;
            }
            Latencies latencies = new Latencies(CALLS);
            int rows = 0;
            for (int i = 0; i < CALLS; i++) {
                long before = System.nanoTime();
                Page<RichSession> result = store.listSessionsRichPage(page, cursor);
                latencies.add(System.nanoTime() - before);
                rows = result.items().size();
            }
            measures.put(offset, new Measure(latencies, rows));
        }
        return measures;
    }
}
