package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * A session's cross-platform handoff ({@code get_handoff_state}): all null when none was ever
 * requested. The state runs NULL → {@code pending} (requested) → {@code running} (claimed by a
 * gateway) → {@code completed} or {@code failed}; a finished one may be requested again.
 *
 * @param state    null, {@code pending}, {@code running}, {@code completed} or {@code failed}
 * @param platform where the session goes
 * @param error    why it failed (at most 500 characters)
 */
public record HandoffState(@Nullable String state, @Nullable String platform, @Nullable String error) {
}
