package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/** The database refused a write: unknown session or parent, a duplicate title that raced past the check. */
public final class ConstraintViolationException extends HermesStateException {
    public ConstraintViolationException(String message) {
        super(ErrorType.CONSTRAINT_VIOLATION, message);
    }

    public ConstraintViolationException(String message, @Nullable Throwable cause) {
        super(ErrorType.CONSTRAINT_VIOLATION, message, cause);
    }
}
