package dev.hermes.state.cli.rpc;

import dev.hermes.state.InvalidArgumentException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * The agent's float days and hours as the {@link Duration}s the store takes. The agent works in
 * seconds, {@code days * 86400} (or {@code hours * 3600}) as a double; the Duration is that double
 * rounded to the nanosecond, and the store turns it back into the double nearest to it. That gives
 * back the agent's double, and so the agent's cut-off to the bit, whenever it is a whole number of
 * nanoseconds (every whole or decimal number of days or hours the agent's callers pass: 90, 0.5,
 * 10.5, 0.001) or at least 2^23 seconds (97 days; from there a double's step is wider than a
 * nanosecond). Below that, a value finer than a nanosecond moves by less than half of one, which
 * moves the cut-off by one step of a double only when it falls within that of a rounding boundary.
 * Ages beyond a Duration (more than 292 billion years) are the longest Duration: the same answer
 * for every session started after that long before 1970.
 */
final class AgentDurations {
    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
    private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
    private static final Duration MOST_NEGATIVE = Duration.ofSeconds(Long.MIN_VALUE);

    private AgentDurations() {
    }

    /** Days to look back: finite, not negative (the agent's errors otherwise: a typed one here). */
    static Duration days(double days, String name) {
        if (!Double.isFinite(days) || days < 0) {
            throw new InvalidArgumentException(name + " must be a finite number >= 0, got " + days);
        }
        return ofSeconds(days * 86_400);
    }

    /** Hours of an interval: finite (a negative one never waits). */
    static Duration hours(double hours, String name) {
        if (!Double.isFinite(hours)) {
            throw new InvalidArgumentException(name + " must be a finite number, got " + hours);
        }
        return ofSeconds(hours * 3_600);
    }

    /** A number of seconds (not NaN), rounded to the nanosecond (half to even), within a Duration's range. */
    static Duration ofSeconds(double seconds) {
        if (Double.isInfinite(seconds)) { // days * 86400 beyond a double: the agent's cut-off is -inf
            return seconds > 0 ? LONGEST : MOST_NEGATIVE;
        }
        java.math.BigInteger[] split = new BigDecimal(seconds).setScale(9, RoundingMode.HALF_EVEN)
                .multiply(NANOS_PER_SECOND).toBigIntegerExact().divideAndRemainder(NANOS_PER_SECOND.toBigIntegerExact());
        if (split[0].bitLength() >= Long.SIZE) {
            return split[0].signum() > 0 ? LONGEST : MOST_NEGATIVE;
        }
        return Duration.ofSeconds(split[0].longValueExact(), split[1].longValueExact());
    }
}
