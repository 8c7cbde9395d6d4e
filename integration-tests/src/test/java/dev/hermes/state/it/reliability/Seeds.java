package dev.hermes.state.it.reliability;

/**
 * The seed of a randomized test: {@code -Dhermes.reliability.seed=N} replays a run, otherwise a new
 * one is drawn. It is printed when the test starts and belongs in every failure message.
 */
final class Seeds {
    static final String PROPERTY = "hermes.reliability.seed";

    private Seeds() {
    }

    static long seed(String test) {
        Long given = Long.getLong(PROPERTY);
        long seed = given != null ? given : System.nanoTime() ^ System.currentTimeMillis() << 20;
        System.out.println("[reliability] " + test + ": seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }

    /** The prefix of a failure message: which seed to replay. */
    static String replay(long seed) {
        return "[seed " + seed + ", replay with -D" + PROPERTY + "=" + seed + "] ";
    }
}
