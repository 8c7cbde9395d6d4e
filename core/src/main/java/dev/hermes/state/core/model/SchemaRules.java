package dev.hermes.state.core.model;

/**
 * Which agent's behaviour a store reproduces. {@link #V17}, today's agent, for a store brought to 17
 * and for any file written at 7 or later (a newer file is read with every rule known up to 17);
 * {@link #V6}, the agent of April 2026, for a store kept at 6 on a file of at most 6.
 */
public enum SchemaRules {
    V6, V17;

    /** True when these rules are {@code other}'s or later ones. */
    public boolean atLeast(SchemaRules other) {
        return compareTo(other) >= 0;
    }
}
