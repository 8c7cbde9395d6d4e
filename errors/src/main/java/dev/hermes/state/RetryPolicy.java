package dev.hermes.state;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hermes' write-contention discipline: each connection waits up to {@code busyTimeout} for a lock;
 * when a write still fails because the database is busy (SQLite: SQLITE_BUSY or SQLITE_LOCKED) the
 * whole transaction is retried, up to {@code maxAttempts} attempts in total, sleeping a random time
 * between {@code minBackoff} and {@code maxBackoff} in between. Only such failures are retried; any
 * other ends at once. Which failures those are is the database engine's to say ({@link Failures}).
 */
public record RetryPolicy(Duration busyTimeout, int maxAttempts, Duration minBackoff, Duration maxBackoff) {

    /** The values the Python agent uses: 1 s busy timeout, 15 attempts, 20-150 ms back-off. */
    public static final RetryPolicy HERMES = new RetryPolicy(Duration.ofSeconds(1), 15,
            Duration.ofMillis(20), Duration.ofMillis(150));

    public RetryPolicy {
        if (busyTimeout == null || busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new InvalidArgumentException("busyTimeout must be between 0 and " + Integer.MAX_VALUE + " ms, got " + busyTimeout);
        }
        if (maxAttempts < 1) {
            throw new InvalidArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        if (minBackoff == null || maxBackoff == null || minBackoff.isNegative() || maxBackoff.compareTo(minBackoff) < 0) {
            throw new InvalidArgumentException("back-off must satisfy 0 <= min <= max, got " + minBackoff + ".." + maxBackoff);
        }
    }

    public RetryPolicy withBusyTimeout(Duration timeout) {
        return new RetryPolicy(timeout, maxAttempts, minBackoff, maxBackoff);
    }

    public RetryPolicy withMaxAttempts(int attempts) {
        return new RetryPolicy(busyTimeout, attempts, minBackoff, maxBackoff);
    }

    public RetryPolicy withBackoff(Duration min, Duration max) {
        return new RetryPolicy(busyTimeout, maxAttempts, min, max);
    }

    /** One unit of work that may be retried as a whole. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws Exception;
    }

    /** How one database engine classifies its failures. */
    public interface Failures {
        /**
         * The database was busy (another connection holds the lock, a serialization failure, a
         * deadlock): running the whole unit of work again may succeed.
         */
        boolean isRetryable(Throwable failure);

        /**
         * The exception the caller sees for a failure (a typed one for anything the database raised);
         * {@code what} says what was being done.
         */
        RuntimeException translate(Throwable failure, String what);
    }

    /**
     * Runs {@code attempt}, retrying it while it fails with a failure {@code failures} calls retryable and
     * attempts remain. The last failure is translated by {@code failures}; {@code what} describes the work.
     */
    public <T> T run(String what, Failures failures, Attempt<T> attempt) {
        return run(what, failures, () -> { }, attempt);
    }

    /** Like {@link #run(String, Failures, Attempt)}; {@code retrying} runs before each back-off (a metric). */
    public <T> T run(String what, Failures failures, Runnable retrying, Attempt<T> attempt) {
        for (int number = 1; ; number++) {
            try {
                return attempt.run();
            } catch (Exception failure) {
                if (number >= maxAttempts || !failures.isRetryable(failure)) {
                    throw failures.translate(failure, what);
                }
                retrying.run();
                sleepBackoff(failure, failures, what);
            }
        }
    }

    private void sleepBackoff(Exception failure, Failures failures, String what) {
        try {
            Thread.sleep(backoffMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failures.translate(failure, what);
        }
    }

    /** One random pause between attempts, uniformly within [minBackoff, maxBackoff]. */
    long backoffMillis() {
        long min = minBackoff.toMillis();
        long max = maxBackoff.toMillis();
        return min == max ? min : ThreadLocalRandom.current().nextLong(min, max + 1);
    }
}
