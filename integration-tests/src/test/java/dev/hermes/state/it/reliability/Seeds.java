package dev.hermes.state.it.reliability;

/**
 * The seed of a randomized test: {@code -Dhermes.reliability.seed=N} replays a run, otherwise a new
 * one is drawn. It is logged when the test starts and belongs in every failure message.
 */
final class Seeds {
    private static final System.Logger LOG = System.getLogger(Seeds.class.getName());

    static final String PROPERTY = "hermes.reliability.seed";

    private Seeds() {
    }

    static long seed(String test) {
        Long given = Long.getLong(PROPERTY);
        long seed = given != null ? given : System.nanoTime() ^ System.currentTimeMillis() << 20;
        LOG.log(System.Logger.Level.INFO, () -> test + ": " + replay(seed));
        return seed;
    }

    /** The prefix of a failure message: which seed to replay. */
    static String replay(long seed) {
        return "[seed " + seed + ", replay with -D" + PROPERTY + "=" + seed + "] ";
    }
}
