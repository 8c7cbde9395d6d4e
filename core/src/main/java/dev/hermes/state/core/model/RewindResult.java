package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

/**
 * What {@code rewind_to_message} did.
 *
 * @param rewoundCount  the rows it hid (active before, inactive now): the target and every later live row
 * @param targetMessage the target user message as it was before the rewind, content decoded (a caller puts
 *                      it back into the prompt)
 * @param newHeadId     the id of the session's last live message after the rewind; null when none is left
 */
public record RewindResult(int rewoundCount, Message targetMessage, @Nullable Long newHeadId) {
    public RewindResult {
        if (rewoundCount < 0) {
            throw new InvalidArgumentException("rewoundCount must not be negative: " + rewoundCount);
        }
        if (targetMessage == null) {
            throw new InvalidArgumentException("targetMessage must not be null");
        }
    }
}
