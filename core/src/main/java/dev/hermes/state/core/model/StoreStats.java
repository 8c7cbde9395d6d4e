package dev.hermes.state.core.model;

import java.util.Map;

/**
 * The figures of the agent's {@code hermes sessions stats}: sessions in all, outside the archive and in
 * it, messages, and the listed sessions (what the rich listing shows: roots and branches, archived ones
 * included) per source.
 *
 * @param bySource sessions per source, most first (then by name)
 * @param byModel  the listed sessions per model (those without a model left out), most first (then by name):
 *                 this library's addition, for a model filter's choices
 */
public record StoreStats(long total, long notArchived, long archived, long messages, Map<String, Long> bySource,
                         Map<String, Long> byModel) {
    public StoreStats {
        bySource = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bySource));
        byModel = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byModel));
    }
}
