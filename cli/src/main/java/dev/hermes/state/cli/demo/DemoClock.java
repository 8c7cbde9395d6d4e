package dev.hermes.state.cli.demo;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * The store's clock during the demo: set to chosen instants while the sample sessions are written,
 * so they spread over the past week like a real history, then back to the system time.
 */
public final class DemoClock extends Clock {
    private volatile @Nullable Instant fixed;

    /** From now on the store sees {@code instant} (null = the system time again). */
    public void set(@Nullable Instant instant) {
        fixed = instant;
    }

    @Override
    public Instant instant() {
        Instant now = fixed;
        return now != null ? now : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return ZoneId.systemDefault();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
