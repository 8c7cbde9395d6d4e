package dev.hermes.state.core.model;

import java.time.Instant;

/**
 * A session with its last activity ({@code search_sessions} of today's agent): the timestamp of its
 * latest message, else its start.
 */
public record ActiveSession(Session session, Instant lastActive) {
}
