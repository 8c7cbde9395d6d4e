package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.BackupReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code backup --to PATH [--incremental [--verify changed|full]]}: a verified backup of the --db file through
 * {@link StateRepository#backupTo}, safe while the agent writes. The store is opened read-only: a
 * backup never migrates or otherwise changes what it backs up.
 */
@Command(mixinStandardHelpOptions = true, name = "backup", description = {
        "Back up the store (the --db file) while the agent keeps writing: one consistent snapshot of it is copied with "
                + "SQLite's online backup (never a byte copy of a live file) into an owner-only file beside PATH, verified "
                + "against that snapshot (integrity check, rows per table, a checksum of every table's rows) and renamed to "
                + "PATH. PATH.manifest.json records the source, the checksum and the counts.",
        "--incremental brings the backup at PATH up to date instead, in one transaction, verified before it commits: new "
                + "and changed sessions, messages added or changed since, sessions and messages deleted since. The result "
                + "has the checksum a fresh full backup would have. It verifies the rows it changed and brings the "
                + "manifest's per-table sums up to date (time in proportion to the change); --verify full also reads both "
                + "stores whole and runs SQLite's integrity checks."})
public final class BackupCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Option(names = "--to", paramLabel = "PATH", required = true, description = "The backup file (its folder must exist).")
    private Path to;

    @Option(names = "--incremental", description = "Bring the earlier backup at PATH (a backup of this store, at its "
            + "schema version) up to date.")
    private boolean incremental;

    @Option(names = "--verify", paramLabel = "MODE", description = "How an incremental backup is verified: 'changed' (the"
            + " default: the rows it changed, read back on both sides, and the checksum brought up to date from the manifest)"
            + " or 'full' (also both stores read whole and SQLite's integrity checks, as a full backup always is).")
    private String verify = "changed";

    @Option(names = "--force", description = "Replace a file already at PATH with a new full backup (refused otherwise).")
    private boolean force;

    @Override
    public Integer call() {
        if (cli.dbIsUrl()) {
            throw new InvalidArgumentException("'backup' backs up a SQLite file; to keep a PostgreSQL store in a SQLite file"
                    + " use 'hermes-state copy --from <url> --to FILE' (verified by counts and checksums), or pg_dump");
        }
        if (!verify.equals("changed") && !verify.equals("full")) {
            throw new InvalidArgumentException("--verify is 'changed' or 'full', not '" + verify + "'");
        }
        if (verify.equals("full") && !incremental) {
            throw new InvalidArgumentException("--verify full is for --incremental: a full backup is always verified in full");
        }
        BackupOptions options = new BackupOptions(incremental, force, verify.equals("full"));
        BackupReport report;
        try (StateRepository store = cli.openReadOnly(CommandContext.requireExisting(cli.dbPath()))) {
            report = store.backupTo(to, options);
        }
        if (cli.json()) {
            cli.printJson(json(report));
        } else {
            print(report);
        }
        return CommandContext.OK;
    }

    private void print(BackupReport report) {
        Table table = Table.withColumns(2);
        table.row(report.incremental() ? "Updated" : "Backup", report.file() + "  (" + Times.bytes(report.bytes()) + ")");
        table.row("Manifest", report.manifest().toString());
        table.row("Rows", report.rows().getOrDefault("sessions", 0L) + " sessions, " + report.rows().getOrDefault("messages", 0L)
                + " messages (" + report.rows().size() + " tables)");
        table.row("Checksum", "sha256 " + report.checksum());
        table.row("Verified", report.verifiedFully() ? "integrity ok, rows and checksum equal to the source's snapshot"
                : "the changed rows equal to the source's, counts and checksum brought up to date (--verify full reads all)");
        table.row("Full text", report.fullText().entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining("; ")));
        BackupReport.Changes changes = report.changes();
        if (changes != null) {
            table.row("Sessions", "+" + changes.sessionsAdded() + " new, " + changes.sessionsUpdated() + " changed, "
                    + changes.sessionsRemoved() + " removed");
            table.row("Messages", "+" + changes.messagesAdded() + " new, " + changes.messagesUpdated() + " changed, "
                    + changes.messagesRemoved() + " removed" + (changes.fullComparison() ? " (changed in place)" : ""));
            table.row("Examined", changes.rowsExamined() + " rows read into the checksums");
        }
        table.row("Took", Times.duration(report.copying()) + (report.incremental() ? " updating, " : " copying, ")
                + Times.duration(report.verifying()) + " verifying");
        table.lines().forEach(cli.out()::println);
    }

    private static Map<String, Object> json(BackupReport report) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("backup", report.file().toString());
        json.put("manifest", report.manifest().toString());
        json.put("incremental", report.incremental());
        json.put("rows", report.rows());
        json.put("checksum", report.checksum());
        json.put("bytes", report.bytes());
        json.put("full_text", report.fullText());
        BackupReport.Changes changes = report.changes();
        if (changes != null) {
            Map<String, Object> changed = new LinkedHashMap<>();
            changed.put("sessions_added", changes.sessionsAdded());
            changed.put("sessions_updated", changes.sessionsUpdated());
            changed.put("sessions_removed", changes.sessionsRemoved());
            changed.put("messages_added", changes.messagesAdded());
            changed.put("messages_updated", changes.messagesUpdated());
            changed.put("messages_removed", changes.messagesRemoved());
            changed.put("full_comparison", changes.fullComparison());
            changed.put("rows_examined", changes.rowsExamined());
            json.put("changes", changed);
        }
        json.put("copy_seconds", report.copying().toNanos() / 1e9);
        json.put("verify_seconds", report.verifying().toNanos() / 1e9);
        return json;
    }
}
