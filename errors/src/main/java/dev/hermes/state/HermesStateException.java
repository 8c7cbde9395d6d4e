package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/**
 * Base of every failure the hermes-state API reports. It is unchecked, carries a clear message meant
 * for the end user, and a {@link #type()} that callers (and the command line) can switch on. No public
 * operation lets a raw {@link java.sql.SQLException} escape.
 */
public class HermesStateException extends RuntimeException {
    private final ErrorType type;

    public HermesStateException(ErrorType type, String message) {
        this(type, message, null);
    }

    public HermesStateException(ErrorType type, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.type = type;
    }

    public ErrorType type() {
        return type;
    }
}
