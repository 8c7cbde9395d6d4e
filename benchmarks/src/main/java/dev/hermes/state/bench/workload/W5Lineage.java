package dev.hermes.state.bench.workload;

import dev.hermes.state.bench.data.ChainPlan;
import dev.hermes.state.bench.data.Workload;
import dev.hermes.state.bench.measure.Latencies;
import dev.hermes.state.bench.measure.Report;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * W5 — compression lineage: builds a chain (end with {@code compression}, start the child, one user
 * message per hop), then times {@code get_compression_tip} from its root.
 */
public final class W5Lineage {
    /** The walk's bound in today's agent (get_compression_tip stops after 100 continuations). */
    static final int V17_MAX_HOPS = 100;

    public static final int TIP_CALLS = 50;
    public static final int LIST_CALLS = 20;
    public static final String UNCHAINED = "bench-000001";

    public record Chain(int depth, long buildNanos, Latencies tipLatencies, @Nullable String tipReturned, int tipHops,
                        boolean tipCorrect) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("build_s", Report.round(buildNanos / 1e9));
            json.put("p50_ms", Report.round(tipLatencies.p50Ms()));
            json.put("max_ms", Report.round(tipLatencies.maxMs()));
            json.put("tip_returned", tipReturned);
            json.put("tip_hops_from_root", tipHops);
            json.put("tip_correct", tipCorrect);
            return json;
        }
    }

    public record Result(Chain depth99, Chain depth1000, Latencies listLatencies, int projectedRows,
                         Latencies unchainedTip) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("depth_99", depth99.toJson());
            json.put("depth_1000", depth1000.toJson());
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("p50_ms", Report.round(listLatencies.p50Ms()));
            list.put("projected_rows", projectedRows);
            json.put("list_sessions_rich_first_page_with_2_chain_roots", list);
            json.put("get_compression_tip_unchained_p50_ms", Report.round(unchainedTip.p50Ms()));
            return json;
        }
    }

    private W5Lineage() {
    }

    public static Result run(StateRepository store, ChainPlan depth99, ChainPlan depth1000) {
        Chain first = buildAndWalk(store, depth99);
        Chain second = buildAndWalk(store, depth1000);
        ListSessionsQuery defaults = ListSessionsQuery.defaults();
        Latencies list = new Latencies(LIST_CALLS);
        int projected = 0;
        for (int i = 0; i < LIST_CALLS; i++) {
            long before = System.nanoTime();
            List<RichSession> rows = store.listSessionsRich(defaults);
            list.add(System.nanoTime() - before);
            projected = (int) rows.stream().filter(row -> row.lineageRootId() != null).count();
        }
        Latencies unchained = new Latencies(TIP_CALLS);
        for (int i = 0; i < TIP_CALLS; i++) {
            long before = System.nanoTime();
            store.getCompressionTip(UNCHAINED);
            unchained.add(System.nanoTime() - before);
        }
        return new Result(first, second, list, projected, unchained);
    }

    /** Builds the chain (timed as a whole) and calls get_compression_tip(root) 50 times. */
    public static Chain buildAndWalk(StateRepository store, ChainPlan chain) {
        long start = System.nanoTime();
        store.createSession(NewSession.builder(chain.id(0), "cli").model(Workload.MODEL).build());
        store.appendMessage(chain.id(0), NewMessage.of("user", chain.contents().get(0)));
        for (int hop = 1; hop <= chain.depth(); hop++) {
            store.endSession(chain.id(hop - 1), "compression");
            store.createSession(NewSession.builder(chain.id(hop), "cli").model(Workload.MODEL)
                    .parentSessionId(chain.id(hop - 1)).build());
            store.appendMessage(chain.id(hop), NewMessage.of("user", chain.contents().get(hop)));
        }
        long built = System.nanoTime() - start;
        Latencies tips = new Latencies(TIP_CALLS);
        String tip = null;
        for (int i = 0; i < TIP_CALLS; i++) {
            long before = System.nanoTime();
            tip = store.getCompressionTip(chain.rootId());
            tips.add(System.nanoTime() - before);
        }
        return new Chain(chain.depth(), built, tips, tip, chain.hopOf(tip), expectedTip(store, chain).equals(tip));
    }

    /**
     * The tip the store's rules give: the last session of the chain under the rules of 6; today's agent
     * walks at most {@value #V17_MAX_HOPS} continuations, so a deeper chain's tip is the session that far in.
     */
    static String expectedTip(StateRepository store, ChainPlan chain) {
        return store.schemaRules() == SchemaRules.V17 && chain.depth() > V17_MAX_HOPS ? chain.id(V17_MAX_HOPS) : chain.tipId();
    }
}
