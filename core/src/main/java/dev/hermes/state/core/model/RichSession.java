package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * A row of the rich listing ({@code list_sessions_rich}). When a compression root is projected onto
 * its tip, {@link #session()} carries the tip's id, ended_at, end_reason, counters, title, model and
 * system prompt with the root's own started_at and other columns, and {@link #lineageRootId()} is the
 * root's id.
 *
 * @param preview       first user message, 60 code points + "..." rule; "" when there is none
 * @param lastActive    latest message timestamp, else started_at
 * @param lineageRootId the root's id when projected (Hermes' {@code _lineage_root_id}), else null
 */
public record RichSession(Session session, String preview, Instant lastActive, @Nullable String lineageRootId) {
}
