package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;

/**
 * Instants as the epoch-seconds doubles the agent passes and stores ({@code time.time() + 60}, an
 * explicit message timestamp), exact both ways: a double of today's epoch has about a quarter of a
 * microsecond of resolution, so a double read as an instant to the nanosecond and written back is the
 * same double, bit for bit, as the agent stores it. (The tables' own timestamps read as microseconds,
 * see the store's rows.)
 */
public final class Timestamps {
    private Timestamps() {
    }

    /** The instant of {@code epochSeconds}, to the nearest nanosecond; a finite value in range is required. */
    public static Instant ofEpochSeconds(double epochSeconds) {
        if (!Double.isFinite(epochSeconds)) {
            throw new InvalidArgumentException("a time must be a finite number of seconds, got " + epochSeconds);
        }
        BigDecimal exact = new BigDecimal(epochSeconds);
        BigDecimal seconds = exact.setScale(0, RoundingMode.FLOOR);
        long nanos = exact.subtract(seconds).movePointRight(9).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        try {
            return Instant.ofEpochSecond(seconds.longValueExact(), nanos);
        } catch (ArithmeticException | DateTimeException e) {
            throw new InvalidArgumentException("a time is out of range: " + epochSeconds);
        }
    }

    /** The epoch-seconds double nearest to {@code instant} (of an instant {@link #ofEpochSeconds} made: that double). */
    public static double epochSeconds(Instant instant) {
        return new BigDecimal(instant.getEpochSecond()).add(BigDecimal.valueOf(instant.getNano(), 9)).doubleValue();
    }
}
