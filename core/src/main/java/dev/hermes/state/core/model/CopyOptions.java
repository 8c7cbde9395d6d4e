package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;

/**
 * How {@link dev.hermes.state.core.StateRepository#copyTo} copies a store.
 *
 * <p>{@code append} false (the default): the target must hold no session and no message; the copy
 * refuses to start otherwise. {@code append} true: the target may already hold sessions, and
 * <ul>
 *   <li>a source session whose id the target already has is <b>skipped</b> with its messages: the
 *       target's session is left exactly as it is (never overwritten or merged). This is also how an
 *       interrupted copy is resumed: the sessions it committed are skipped, the others copied;</li>
 *   <li>the messages of a copied session keep their ids when none of those ids is used in the target;
 *       when any is, <b>all</b> of that session's messages get new ids from the target (in the
 *       session's (timestamp, id) order, so its conversation reads the same);</li>
 *   <li>a copied session whose title another session of the target already has is an error (titles
 *       are unique): nothing of the batch that holds it is written.</li>
 * </ul>
 *
 * @param append      add to a target that may hold sessions (see above)
 * @param batchSessions sessions per write transaction of the target (whole sessions with all their messages)
 */
public record CopyOptions(boolean append, int batchSessions) {
    public static final int DEFAULT_BATCH_SESSIONS = 100;
    /** Above this, the IN lists of a batch's queries get unwieldy for no gain. */
    public static final int MAX_BATCH_SESSIONS = 1000;

    public CopyOptions {
        if (batchSessions < 1 || batchSessions > MAX_BATCH_SESSIONS) {
            throw new InvalidArgumentException("batchSessions must be from 1 to " + MAX_BATCH_SESSIONS + ", got "
                    + batchSessions);
        }
    }

    /** Into an empty target, {@value #DEFAULT_BATCH_SESSIONS} sessions per transaction. */
    public static CopyOptions intoEmpty() {
        return new CopyOptions(false, DEFAULT_BATCH_SESSIONS);
    }

    /** Into a target that may hold sessions (and to resume an interrupted copy). */
    public static CopyOptions appending() {
        return new CopyOptions(true, DEFAULT_BATCH_SESSIONS);
    }

    public CopyOptions withBatchSessions(int sessions) {
        return new CopyOptions(append, sessions);
    }
}
