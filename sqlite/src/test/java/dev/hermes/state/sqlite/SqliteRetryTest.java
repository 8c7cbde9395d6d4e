package dev.hermes.state.sqlite;

import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RetryPolicy#run} with SQLite's classification: what is retried, and how the last failure is typed. */
class SqliteRetryTest {
    private static final RetryPolicy NO_PAUSE = RetryPolicy.HERMES.withBackoff(Duration.ZERO, Duration.ZERO);

    @Test
    void retriesBusyUntilTheWorkSucceeds() {
        AtomicInteger attempts = new AtomicInteger();
        String result = NO_PAUSE.run("testing", SqliteErrors.FAILURES, () -> {
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
            NO_PAUSE.run("testing", SqliteErrors.FAILURES, () -> {
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
        BusyException e = assertThrows(BusyException.class, () -> NO_PAUSE.withMaxAttempts(4).run("appending a message", SqliteErrors.FAILURES, () -> {
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
        ConstraintViolationException constraint = assertThrows(ConstraintViolationException.class, () -> NO_PAUSE.run("inserting", SqliteErrors.FAILURES, () -> {
            attempts.incrementAndGet();
            throw new SQLiteException("[SQLITE_CONSTRAINT_FOREIGNKEY] A foreign key constraint failed (FOREIGN KEY constraint failed)",
                    SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY);
        }));
        assertEquals(1, attempts.get());
        assertTrue(constraint.getMessage().endsWith(": FOREIGN KEY constraint failed"), constraint.getMessage());

        // a message that merely mentions "locked" is not a busy error: classification is by code
        attempts.set(0);
        HermesStateException other = assertThrows(HermesStateException.class, () -> NO_PAUSE.run("reading", SqliteErrors.FAILURES, () -> {
            attempts.incrementAndGet();
            throw new SQLiteException("database is locked", SQLiteErrorCode.SQLITE_ERROR);
        }));
        assertEquals(1, attempts.get());
        assertEquals(ErrorType.INTERNAL, other.type());

        InvalidArgumentException typed = new InvalidArgumentException("bad");
        attempts.set(0);
        assertSame(typed, assertThrows(InvalidArgumentException.class, () -> NO_PAUSE.run("x", SqliteErrors.FAILURES, () -> {
            attempts.incrementAndGet();
            throw typed;
        })));
        assertEquals(1, attempts.get());
    }
}
