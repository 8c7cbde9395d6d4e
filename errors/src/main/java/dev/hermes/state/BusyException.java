package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/** The file stayed locked by another connection or process after every retry allowed by the retry policy. */
public final class BusyException extends HermesStateException {
    public BusyException(String message) {
        super(ErrorType.BUSY, message);
    }

    public BusyException(String message, @Nullable Throwable cause) {
        super(ErrorType.BUSY, message, cause);
    }
}
