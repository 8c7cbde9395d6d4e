package dev.hermes.state.core.model;

import java.time.Instant;

/**
 * Instants as the epoch-seconds doubles the agent passes and stores ({@code time.time() + 60}), with
 * nanoseconds kept both ways: a double of today's epoch has about a quarter of a microsecond of
 * resolution, so a double read as an instant and written back is the same double. (The tables'
 * own timestamps read as microseconds, see the store's rows.)
 */
public final class Timestamps {
    private static final double NANOS_PER_SECOND = 1e9;

    private Timestamps() {
    }

    /** The instant of {@code epochSeconds}, to the nearest nanosecond; a finite value is required. */
    public static Instant ofEpochSeconds(double epochSeconds) {
        if (!Double.isFinite(epochSeconds)) {
            throw new dev.hermes.state.InvalidArgumentException("a time must be a finite number of seconds, got " + epochSeconds);
        }
        double seconds = Math.floor(epochSeconds);
        long nanos = Math.round((epochSeconds - seconds) * NANOS_PER_SECOND);
        return Instant.ofEpochSecond((long) seconds, nanos);
    }

    /** The epoch-seconds double nearest to {@code instant}. */
    public static double epochSeconds(Instant instant) {
        return instant.getEpochSecond() + instant.getNano() / NANOS_PER_SECOND;
    }
}
