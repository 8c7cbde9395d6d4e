package dev.hermes.state;

/** The file is not a SQLite database, is empty, corrupt, or is a SQLite database of some other application. */
public final class NotAHermesDatabaseException extends HermesStateException {
    public NotAHermesDatabaseException(String message) {
        super(ErrorType.NOT_A_DATABASE, message);
    }

    public NotAHermesDatabaseException(String message, Throwable cause) {
        super(ErrorType.NOT_A_DATABASE, message, cause);
    }
}
