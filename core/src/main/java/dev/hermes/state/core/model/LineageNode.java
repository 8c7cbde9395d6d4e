package dev.hermes.state.core.model;

/**
 * A session in a lineage listing with its distance from the root of the query: 0 for the root of a
 * tree (or the session itself for ancestors), 1 for its children / parent, and so on.
 */
public record LineageNode(Session session, int depth) {
}
