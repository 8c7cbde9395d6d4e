package dev.hermes.state.core.sessions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Id lists cut into pieces that fit any engine's limit on bound parameters (SQLite's was 999 before
 * 3.32): a statement over many ids runs once per piece, in the same transaction.
 */
public final class Chunks {
    /** Ids per statement. */
    static final int SIZE = 500;

    private Chunks() {
    }

    public static List<List<String>> of(Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<List<String>> chunks = new ArrayList<>();
        for (int start = 0; start < all.size(); start += SIZE) {
            chunks.add(all.subList(start, Math.min(all.size(), start + SIZE)));
        }
        return chunks;
    }
}
