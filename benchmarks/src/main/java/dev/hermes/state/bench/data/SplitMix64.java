package dev.hermes.state.bench.data;

/**
 * The SplitMix64 generator of BENCHMARK.md section 1.1: 64-bit arithmetic with wrap-around, so Java's
 * signed longs give the same bits as the unsigned reference. Each stream is seeded once and used for
 * one purpose only, which is what keeps the data identical across implementations.
 */
public final class SplitMix64 {
    /** The stream seeds of section 1.1. */
    public static final long VOCAB = 42;
    public static final long QUASAR = 43;
    public static final long CONTENT = 44;
    public static final long READ = 45;
    public static final long CHAIN = 46;
    private static final long W9_BASE = 50;

    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** The stream of W9 worker {@code w} (seed 50 + w). */
    public static SplitMix64 w9Worker(int worker) {
        return new SplitMix64(W9_BASE + worker);
    }

    public long next() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** An integer in [0, n): the top 53 bits modulo n, no rejection (the reference's exact rule). */
    public long nextBelow(long n) {
        return (next() >>> 11) % n;
    }

    public int nextBelow(int n) {
        return (int) nextBelow((long) n);
    }
}
