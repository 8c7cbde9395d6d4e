package dev.hermes.state.core.model;

import java.time.Instant;

/**
 * A working directory sessions ran in ({@code distinct_session_cwds}): how many sessions ran there,
 * children and branches included, and the latest end (else start) among them.
 */
public record SessionCwd(String cwd, long sessions, Instant lastActive) {
}
