package dev.hermes.state.sqlite;

import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryPolicyTest {
    private static final RetryPolicy NO_PAUSE = RetryPolicy.HERMES.withBackoff(Duration.ZERO, Duration.ZERO);

    @Test
    void hermesDefaults() {
        assertEquals(Duration.ofSeconds(1), RetryPolicy.HERMES.busyTimeout());
        assertEquals(15, RetryPolicy.HERMES.maxAttempts());
        assertEquals(Duration.ofMillis(20), RetryPolicy.HERMES.minBackoff());
        assertEquals(Duration.ofMillis(150), RetryPolicy.HERMES.maxBackoff());
    }

    @Test
    void retriesBusyUntilTheWorkSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        String result = NO_PAUSE.run("testing", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new SQLiteException("[SQLITE_BUSY] The database file is locked (database is locked)", SQLiteErrorCode.SQLITE_BUSY);
            }
            return "done";
        });
        assertEquals("done", result);
        assertEquals(3, attempts.get());
    }

    @Test
    void retriesLockedAndExtendedBusyCodesToo() {
        for (SQLiteErrorCode code : new SQLiteErrorCode[] {SQLiteErrorCode.SQLITE_LOCKED, SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT,
                SQLiteErrorCode.SQLITE_BUSY_RECOVERY, SQLiteErrorCode.SQLITE_LOCKED_SHAREDCACHE}) {
            AtomicInteger attempts = new AtomicInteger();
            NO_PAUSE.run("testing", () -> {
                if (attempts.incrementAndGet() == 1) {
                    throw new SQLiteException("locked", code);
                }
                return null;
            });
            assertEquals(2, attempts.get(), code.name());
        }
    }

    @Test
    void stopsAfterMaxAttemptsWithATypedBusyError() {
        AtomicInteger attempts = new AtomicInteger();
        BusyException e = assertThrows(BusyException.class, () -> NO_PAUSE.withMaxAttempts(4).run("appending a message", () -> {
            attempts.incrementAndGet();
            throw new SQLiteException("[SQLITE_BUSY] The database file is locked (database is locked)", SQLiteErrorCode.SQLITE_BUSY);
        }));
        assertEquals(4, attempts.get());
        assertEquals(ErrorType.BUSY, e.type());
        assertTrue(e.getMessage().contains("while appending a message"), e.getMessage());
    }

    @Test
    void neverRetriesAnythingButBusyOrLocked() {
        AtomicInteger attempts = new AtomicInteger();
        ConstraintViolationException constraint = assertThrows(ConstraintViolationException.class, () -> NO_PAUSE.run("inserting", () -> {
            attempts.incrementAndGet();
            throw new SQLiteException("[SQLITE_CONSTRAINT_FOREIGNKEY] A foreign key constraint failed (FOREIGN KEY constraint failed)",
                    SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY);
        }));
        assertEquals(1, attempts.get());
        assertTrue(constraint.getMessage().endsWith(": FOREIGN KEY constraint failed"), constraint.getMessage());

        // a message that merely mentions "locked" is not a busy error: classification is by code
        attempts.set(0);
        HermesStateException other = assertThrows(HermesStateException.class, () -> NO_PAUSE.run("reading", () -> {
            attempts.incrementAndGet();
            throw new SQLiteException("database is locked", SQLiteErrorCode.SQLITE_ERROR);
        }));
        assertEquals(1, attempts.get());
        assertEquals(ErrorType.INTERNAL, other.type());

        InvalidArgumentException typed = new InvalidArgumentException("bad");
        attempts.set(0);
        assertSame(typed, assertThrows(InvalidArgumentException.class, () -> NO_PAUSE.run("x", () -> {
            attempts.incrementAndGet();
            throw typed;
        })));
        assertEquals(1, attempts.get());
    }

    @Test
    void backoffStaysWithinItsBoundsAndCoversThem() {
        RetryPolicy policy = RetryPolicy.HERMES;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 20_000; i++) {
            long pause = policy.backoffMillis();
            assertTrue(pause >= 20 && pause <= 150, "pause " + pause);
            min = Math.min(min, pause);
            max = Math.max(max, pause);
        }
        assertEquals(20, min);
        assertEquals(150, max);
        assertEquals(7, RetryPolicy.HERMES.withBackoff(Duration.ofMillis(7), Duration.ofMillis(7)).backoffMillis());
    }

    @Test
    void rejectsImpossibleSettings() {
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withMaxAttempts(0));
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withBusyTimeout(Duration.ofMillis(-1)));
        assertThrows(InvalidArgumentException.class, () -> RetryPolicy.HERMES.withBusyTimeout(null));
        assertThrows(InvalidArgumentException.class,
                () -> RetryPolicy.HERMES.withBackoff(Duration.ofMillis(50), Duration.ofMillis(10)));
        assertThrows(InvalidArgumentException.class,
                () -> RetryPolicy.HERMES.withBackoff(Duration.ofMillis(-1), Duration.ofMillis(10)));
    }
}
