package dev.hermes.state.core.backend.sqlite;

import org.sqlite.BusyHandler;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for another process's lock the way SQLite's busy timeout does, up to the same time limit,
 * but polls every 0.1-1 ms instead of backing off to 100 ms between tries.
 *
 * <p>Why: SQLite has no queue for its write lock. A writer that has just committed takes the lock
 * again microseconds later, so a waiter only gets in when it happens to poll inside that short gap.
 * With SQLite's default schedule a waiter polls only ~20 times in its one second and several busy
 * writers starve each other into SQLITE_BUSY; polling often (with jitter, so waiters do not poll in
 * step) gives every process a fair chance and keeps single-append waits far below the timeout.
 */
final class PollingBusyHandler extends BusyHandler {
    private static final long MIN_POLL_NANOS = 100_000;
    private static final long MAX_POLL_NANOS = 1_000_000;

    private final long timeoutNanos;
    /** When the current wait began; SQLite calls back with 0 previous calls at the start of each wait. */
    private long waitStartedNanos;

    PollingBusyHandler(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    protected int callback(int previousCalls) {
        long now = System.nanoTime();
        if (previousCalls == 0) {
            waitStartedNanos = now;
        }
        if (now - waitStartedNanos >= timeoutNanos) {
            return 0;
        }
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(MIN_POLL_NANOS, MAX_POLL_NANOS));
        return 1;
    }
}
