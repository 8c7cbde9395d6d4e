package dev.hermes.state.core.model;

import dev.hermes.state.ErrorType;
import dev.hermes.state.HermesStateException;
import org.jspecify.annotations.Nullable;

/**
 * A value of the source that the copy cannot carry to the target unchanged: text that is not valid
 * UTF-8 (SQLite stores whatever bytes it is given), a NUL character (U+0000) for a target that cannot
 * store one in text (PostgreSQL), a number column holding something that is not a number of its type.
 * Found while the source is checked, before anything is written: the target is left unchanged. Names
 * the session, the message (when the value is a message's) and the column.
 */
public final class UnstorableValueException extends HermesStateException {
    private final String sessionId;
    private final @Nullable Long messageId;
    private final String column;

    public UnstorableValueException(String sessionId, @Nullable Long messageId, String column, String problem) {
        super(ErrorType.INVALID_ARGUMENT, "Cannot copy " + (messageId == null ? "" : "message " + messageId + " of ")
                + "session " + sessionId + ": its " + column + " " + problem + ". Nothing was copied; fix the value in"
                + " the source (or delete the " + (messageId == null ? "session" : "message") + ") and copy again");
        this.sessionId = sessionId;
        this.messageId = messageId;
        this.column = column;
    }

    /** The session of the value (for a session id that is itself the problem, its bytes with the bad ones escaped). */
    public String sessionId() {
        return sessionId;
    }

    /** The message of the value; null for a value of the session row. */
    public @Nullable Long messageId() {
        return messageId;
    }

    /** The column that holds it. */
    public String column() {
        return column;
    }
}
