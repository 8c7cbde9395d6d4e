package dev.hermes.state.cli.command;

import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.SchemaStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code status}: what state the file is in, read without writing a byte and without starting
 * Liquibase (the migrator's inspection, which also counts the sessions and messages, on one read-only
 * connection), so it also works on a file this version must not migrate: an older one not yet adopted
 * or a newer one.
 */
@Command(mixinStandardHelpOptions = true, name = "status", description = "Schema version, applied and pending migration steps, journal mode, "
        + "counts and file size. Never writes.")
public final class StatusCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Override
    public Integer call() {
        Path file = CommandContext.requireExisting(cli.dbPath());
        SchemaStatus status = cli.migrator().status(file);
        if (cli.json()) {
            cli.printJson(json(status));
        } else {
            print(status);
        }
        return CommandContext.OK;
    }

    private void print(SchemaStatus status) {
        long executed = status.applied().stream().filter(c -> c.state() == SchemaStatus.State.EXECUTED).count();
        long recorded = status.applied().size() - executed;
        Table table = Table.withColumns(2);
        table.row("File", status.file().toAbsolutePath() + "  (" + Times.bytes(status.fileBytes())
                + ", -wal " + Times.bytes(status.walBytes()) + ")");
        table.row("Schema", "version " + status.schemaVersion() + schemaNote(status));
        table.row("Journal mode", status.journalMode());
        table.row("Opening", opening(status));
        if (status.newerThanLatest()) {
            table.row("Steps", "none will be applied: the file is at version " + status.schemaVersion()
                    + ", past the " + status.changeSets().size() + " steps that build versions 1-" + status.latestVersion());
        } else {
            table.row("Steps", status.applied().size() + " applied (" + executed + " run, " + recorded
                    + " recorded as already present), " + status.pending().size() + " pending");
        }
        if (!status.pending().isEmpty()) {
            table.row("Pending", pendingByVersion(status));
        }
        table.row("Sessions", status.sessions());
        table.row("Messages", status.messages());
        table.lines().forEach(cli.out()::println);
    }

    private static String schemaNote(SchemaStatus status) {
        if (status.schemaVersion() > status.latestVersion()) {
            return status.latestVersion() < Migrator.LATEST_VERSION && status.schemaVersion() <= Migrator.LATEST_VERSION
                    ? " (past version " + status.latestVersion() + ", which --schema-version keeps files at: use --read-only,"
                    + " or open it without --schema-version " + status.latestVersion() + ")"
                    : " (newer than version " + status.latestVersion() + ", the newest this hermes-state knows: "
                    + "use --read-only; it will not be migrated or written)";
        }
        if (status.upToDate()) {
            return " of " + status.latestVersion() + ": up to date";
        }
        if (status.applied().isEmpty()) {
            return " of " + status.latestVersion() + ": not yet adopted by hermes-state (run 'migrate'; existing "
                    + "objects are recorded, data is untouched)";
        }
        return " of " + status.latestVersion() + ": run 'migrate' to apply the pending steps";
    }

    /** What opening the file will do: read-write (the migration, or a refusal) and read-only. */
    private static String opening(SchemaStatus status) {
        int target = status.latestVersion();
        String kept = target == Migrator.KEPT_VERSION ? " (kept at " + target + " by --schema-version)" : "";
        if (status.newerThanLatest()) {
            return "read-only only: version " + status.schemaVersion() + " is past " + target + kept
                    + "; a read-write open is refused and nothing is written"
                    + (target < Migrator.LATEST_VERSION && status.schemaVersion() <= Migrator.LATEST_VERSION
                    ? "; without --schema-version " + target + " a read-write open "
                    + (status.schemaVersion() == Migrator.LATEST_VERSION ? "uses it as it is"
                    : "brings it to " + Migrator.LATEST_VERSION) : "");
        }
        if (status.upToDate()) {
            return "nothing to do: read-write and read-only opens use it as it is" + kept;
        }
        String to = status.schemaVersion() == target ? "records what it has at version " + target
                : "brings it from version " + status.schemaVersion() + " to " + target;
        return "read-write " + to + kept + " in one transaction (" + status.pending().size() + " steps run or recorded;"
                + " an agent of version " + target + " then opens it unchanged); read-only reads it as it is"
                + (target == Migrator.LATEST_VERSION && status.schemaVersion() <= Migrator.KEPT_VERSION
                ? "; --schema-version " + Migrator.KEPT_VERSION + " keeps it at " + Migrator.KEPT_VERSION
                + " for an agent of April 2026" : "");
    }

    private static String pendingByVersion(SchemaStatus status) {
        Map<Integer, Integer> perVersion = new TreeMap<>();
        for (SchemaStatus.ChangeSetState change : status.pending()) {
            perVersion.merge(change.version(), 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        perVersion.forEach((version, steps) -> parts.add("v" + version + " (" + steps + (steps == 1 ? " step)" : " steps)")));
        return String.join(", ", parts);
    }

    private static Map<String, Object> json(SchemaStatus status) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("file", status.file().toAbsolutePath().toString());
        document.put("file_bytes", status.fileBytes());
        document.put("wal_bytes", status.walBytes());
        document.put("schema_version", status.schemaVersion());
        document.put("latest_version", status.latestVersion());
        document.put("up_to_date", status.upToDate());
        document.put("newer_than_latest", status.newerThanLatest());
        document.put("read_write_open", status.newerThanLatest() ? "refused" : status.upToDate() ? "unchanged" : "migrates");
        document.put("journal_mode", status.journalMode());
        document.put("sessions", status.sessions());
        document.put("messages", status.messages());
        document.put("applied", steps(status.applied()));
        document.put("pending", steps(status.pending()));
        return document;
    }

    private static List<Map<String, Object>> steps(List<SchemaStatus.ChangeSetState> changes) {
        List<Map<String, Object>> steps = new ArrayList<>();
        for (SchemaStatus.ChangeSetState change : changes) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("id", change.id());
            step.put("version", change.version());
            step.put("state", change.state().name().toLowerCase(java.util.Locale.ROOT));
            steps.add(step);
        }
        return steps;
    }
}
