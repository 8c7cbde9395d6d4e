package dev.hermes.state.migrations;

import java.util.List;

/**
 * What a migration (or a dry run) did to a file.
 *
 * @param fromVersion the schema version the file claimed before (0 for a new file)
 * @param toVersion   the schema version after (unchanged by a dry run)
 * @param created     the file did not exist and was created
 * @param fastPath    the file was already up to date and Liquibase was not started
 * @param dryRun      nothing was written: {@link #changes()} is what a real run would do
 * @param changes     the changesets run or recorded as already present, in order (empty on the fast path)
 */
public record MigrationResult(int fromVersion, int toVersion, boolean created, boolean fastPath, boolean dryRun,
                              List<AppliedChange> changes) {

    public MigrationResult {
        changes = List.copyOf(changes);
    }

    /** Changesets whose SQL was executed (as opposed to adopted). */
    public List<AppliedChange> executed() {
        return changes.stream().filter(AppliedChange::executed).toList();
    }

    /** Changesets whose objects already existed and were only recorded (adoption). */
    public List<AppliedChange> adopted() {
        return changes.stream().filter(change -> !change.executed()).toList();
    }

    /**
     * One changeset of a migration.
     *
     * @param id       the changeset id, e.g. {@code v3-sessions-title}
     * @param version  the schema version the changeset belongs to
     * @param executed true when its SQL ran; false when the object already existed and it was marked ran
     * @param sql      the changeset's SQL
     */
    public record AppliedChange(String id, int version, boolean executed, String sql) {
    }
}
