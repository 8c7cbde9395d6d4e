package dev.hermes.state.core.model;

import java.util.Map;

/**
 * The figures of the agent's {@code hermes sessions stats}: sessions in all, outside the archive and in
 * it, messages, and the listed sessions (what the rich listing shows: roots and branches, archived ones
 * included) per source.
 *
 * @param bySource sessions per source, most first (then by name)
 */
public record StoreStats(long total, long notArchived, long archived, long messages, Map<String, Long> bySource) {
    public StoreStats {
        bySource = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bySource));
    }
}
