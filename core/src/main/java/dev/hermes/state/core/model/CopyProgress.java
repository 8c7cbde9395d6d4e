package dev.hermes.state.core.model;

/**
 * Where a copy is ({@link dev.hermes.state.core.StateRepository#copyTo} reports it to its listener after
 * every page it checked, every batch it committed and every page it verified). The totals are the
 * source's, counted in the first phase; during {@link Phase#CHECKING} they are still growing.
 */
public record CopyProgress(Phase phase, long sessionsDone, long sessionsTotal, long messagesDone, long messagesTotal) {

    /** The three passes of a copy over the source, in this order. */
    public enum Phase {
        /** Reading the whole source once: counting, and checking every value is one the target can hold. Nothing written yet. */
        CHECKING,
        /** Writing batches of whole sessions to the target. */
        COPYING,
        /** Reading both sides again and comparing them session by session. */
        VERIFYING
    }
}
