package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

/**
 * What {@code maybe_auto_prune_and_vacuum} did.
 *
 * @param skipped  true when the last run was less than the minimum interval ago (nothing else done)
 * @param pruned   sessions deleted
 * @param vacuumed true when the database was rebuilt (only after a prune that deleted something)
 * @param error    the failure that stopped it, if any (it never throws)
 */
public record AutoMaintenanceReport(boolean skipped, int pruned, boolean vacuumed, @Nullable String error) {
}
