package dev.hermes.state.postgresql;

import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.StateIOException;

import java.sql.SQLException;

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

    private PostgresErrors() {
    }

    /** The SQLSTATE of the first {@link SQLException} in the cause chain that has one, or "". */
    public static String sqlState(Throwable failure) {
        SQLException sql = firstSqlException(failure);
        return sql == null ? "" : sql.getSQLState();
    }

    /** Serialization failures, deadlocks and lock timeouts: the transaction may succeed when run again. */
    public static boolean isRetryable(Throwable failure) {
        String state = sqlState(failure);
        return state.equals(SERIALIZATION_FAILURE) || state.equals(DEADLOCK_DETECTED) || state.equals(LOCK_NOT_AVAILABLE);
    }

    /**
     * The typed exception for a failure; {@code what} says what was being done, in words a user
     * understands ("migrating postgresql://hermes@db:5432/app (schema hermes)").
     */
    public static HermesStateException translate(Throwable failure, String what) {
        if (failure instanceof HermesStateException typed) {
            return typed;
        }
        String state = sqlState(failure);
        String detail = detail(failure);
        if (isRetryable(failure)) {
            return new BusyException("The database is busy (" + detail + ") while " + what, failure);
        }
        return switch (state.length() == 5 ? state.substring(0, 2) : "") {
            case "23" -> new ConstraintViolationException("Constraint violated while " + what + ": " + detail, failure);
            // connection exceptions, refused logins, unknown database, server shutting down or starting
            case "08", "28", "3D" -> new StateIOException("Cannot use the PostgreSQL server while " + what + ": "
                    + detail, failure);
            // out of disk, memory or connections; files of the server
            case "53", "58" -> new StateIOException("The PostgreSQL server failed while " + what + ": " + detail, failure);
            default -> state.equals(INSUFFICIENT_PRIVILEGE)
                    ? new StateIOException("Permission denied while " + what + ": " + detail, failure)
                    // 57P01-57P05: the server is shutting down, restarting or starting
                    : state.startsWith("57P")
                    ? new StateIOException("Cannot use the PostgreSQL server while " + what + ": " + detail, failure)
                    : new HermesStateException(ErrorType.INTERNAL, "Unexpected failure while " + what + ": " + detail, failure);
        };
    }

    private static SQLException firstSqlException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql;
            }
        }
        return null;
    }

    /**
     * The server's message on one line ("ERROR: " dropped; Detail and Hint kept after a semicolon);
     * the message of the database failure itself, not of the layers (Liquibase) that wrapped it.
     */
    private static String detail(Throwable failure) {
        SQLException sql = firstSqlException(failure);
        String message = String.valueOf((sql != null ? sql : failure).getMessage()).strip();
        if (message.startsWith("ERROR: ") || message.startsWith("FATAL: ")) {
            message = message.substring(7);
        }
        return message.replaceAll("\\s*\\R\\s*", "; ");
    }
}
