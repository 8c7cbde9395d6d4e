package dev.hermes.state.core.rows;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.codegen.EpochSecondsConverter;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;

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
        return CONVERTER.to(clock.instant());
    }

    /** A stored timestamp as the generated tables read it (rounded to microseconds). */
    public static Instant instant(double epochSeconds) {
        return CONVERTER.from(epochSeconds);
    }

    /**
     * The double nearest to {@code instant} to the nanosecond, for a timestamp a caller gives (append_message's
     * explicit {@code timestamp}): an instant made by {@link #exactInstant} from a double gives that double back,
     * so a Python float handed over the RPC is stored bit for bit, as the agent stores it.
     */
    public static double exact(Instant instant) {
        return new BigDecimal(instant.getEpochSecond()).add(BigDecimal.valueOf(instant.getNano(), 9)).doubleValue();
    }

    /** The instant of a double of epoch seconds, to the nanosecond (not rounded to microseconds). */
    public static Instant exactInstant(double epochSeconds) {
        if (!Double.isFinite(epochSeconds)) {
            throw new InvalidArgumentException("a timestamp must be a finite number of seconds, got " + epochSeconds);
        }
        BigDecimal exact = new BigDecimal(epochSeconds);
        BigDecimal seconds = exact.setScale(0, RoundingMode.FLOOR);
        long nanos = exact.subtract(seconds).movePointRight(9).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        try {
            return Instant.ofEpochSecond(seconds.longValueExact(), nanos);
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw new InvalidArgumentException("a timestamp is out of range: " + epochSeconds);
        }
    }

    /** The stored epoch-seconds double of a timestamp column, compared in SQL without conversion. */
    public static Field<Double> column(Field<Instant> timestamp) {
        return DSL.field(timestamp.getQualifiedName(), SQLDataType.DOUBLE);
    }
}
