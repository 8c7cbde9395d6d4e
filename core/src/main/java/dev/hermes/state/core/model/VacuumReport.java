package dev.hermes.state.core.model;

/**
 * What {@code vacuum} did: the agent's answer ({@code fullTextIndexesOptimized}) and the space it gave
 * back.
 *
 * @param fullTextIndexesOptimized the full-text indexes merged before the rebuild (the agent's return value)
 * @param bytesReclaimed           how much smaller the database became (never negative)
 */
public record VacuumReport(int fullTextIndexesOptimized, long bytesReclaimed) {
}
