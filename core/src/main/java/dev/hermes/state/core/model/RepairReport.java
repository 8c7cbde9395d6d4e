package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * What {@code hermes-state repair} did, or with {@code dryRun} would do.
 *
 * @param store   the file or PostgreSQL schema
 * @param dryRun  nothing was changed: {@code actions} is the plan
 * @param backup  the copy made beside the file before any change (null for a dry run, nothing to do, or PostgreSQL)
 * @param actions what was (or would be) done, one sentence each, in order
 * @param before  the check before
 * @param after   the check after (the same as {@code before} for a dry run or when nothing was done)
 */
public record RepairReport(String store, boolean dryRun, @Nullable String backup, List<String> actions,
                           DoctorReport before, DoctorReport after) {
    public RepairReport {
        Objects.requireNonNull(store, "store");
        actions = List.copyOf(actions);
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
    }

    /** The problems left that a repair cannot mend (they need {@code recover}, or a person). */
    public List<Finding> remaining() {
        return after.problems();
    }
}
