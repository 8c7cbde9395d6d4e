package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Objects;

/**
 * An active compression-failure cooldown of a session ({@code get_compression_failure_cooldown}):
 * compression is not retried before {@code until}.
 *
 * @param until            the end of the cooldown, as recorded
 * @param remainingSeconds {@code until} minus the store's clock when read (positive)
 * @param error            the failure that started it, if one was recorded
 */
public record CompressionCooldown(Instant until, double remainingSeconds, @Nullable String error) {
    public CompressionCooldown {
        Objects.requireNonNull(until, "until");
    }
}
