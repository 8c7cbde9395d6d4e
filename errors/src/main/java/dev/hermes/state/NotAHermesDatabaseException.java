package dev.hermes.state;

import org.jspecify.annotations.Nullable;

/** The file is not a SQLite database, is empty, corrupt, or is a SQLite database of some other application. */
public final class NotAHermesDatabaseException extends HermesStateException {
    public NotAHermesDatabaseException(String message) {
        super(ErrorType.NOT_A_DATABASE, message);
    }

    public NotAHermesDatabaseException(String message, @Nullable Throwable cause) {
        super(ErrorType.NOT_A_DATABASE, message, cause);
    }
}
