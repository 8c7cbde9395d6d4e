package dev.hermes.state.bench.data;

import java.util.List;

/** Names and constants shared by the workload definitions of BENCHMARK.md. */
public final class Workload {
    public static final String MODEL = "bench/model-a";
    public static final List<String> SOURCES = List.of("cli", "telegram", "discord", "slack", "whatsapp");
    public static final int MIN_SESSIONS = 120;
    public static final int DEFAULT_SESSIONS = 5000;
    public static final int QUICK_SESSIONS = 500;
    public static final int DEFAULT_MESSAGES = 40;

    private Workload() {
    }

    /** W1 session id: {@code bench-} + index zero-padded to 6 digits. */
    public static String benchSessionId(int index) {
        return String.format("bench-%06d", index);
    }

    public static String source(int index) {
        return SOURCES.get(index % SOURCES.size());
    }
}
