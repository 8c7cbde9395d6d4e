package dev.hermes.state.codegen;

import org.jooq.impl.AbstractConverter;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Maps the store's timestamps, Unix epoch seconds as a double (what Python's {@code time.time()}
 * writes), to {@link Instant} and back, keeping microseconds: a double holds about 0.24 µs of
 * resolution at today's epoch, so microseconds survive the round trip and nanoseconds would not.
 */
public final class EpochSecondsConverter extends AbstractConverter<Double, Instant> {
    private static final long MICROS_PER_SECOND = 1_000_000L;

    public EpochSecondsConverter() {
        super(Double.class, Instant.class);
    }

    @Override
    public @Nullable Instant from(@Nullable Double epochSeconds) {
        if (epochSeconds == null) {
            return null;
        }
        long micros = Math.round(epochSeconds * MICROS_PER_SECOND);
        return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
                Math.floorMod(micros, MICROS_PER_SECOND) * 1_000L);
    }

    @Override
    public @Nullable Double to(@Nullable Instant instant) {
        if (instant == null) {
            return null;
        }
        long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND), instant.getNano() / 1_000L);
        return micros / (double) MICROS_PER_SECOND;
    }
}
