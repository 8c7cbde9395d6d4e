package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/** The file or its folder cannot be read or written (permissions, read-only location, disk full, I/O error). */
public final class StateIOException extends HermesStateException {
    public StateIOException(String message) {
        super(ErrorType.IO, message);
    }

    public StateIOException(String message, @Nullable Throwable cause) {
        super(ErrorType.IO, message, cause);
    }
}
