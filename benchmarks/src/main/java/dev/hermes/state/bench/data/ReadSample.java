package dev.hermes.state.bench.data;

import java.util.ArrayList;
import java.util.List;

/** W4's 200 session ids, drawn with repetition from the READ stream (seed 45). */
public final class ReadSample {
    public static final int DRAWS = 200;

    private ReadSample() {
    }

    public static List<String> sessionIds(int sessions) {
        SplitMix64 random = new SplitMix64(SplitMix64.READ);
        List<String> ids = new ArrayList<>(DRAWS);
        for (int i = 0; i < DRAWS; i++) {
            ids.add(Workload.benchSessionId(random.nextBelow(sessions)));
        }
        return ids;
    }
}
