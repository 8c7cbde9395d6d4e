package dev.hermes.state.core.model;

import java.util.List;

/**
 * What a prune by age ({@code prune_sessions}) removed: the ids of the sessions deleted, with their
 * messages (the agent answers their number, {@link #count()}).
 */
public record PrunedSessions(List<String> ids) {
    public PrunedSessions {
        ids = List.copyOf(ids);
    }

    /** How many sessions were deleted: the agent's answer. */
    public int count() {
        return ids.size();
    }
}
