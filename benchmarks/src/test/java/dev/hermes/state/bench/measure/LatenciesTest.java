package dev.hermes.state.bench.measure;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Nearest-rank percentiles exactly as BENCHMARK.md section 0 defines them. */
class LatenciesTest {

    @Test
    void p50OfTwentySamplesIsTheTenthSmallest() {
        Latencies latencies = new Latencies(4);
        for (long v = 20; v >= 1; v--) {
            latencies.add(v * 1_000_000);
        }
        assertEquals(10_000_000, latencies.percentileNanos(500));
        assertEquals(10.0, latencies.p50Ms());
        assertEquals(19.0, latencies.p95Ms());
        assertEquals(20.0, latencies.p99Ms());
        assertEquals(1.0, latencies.minMs());
        assertEquals(20.0, latencies.maxMs());
        assertEquals(210_000_000, latencies.sumNanos());
    }

    @Test
    void p95OfTenSamplesIsTheLargest() {
        Latencies latencies = Latencies.of(5, 1, 9, 3, 7, 2, 8, 4, 6, 10);
        assertEquals(10, latencies.percentileNanos(950));
        assertEquals(5, latencies.percentileNanos(500));
    }

    @Test
    void p999OfAThousandSamplesIsThe999th() {
        Latencies latencies = new Latencies();
        for (long v = 1; v <= 1000; v++) {
            latencies.add(v);
        }
        assertEquals(999, latencies.percentileNanos(999));
        assertEquals(990, latencies.percentileNanos(990));
        assertEquals(500, latencies.percentileNanos(500));
        assertEquals(1, latencies.countOver(999));
        assertEquals(1000, latencies.samples().length);
    }

    @Test
    void emptyOrOutOfRangeIsRefused() {
        assertThrows(IllegalStateException.class, () -> new Latencies().percentileNanos(500));
        assertThrows(IllegalArgumentException.class, () -> Latencies.of(1).percentileNanos(0));
    }
}
