package dev.hermes.state.core.rows;

import dev.hermes.state.codegen.EpochSecondsConverter;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Timestamps as the store keeps them: a REAL of epoch seconds (Python's {@code time.time()}). The
 * generated tables read them as {@link Instant}s (rounded to microseconds); queries that page or cut
 * off by time compare the stored double itself.
 */
public final class EpochSeconds {
    private static final EpochSecondsConverter CONVERTER = new EpochSecondsConverter();

    private EpochSeconds() {
    }

    /** The value to store for the clock's current time. */
    public static double now(Clock clock) {
        return Objects.requireNonNull(CONVERTER.to(clock.instant()));
    }

    /**
     * A length of time in seconds, the double nearest to it: what the agent's arithmetic on seconds
     * ({@code days * 86400}) works with. Exact for every whole number of seconds up to 2^53.
     */
    public static double seconds(Duration length) {
        if (length.toNanosPart() == 0) {
            return length.toSeconds();
        }
        return new BigDecimal(length.toSeconds()).add(BigDecimal.valueOf(length.toNanosPart(), 9)).doubleValue();
    }

    /** A stored timestamp as the generated tables read it (rounded to microseconds). */
    public static Instant instant(double epochSeconds) {
        return Objects.requireNonNull(CONVERTER.from(epochSeconds));
    }

    /** The stored epoch-seconds double of a timestamp column, compared in SQL without conversion. */
    public static Field<Double> column(Field<Instant> timestamp) {
        return DSL.field(timestamp.getQualifiedName(), SQLDataType.DOUBLE);
    }
}
