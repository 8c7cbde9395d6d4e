package dev.hermes.state.sqlite;

import org.jspecify.annotations.Nullable;
import dev.hermes.state.BusyException;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.NotAHermesDatabaseException;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;

import java.sql.SQLException;

/**
 * Turns SQLite failures into the typed exceptions of the public API. Classification is by SQLite
 * result code (the primary code is the low byte of the extended one), never by message text.
 */
public final class SqliteErrors implements RetryPolicy.Failures {
    public static final int SQLITE_PERM = 3;
    public static final int SQLITE_BUSY = 5;
    public static final int SQLITE_LOCKED = 6;
    public static final int SQLITE_READONLY = 8;
    public static final int SQLITE_IOERR = 10;
    public static final int SQLITE_CORRUPT = 11;
    public static final int SQLITE_FULL = 13;
    public static final int SQLITE_CANTOPEN = 14;
    public static final int SQLITE_CONSTRAINT = 19;
    public static final int SQLITE_NOTADB = 26;

    /** SQLite's classification, for {@link RetryPolicy#run} and every other place that types a SQLite failure. */
    public static final SqliteErrors FAILURES = new SqliteErrors();

    private SqliteErrors() {
    }

    /** The primary SQLite result code of the first {@link SQLException} in the cause chain, or -1. */
    public static int primaryCode(Throwable failure) {
        SQLException sql = firstSqlException(failure);
        return sql == null ? -1 : sql.getErrorCode() & 0xff;
    }

    /** True when the failure is SQLITE_BUSY or SQLITE_LOCKED: the only ones worth retrying. */
    @Override
    public boolean isRetryable(Throwable failure) {
        int code = primaryCode(failure);
        return code == SQLITE_BUSY || code == SQLITE_LOCKED;
    }

    /**
     * The typed exception for a failure; {@code what} says what was being done, in words a user
     * understands ("opening /x/state.db", "appending a message to session s1").
     */
    @Override
    public HermesStateException translate(Throwable failure, String what) {
        if (failure instanceof HermesStateException typed) {
            return typed;
        }
        SQLException sql = firstSqlException(failure);
        String detail = sql != null ? cleanMessage(sql) : String.valueOf(failure.getMessage());
        return switch (primaryCode(failure)) {
            case SQLITE_BUSY, SQLITE_LOCKED -> new BusyException("Database is busy (locked by another connection) while "
                    + what + "; gave up after the configured retries", failure);
            case SQLITE_CONSTRAINT -> new ConstraintViolationException("Constraint violated while " + what + ": " + detail, failure);
            case SQLITE_NOTADB, SQLITE_CORRUPT -> new NotAHermesDatabaseException(
                    "Not a valid SQLite database (file is corrupt or of another kind) while " + what + ": " + detail, failure);
            case SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN ->
                    new StateIOException("I/O failure while " + what + ": " + detail, failure);
            default -> new HermesStateException(ErrorType.INTERNAL, "Unexpected failure while " + what + ": " + detail, failure);
        };
    }

    private static @Nullable SQLException firstSqlException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** sqlite-jdbc prefixes messages with "[SQLITE_XXX] long description (detail)"; keep the detail. */
    private static String cleanMessage(SQLException sql) {
        String message = String.valueOf(sql.getMessage());
        int open = message.lastIndexOf('(');
        int close = message.lastIndexOf(')');
        if (message.startsWith("[SQLITE_") && open >= 0 && close > open) {
            return message.substring(open + 1, close);
        }
        return message;
    }
}
