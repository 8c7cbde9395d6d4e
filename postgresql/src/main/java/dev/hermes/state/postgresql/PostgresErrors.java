package dev.hermes.state.postgresql;

import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.JdbcFailures;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;

import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Turns PostgreSQL failures into the typed exceptions of the public API, classified by SQLSTATE
 * (plain JDBC: no class of a particular driver version is needed). The server's messages name roles,
 * databases and objects, never a password, and the URLs in ours come from {@link PostgresLocation}.
 */
public final class PostgresErrors {
    public static final String SERIALIZATION_FAILURE = "40001";
    public static final String DEADLOCK_DETECTED = "40P01";
    public static final String LOCK_NOT_AVAILABLE = "55P03";
    public static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** PostgreSQL's classification as {@link RetryPolicy} takes it, for code that types a failure by its store's engine. */
    public static final RetryPolicy.Failures FAILURES = new RetryPolicy.Failures() {
        @Override
        public boolean isRetryable(Throwable failure) {
            return PostgresErrors.isRetryable(failure);
        }

        @Override
        public HermesStateException translate(Throwable failure, String what) {
            return PostgresErrors.translate(failure, what);
        }
    };

    private PostgresErrors() {
    }

    /**
     * Serialization failures, deadlocks and lock timeouts: the transaction may succeed when run again.
     * Every SQLException of the chain counts (causes and the driver's next exceptions): when one of
     * several statements sent together fails, the driver reports the statement after it first
     * ("current transaction is aborted") with the real failure as its cause.
     */
    public static boolean isRetryable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException e = sql; e != null; e = e.getNextException() == e ? null : e.getNextException()) {
                    String state = String.valueOf(e.getSQLState());
                    if (state.equals(SERIALIZATION_FAILURE) || state.equals(DEADLOCK_DETECTED)
                            || state.equals(LOCK_NOT_AVAILABLE)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The typed exception for a failure; {@code what} says what was being done, in words a user
     * understands ("migrating postgresql://hermes@db:5432/app (schema hermes)").
     */
    public static HermesStateException translate(Throwable failure, String what) {
        if (failure instanceof HermesStateException typed) {
            return typed;
        }
        String state = JdbcFailures.sqlState(failure);
        String detail = detail(failure);
        if (isRetryable(failure)) {
            return new BusyException("The database is busy (" + detail + ") while " + what, failure);
        }
        // a connection failure is never retried by the store: a write whose connection broke at COMMIT
        // may have committed; the next call gets a new connection
        if (JdbcFailures.isConnectionFailure(failure)) {
            return new StateIOException("Cannot use the PostgreSQL server while " + what + ": " + detail, failure);
        }
        return switch (state.length() == 5 ? state.substring(0, 2) : "") {
            case "23" -> new ConstraintViolationException("Constraint violated while " + what + ": " + detail, failure);
            // out of disk, memory or connections; files of the server
            case "53", "58" -> new StateIOException("The PostgreSQL server failed while " + what + ": " + detail, failure);
            default -> state.equals(INSUFFICIENT_PRIVILEGE)
                    ? new StateIOException("Permission denied while " + what + ": " + detail, failure)
                    : new HermesStateException(ErrorType.INTERNAL, "Unexpected failure while " + what + ": " + detail, failure);
        };
    }


    /** The innermost SQLException with a SQLSTATE: the driver's own, below a pool's or a framework's. */
    private static @Nullable SQLException innermostSqlException(Throwable failure) {
        SQLException innermost = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                innermost = sql;
            }
        }
        return innermost;
    }

    /**
     * The server's message on one line ("ERROR: " dropped; Detail and Hint kept after a semicolon);
     * the message of the database failure itself, not of the layers (Liquibase, the pool) that
     * wrapped it.
     */
    private static String detail(Throwable failure) {
        SQLException sql = innermostSqlException(failure);
        String message = String.valueOf((sql != null ? sql : failure).getMessage()).strip();
        if (message.startsWith("ERROR: ") || message.startsWith("FATAL: ")) {
            message = message.substring(7);
        }
        return message.replaceAll("\\s*\\R\\s*", "; ");
    }
}
