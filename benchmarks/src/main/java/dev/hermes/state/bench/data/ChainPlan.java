package dev.hermes.state.bench.data;

import org.jspecify.annotations.Nullable;
import java.util.ArrayList;
import java.util.List;

/**
 * A W5 compression chain: sessions {@code <prefix>-0000 ... <prefix>-<depth>}, each with one user
 * message. Contents come from one CHAIN stream shared by all chains in build order, so the chains
 * must be planned in the order they are built.
 */
public record ChainPlan(String prefix, int depth, List<String> contents) {

    public ChainPlan {
        contents = List.copyOf(contents);
    }

    /** Plans the next chain, drawing {@code depth + 1} contents from {@code chainStream}. */
    public static ChainPlan next(String prefix, int depth, ZipfSampler sampler, SplitMix64 chainStream) {
        List<String> contents = new ArrayList<>(depth + 1);
        for (int hop = 0; hop <= depth; hop++) {
            contents.add(sampler.content(chainStream));
        }
        return new ChainPlan(prefix, depth, contents);
    }

    /** The id of hop {@code hop}: the prefix and the hop zero-padded to 4 digits. */
    public String id(int hop) {
        return String.format("%s-%04d", prefix, hop);
    }

    public String rootId() {
        return id(0);
    }

    public String tipId() {
        return id(depth);
    }

    /** The hop index of an id of this chain, or -1 for any other id. */
    public int hopOf(@Nullable String id) {
        if (id == null || !id.startsWith(prefix + "-")) {
            return -1;
        }
        try {
            int hop = Integer.parseInt(id.substring(prefix.length() + 1));
            return hop <= depth && id.equals(id(hop)) ? hop : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
