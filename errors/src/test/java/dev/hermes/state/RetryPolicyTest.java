package dev.hermes.state;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The policy's values; its retry loop with a real engine's failures: {@code dev.hermes.state.sqlite.SqliteRetryTest}. */
class RetryPolicyTest {
    @Test
    void hermesDefaults() {
        assertEquals(Duration.ofSeconds(1), RetryPolicy.HERMES.busyTimeout());
        assertEquals(15, RetryPolicy.HERMES.maxAttempts());
        assertEquals(Duration.ofMillis(20), RetryPolicy.HERMES.minBackoff());
        assertEquals(Duration.ofMillis(150), RetryPolicy.HERMES.maxBackoff());
    }

    @Test
    void backoffStaysWithinItsBoundsAndCoversThem() {
        RetryPolicy policy = RetryPolicy.HERMES;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 20_000; i++) {
            long pause = policy.backoffMillis();
            assertTrue(pause >= 20 && pause <= 150, "pause " + pause);
            min = Math.min(min, pause);
            max = Math.max(max, pause);
        }
        assertEquals(20, min);
        assertEquals(150, max);
        assertEquals(7, RetryPolicy.HERMES.withBackoff(Duration.ofMillis(7), Duration.ofMillis(7)).backoffMillis());
    }

    @Test
    void rejectsImpossibleSettings() {
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withMaxAttempts(0));
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withBusyTimeout(Duration.ofMillis(-1)));
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withBusyTimeout(null));
        assertThrows(InvalidArgumentException.class,
                () -> RetryPolicy.HERMES.withBackoff(Duration.ofMillis(50), Duration.ofMillis(10)));
        assertThrows(InvalidArgumentException.class,
                () -> RetryPolicy.HERMES.withBackoff(Duration.ofMillis(-1), Duration.ofMillis(10)));
    }
}
