package dev.hermes.state.bench.measure;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Call durations in nanoseconds with BENCHMARK.md's nearest-rank percentiles: sort ascending,
 * {@code pXX = sorted[ceil(XX/100 * n) - 1]}. Ranks are computed in integers (per mille) so that
 * p99.9 of 1,000 samples is exactly the 999th, with no floating-point rounding.
 */
public final class Latencies {
    private long[] nanos;
    private int count;
    private long @Nullable [] sorted;

    public Latencies() {
        this(64);
    }

    public Latencies(int expected) {
        nanos = new long[Math.max(expected, 1)];
    }

    public static Latencies of(long... samples) {
        Latencies latencies = new Latencies(samples.length);
        for (long sample : samples) {
            latencies.add(sample);
        }
        return latencies;
    }

    public void add(long durationNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, nanos.length * 2);
        }
        nanos[count++] = durationNanos;
        sorted = null;
    }

    public void addAll(Latencies other) {
        for (int i = 0; i < other.count; i++) {
            add(other.nanos[i]);
        }
    }

    public int count() {
        return count;
    }

    /** The samples in the order they were taken. */
    public long[] samples() {
        return Arrays.copyOf(nanos, count);
    }

    /** Nearest-rank percentile, {@code perMille} in 1..1000 (500 = p50, 999 = p99.9). */
    public long percentileNanos(int perMille) {
        if (count == 0) {
            throw new IllegalStateException("no samples");
        }
        if (perMille < 1 || perMille > 1000) {
            throw new IllegalArgumentException("perMille must be in 1..1000, got " + perMille);
        }
        long rank = ((long) perMille * count + 999) / 1000;
        return sorted()[(int) rank - 1];
    }

    public long minNanos() {
        return sorted()[0];
    }

    public long maxNanos() {
        return sorted()[count - 1];
    }

    public long sumNanos() {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += nanos[i];
        }
        return sum;
    }

    /** How many samples took longer than {@code thresholdNanos}. */
    public int countOver(long thresholdNanos) {
        int over = 0;
        for (int i = 0; i < count; i++) {
            if (nanos[i] > thresholdNanos) {
                over++;
            }
        }
        return over;
    }

    public double p50Ms() {
        return ms(percentileNanos(500));
    }

    public double p95Ms() {
        return ms(percentileNanos(950));
    }

    public double p99Ms() {
        return ms(percentileNanos(990));
    }

    public double p999Ms() {
        return ms(percentileNanos(999));
    }

    public double maxMs() {
        return ms(maxNanos());
    }

    public double minMs() {
        return ms(minNanos());
    }

    /** Median (nearest rank) in ms. */
    public double medianMs() {
        return p50Ms();
    }

    /** {p50_ms, max_ms}. */
    public Map<String, Object> p50Max() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("p50_ms", Report.round(p50Ms()));
        json.put("max_ms", Report.round(maxMs()));
        return json;
    }

    /** {p50_ms, p95_ms, max_ms}. */
    public Map<String, Object> p50p95Max() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("p50_ms", Report.round(p50Ms()));
        json.put("p95_ms", Report.round(p95Ms()));
        json.put("max_ms", Report.round(maxMs()));
        return json;
    }

    /** {min_ms, median_ms}. */
    public Map<String, Object> minMedian() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("min_ms", Report.round(minMs()));
        json.put("median_ms", Report.round(medianMs()));
        return json;
    }

    public static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    private long[] sorted() {
        if (count == 0) {
            throw new IllegalStateException("no samples");
        }
        if (sorted == null) {
            sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
        }
        return sorted;
    }
}
