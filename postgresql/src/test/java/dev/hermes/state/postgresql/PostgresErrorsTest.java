package dev.hermes.state.postgresql;

import dev.hermes.state.JdbcFailures;
import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Classification by SQLSTATE, wherever the SQLException sits in the cause chain. */
class PostgresErrorsTest {

    @Test
    void classifiesBySqlState() {
        Map<String, Class<? extends HermesStateException>> expected = Map.ofEntries(
                Map.entry("40001", BusyException.class),           // serialization_failure
                Map.entry("40P01", BusyException.class),           // deadlock_detected
                Map.entry("55P03", BusyException.class),           // lock_not_available (lock_timeout)
                Map.entry("23505", ConstraintViolationException.class),
                Map.entry("23503", ConstraintViolationException.class),
                Map.entry("08001", StateIOException.class),        // connection refused
                Map.entry("08006", StateIOException.class),        // connection lost
                Map.entry("28P01", StateIOException.class),        // wrong password
                Map.entry("3D000", StateIOException.class),        // no such database
                Map.entry("57P01", StateIOException.class),        // administrator shutdown
                Map.entry("53100", StateIOException.class),        // disk full
                Map.entry("53300", StateIOException.class),        // too many connections
                Map.entry("42501", StateIOException.class));       // insufficient privilege
        expected.forEach((state, type) -> assertInstanceOf(type,
                PostgresErrors.translate(new SQLException("ERROR: x", state), "testing"), state));
        for (String state : new String[] {"42P01", "22P02", "57014", "XX000"}) {
            assertEquals(ErrorType.INTERNAL, PostgresErrors.translate(new SQLException("ERROR: x", state), "testing").type(),
                    state);
        }
        assertTrue(PostgresErrors.isRetryable(new SQLException("x", "40P01")));
        assertFalse(PostgresErrors.isRetryable(new SQLException("x", "23505")));
        // one of several statements sent together failed: the driver reports the next one, the real failure as cause
        assertTrue(PostgresErrors.isRetryable(new SQLException("current transaction is aborted", "25P02",
                new SQLException("canceling statement due to lock timeout", "55P03"))));
    }

    @Test
    void readsTheDatabasesFailureThroughWrappersAndKeepsItsMessageOnOneLine() {
        SQLException server = new SQLException("ERROR: duplicate key value violates unique constraint \"idx_sessions_title_unique\"\n"
                + "  Detail: Key (title)=(same) already exists.", "23505");
        RuntimeException wrapped = new RuntimeException("Migration failed for changeset x", new SQLException("wrapper", null, server));
        HermesStateException typed = PostgresErrors.translate(wrapped, "renaming session s2");
        assertInstanceOf(ConstraintViolationException.class, typed);
        assertEquals("Constraint violated while renaming session s2: duplicate key value violates unique constraint"
                + " \"idx_sessions_title_unique\"; Detail: Key (title)=(same) already exists.", typed.getMessage());
        assertSame(wrapped, typed.getCause());
        assertEquals("23505", JdbcFailures.sqlState(wrapped));
        assertEquals("", JdbcFailures.sqlState(new IllegalStateException()));

        InvalidArgumentException already = new InvalidArgumentException("bad");
        assertSame(already, PostgresErrors.translate(already, "anything"));
    }
}
