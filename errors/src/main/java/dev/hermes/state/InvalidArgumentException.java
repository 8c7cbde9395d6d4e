package dev.hermes.state;

/** An argument was rejected before anything was written (bad title, blank source, negative limit...). */
public final class InvalidArgumentException extends HermesStateException {
    public InvalidArgumentException(String message) {
        super(ErrorType.INVALID_ARGUMENT, message);
    }

    public InvalidArgumentException(String message, Throwable cause) {
        super(ErrorType.INVALID_ARGUMENT, message, cause);
    }
}
