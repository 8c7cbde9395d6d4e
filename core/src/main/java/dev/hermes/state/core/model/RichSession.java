package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * A row of the rich listing ({@code list_sessions_rich}). When a compression root is projected onto
 * its tip, {@link #session()} carries the tip's id, ended_at, end_reason, counters, title, model and
 * system prompt with the root's own started_at and other columns, {@link #workspace()} the tip's, and
 * {@link #lineageRootId()} is the root's id.
 *
 * @param preview       first user message, 60 code points + "..." rule; "" when there is none
 * @param lastActive    latest message timestamp, else started_at
 * @param lineageRootId the root's id when projected (Hermes' {@code _lineage_root_id}), else null
 * @param workspace     the session's working directory and git checkout; null when the store has no such
 *                      columns (a file written before the agent recorded them)
 */
public record RichSession(Session session, String preview, Instant lastActive, @Nullable String lineageRootId,
                          @Nullable Workspace workspace) {

    /** A row of a store without the workspace columns. */
    public RichSession(Session session, String preview, Instant lastActive, @Nullable String lineageRootId) {
        this(session, preview, lastActive, lineageRootId, null);
    }

    /**
     * Where a session ran: its working directory and, inside a git checkout, the branch and the
     * checkout's root (the columns {@code cwd}, {@code git_branch}, {@code git_repo_root}; each may be null).
     */
    public record Workspace(@Nullable String cwd, @Nullable String gitBranch, @Nullable String gitRepoRoot) {
    }
}
