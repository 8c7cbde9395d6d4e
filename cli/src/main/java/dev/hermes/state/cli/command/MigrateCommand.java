package dev.hermes.state.cli.command;

import dev.hermes.state.cli.text.ProgressBar;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.migrations.MigrationResult;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.StoreLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code migrate [--dry-run]}: brings the file to the newest schema version, creating it when missing
 * and adopting a file the Python agent made (steps whose objects exist are recorded, not re-run).
 * The documented migration-only run for CI pipelines.
 */
@Command(mixinStandardHelpOptions = true, name = "migrate", description = {
        "Bring the file to schema version 17 (6 with --schema-version 6), creating it when missing and adopting a file "
                + "the Python agent made (existing columns and indexes are recorded, never re-created). Every row is kept; "
                + "the agent's own data steps run as it runs them (the full-text re-index of 11, the delegate tags of 16).",
        "--dry-run prints the SQL that would run and changes nothing."})
public final class MigrateCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Option(names = "--dry-run", description = "Print the SQL that would run; write nothing.")
    private boolean dryRun;

    @Override
    @SuppressWarnings("try") // the progress bars are open only to be closed when the step ends
    public Integer call() {
        if (!dryRun) {
            cli.refuseReadOnly("migrate");
        }
        Migrator migrator = cli.migrator();
        long start = System.nanoTime();
        MigrationResult result;
        StoreLocation location = cli.location();
        String name = location.toString();
        // the bar names a file by its name alone, a server in full (without its password)
        String shortName = location.isServer() ? name : String.valueOf(location.file().getFileName());
        try (ProgressBar progress = ProgressBar.spinning(cli.err(), cli.progressWanted(),
                (dryRun ? "checking " : "migrating ") + shortName)) {
            result = dryRun ? migrator.dryRun(location) : migrator.migrate(location);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        if (cli.json()) {
            cli.printJson(json(location.isServer() ? name : location.file().toAbsolutePath().toString(), result,
                    migrator.targetVersion()));
        } else {
            print(name, result, took, migrator.targetVersion());
        }
        return CommandContext.OK;
    }

    private void print(String file, MigrationResult result, Duration took, int targetVersion) {
        var out = cli.out();
        if (result.dryRun() && !result.fastPath()) {
            for (MigrationResult.AppliedChange change : result.changes()) {
                if (change.executed()) {
                    out.println("-- v" + change.version() + " " + change.id());
                    out.println(change.sql().strip() + (change.sql().strip().endsWith(";") ? "" : ";"));
                } else {
                    out.println("-- v" + change.version() + " " + change.id() + ": already present, would only be recorded");
                }
            }
            out.println();
        }
        out.println(summary(file, result, targetVersion) + " [" + Times.duration(took) + "]");
    }

    /** One sentence saying what happened to the file. */
    static String summary(String file, MigrationResult result, int targetVersion) {
        if (result.fastPath()) {
            return file + ": already up to date at schema version " + result.toVersion() + "; nothing to do";
        }
        int target = result.dryRun() ? targetVersion : result.toVersion();
        String what;
        if (result.created()) {
            what = (result.dryRun() ? "would be created" : "created") + " at schema version " + target;
        } else if (result.fromVersion() == target && result.executed().isEmpty()) {
            what = (result.dryRun() ? "would be adopted" : "adopted") + " at schema version " + target;
        } else {
            what = (result.dryRun() ? "would go" : "migrated") + " from schema version " + result.fromVersion() + " to " + target;
        }
        return file + ": " + (result.dryRun() ? "dry run, nothing written; " : "") + what + " ("
                + result.executed().size() + " steps " + (result.dryRun() ? "to run" : "run") + ", "
                + result.adopted().size() + " already present)";
    }

    private static Map<String, Object> json(String file, MigrationResult result, int targetVersion) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("file", file);
        document.put("from_version", result.fromVersion());
        document.put("to_version", result.dryRun() && !result.fastPath() ? targetVersion : result.toVersion());
        document.put("created", result.created());
        document.put("up_to_date", result.fastPath());
        document.put("dry_run", result.dryRun());
        List<Map<String, Object>> changes = new ArrayList<>();
        for (MigrationResult.AppliedChange change : result.changes()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", change.id());
            item.put("version", change.version());
            item.put("executed", change.executed());
            item.put("sql", change.sql());
            changes.add(item);
        }
        document.put("changes", changes);
        return document;
    }
}
