package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/** An argument was rejected before anything was written (bad title, blank source, negative limit...). */
public final class InvalidArgumentException extends HermesStateException {
    public InvalidArgumentException(String message) {
        super(ErrorType.INVALID_ARGUMENT, message);
    }

    public InvalidArgumentException(String message, @Nullable Throwable cause) {
        super(ErrorType.INVALID_ARGUMENT, message, cause);
    }
}
