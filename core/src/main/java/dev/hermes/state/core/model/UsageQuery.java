package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@link dev.hermes.state.core.StateRepository#getUsage} aggregates: the sessions that started after
 * {@code since} (exclusive, as the agent's dashboard counts a period), archived ones included, since
 * their tokens were spent all the same. Days are UTC calendar days.
 */
public record UsageQuery(Instant since) {
    public UsageQuery {
        Objects.requireNonNull(since, "since");
    }

    /** The last {@code days} days before {@code now}: 1 to 3,650. */
    public static UsageQuery lastDays(int days, Instant now) {
        if (days < 1 || days > 3650) {
            throw new InvalidArgumentException("days must be between 1 and 3650, got " + days);
        }
        return new UsageQuery(Objects.requireNonNull(now, "now").minusSeconds(days * 86_400L));
    }
}
