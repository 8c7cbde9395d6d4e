package dev.hermes.state.migrations;

import java.nio.file.Path;
import java.util.List;

/**
 * The migration state of a file and the size of its contents, read without writing anything (the
 * migrator's read-only inspection, on one connection).
 *
 * @param file           the database file
 * @param schemaVersion  the version the file claims (0 when it has no schema_version table)
 * @param latestVersion  the newest version this library knows
 * @param changeSets     every changeset of the changelog with its state in this file
 * @param journalMode    the file's journal mode ({@code wal} once opened by hermes-state or the agent)
 * @param fileBytes      size of the database file
 * @param walBytes       size of its {@code -wal} file (0 when absent)
 * @param sessions       the rows of its {@code sessions} table (0 when it has none)
 * @param messages       the rows of its {@code messages} table (0 when it has none)
 */
public record SchemaStatus(Path file, int schemaVersion, int latestVersion, List<ChangeSetState> changeSets,
                           String journalMode, long fileBytes, long walBytes, long sessions, long messages) {

    public SchemaStatus {
        changeSets = List.copyOf(changeSets);
    }

    /** A changeset and whether the file has it recorded. */
    public record ChangeSetState(String id, int version, State state) {
    }

    /** EXECUTED: run by hermes-state; MARK_RAN: found present and recorded; PENDING: not recorded in the file. */
    public enum State { EXECUTED, MARK_RAN, PENDING }

    /**
     * The file claims a version newer than {@link #latestVersion}: it is never migrated or written,
     * so none of its unrecorded changesets is pending.
     */
    public boolean newerThanLatest() {
        return schemaVersion > latestVersion;
    }

    /** The changesets the next migration would apply: none on a {@linkplain #newerThanLatest() newer} file. */
    public List<ChangeSetState> pending() {
        if (newerThanLatest()) {
            return List.of();
        }
        return changeSets.stream().filter(c -> c.state() == State.PENDING).toList();
    }

    public List<ChangeSetState> applied() {
        return changeSets.stream().filter(c -> c.state() != State.PENDING).toList();
    }

    /** The file is at the latest version with every changeset recorded. */
    public boolean upToDate() {
        return schemaVersion == latestVersion && pending().isEmpty();
    }
}
