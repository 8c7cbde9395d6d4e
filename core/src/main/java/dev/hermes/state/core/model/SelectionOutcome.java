package dev.hermes.state.core.model;

import java.util.List;

/**
 * What a prune or an archive by {@link SessionSelection} did, or, on a dry run, would do: the sessions
 * (as they were before the change, newest start first) and how many message rows they hold.
 *
 * @param dryRun   true when nothing was changed
 * @param sessions the sessions removed (prune) or archived (archive), whole compression lineages
 * @param messages the message rows of those sessions (every row, live or not)
 */
public record SelectionOutcome(boolean dryRun, List<Session> sessions, long messages) {
    public SelectionOutcome {
        sessions = List.copyOf(sessions);
        if (messages < 0) {
            throw new IllegalArgumentException("messages must be >= 0, got " + messages);
        }
    }

    /** The ids of {@link #sessions}, in the same order. */
    public List<String> ids() {
        return sessions.stream().map(Session::id).toList();
    }
}
