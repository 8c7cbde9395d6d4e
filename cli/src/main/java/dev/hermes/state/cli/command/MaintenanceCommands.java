package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.maintenance.StoreDoctor;
import dev.hermes.state.core.maintenance.StoreRecovery;
import dev.hermes.state.core.model.DoctorReport;
import dev.hermes.state.core.model.Finding;
import dev.hermes.state.core.model.RecoveryReport;
import dev.hermes.state.core.model.RepairReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code doctor}, {@code repair} and {@code recover}: operating a store in trouble. Their exit codes go
 * past the common ones (0 success, 1 a user error, 2 bad usage): {@code doctor} exits 3 when it found
 * warnings only and 4 when it found an error, so that a script tells a sick store from a failed run.
 */
public final class MaintenanceCommands {
    /** doctor: warnings found (no error). */
    public static final int WARNINGS = 3;
    /** doctor: at least one error found. */
    public static final int ERRORS = 4;

    private MaintenanceCommands() {
    }

    @Command(mixinStandardHelpOptions = true, name = "doctor", description = {
            "Checks the store and reports, changing nothing: SQLite's integrity check, each full-text index, the "
                    + "full-text triggers and the objects the file's version requires, the sessions' counters against "
                    + "their rows, orphaned messages, parents that do not exist and cycles, a -wal that belongs to "
                    + "another database, the log's size and the free pages. On PostgreSQL: the search columns against "
                    + "the text, the CJK index, counters, orphans and cycles.",
            "Each finding names what it concerns and the command that mends it. With --json: one JSON document "
                    + "{store, schema_version, worst, findings: [{severity, code, subject, detail, remedy}]}.",
            "Exit codes: 0 all fine, 3 warnings only, 4 errors found, 1 the check could not run, 2 bad usage."})
    public static final class Doctor implements Callable<Integer> {
        @ParentCommand
        private CommandContext cli;

        @Override
        public Integer call() {
            DoctorReport report = doctor(cli).check();
            if (cli.json()) {
                cli.printJson(json(report));
            } else {
                print(cli, report, true);
            }
            return exitCode(report);
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "repair", description = {
            "Mends what doctor finds that can be mended without losing data: rebuilds the full-text indexes from the "
                    + "messages, recounts the counters, creates missing triggers and indexes as the file's version "
                    + "defines them, rebuilds damaged indexes, gives orphaned messages their session back and clears "
                    + "parent links to nowhere and cycles. Never deletes a message.",
            "A SQLite file is first copied beside itself (state.db.bak-<UTC time>, owner-only), under the write lock "
                    + "repair then holds; it refuses while another process holds that lock, and refuses a file whose "
                    + "b-trees are damaged (use recover). Exit codes: 0 nothing left to mend, 3 problems remain that "
                    + "repair cannot mend, 1 refused or failed (nothing changed)."})
    public static final class Repair implements Callable<Integer> {
        @ParentCommand
        private CommandContext cli;

        @Option(names = "--dry-run", description = "Say what would be done; change nothing.")
        private boolean dryRun;

        @Override
        public Integer call() {
            cli.refuseReadOnly("repair");
            RepairReport report = doctor(cli).repair(dryRun);
            if (cli.json()) {
                Map<String, Object> document = new LinkedHashMap<>();
                document.put("store", report.store());
                document.put("dry_run", report.dryRun());
                document.put("backup", report.backup());
                document.put("actions", report.actions());
                document.put("remaining", findings(report.remaining()));
                cli.printJson(document);
            } else {
                if (report.actions().isEmpty()) {
                    cli.out().println("Nothing to repair in " + report.store() + ".");
                }
                for (String action : report.actions()) {
                    cli.out().println((report.dryRun() ? "would " : "done: ") + action);
                }
                if (report.backup() != null) {
                    cli.out().println("backup: " + report.backup());
                }
                if (!report.dryRun() && !report.remaining().isEmpty()) {
                    cli.out().println("Left for another remedy:");
                    report.remaining().forEach(f -> cli.out().println(line(f)));
                }
            }
            return report.dryRun() || report.remaining().isEmpty() ? CommandContext.OK : WARNINGS;
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "recover", description = {
            "Salvages a damaged SQLite file into a new store: every row that can still be read (damaged pages cost "
                    + "their own rows only), sessions before messages, messages whose session was lost under one "
                    + "placeholder session, counters recounted and the full-text index filled; the new store is then "
                    + "checked by doctor. The damaged file is opened read-only and never written.",
            "The report says per table how many rows were recovered, how many the source's counters and "
                    + "AUTOINCREMENT counter say it had, and which rowid ranges were lost. SQLite files only (a "
                    + "PostgreSQL server guards its own pages). The new store is at version 6 for a source at 6 or "
                    + "below, else 17. Exit codes: 0 salvaged and the new store is sound, 3 rows were lost, 4 the "
                    + "new store fails a check, 1 refused."})
    public static final class Recover implements Callable<Integer> {
        @ParentCommand
        private CommandContext cli;

        @Option(names = "--from", paramLabel = "BAD", required = true, description = "The damaged file (never written).")
        private Path from;

        @Option(names = "--to", paramLabel = "NEW", required = true, description = "The new store's file (must not exist).")
        private Path to;

        @Option(names = "--inspect-only", description = "Report what would be salvaged; write nothing.")
        private boolean inspectOnly;

        @Override
        public Integer call() {
            if (from.toString().contains("://")) {
                throw new InvalidArgumentException("recover salvages SQLite files only; --from names a server");
            }
            RecoveryReport report = StoreRecovery.recover(from, to, inspectOnly);
            if (cli.json()) {
                cli.printJson(json(report));
            } else {
                print(report);
            }
            if (report.check() != null && report.check().worst() == Finding.Severity.ERROR) {
                return ERRORS;
            }
            return report.anyUnreadable() ? WARNINGS : CommandContext.OK;
        }

        private void print(RecoveryReport report) {
            cli.out().println((report.inspectOnly() ? "Would recover " : "Recovered ") + report.source() + " into "
                    + report.target() + " (schema version " + report.targetVersion() + "):");
            cli.out().println("  sessions: " + report.sessions().recovered() + " read"
                    + lost(report.sessions().lostRanges()));
            cli.out().println("  messages: " + report.messages().recovered() + " read of " + report.messages().expected()
                    + " counted by the sessions (highest id ever " + report.messages().highestId() + ")"
                    + lost(report.messages().lostRanges()));
            for (RecoveryReport.TableSalvage table : report.otherTables()) {
                cli.out().println("  " + table.table() + ": " + table.recovered() + " read"
                        + (table.dropped() == 0 ? "" : ", " + table.dropped() + " dropped (their session or message was lost)")
                        + (table.stoppedAtDamage() ? ", the rest unreadable (no rowid to walk past the damage)"
                        : lost(table.lostRanges())));
            }
            if (report.placeholder() != null) {
                cli.out().println("  " + report.orphanMessages() + " messages whose session was lost are under session "
                        + report.placeholder());
            }
            if (!report.parentsDropped().isEmpty()) {
                cli.out().println("  parent link cleared (parent lost, or a cycle): " + String.join(", ", report.parentsDropped()));
            }
            for (RecoveryReport.SessionShortfall shortfall : report.sessionsShort()) {
                cli.out().println("  session " + shortfall.sessionId() + ": " + shortfall.recovered() + " of "
                        + shortfall.counted() + " messages");
            }
            if (report.check() != null) {
                cli.out().println("Check of the new store: " + (report.check().problems().isEmpty() ? "sound"
                        : report.check().problems().size() + " problems"));
                report.check().problems().forEach(f -> cli.out().println(line(f)));
            }
        }
    }

    private static StoreDoctor doctor(CommandContext cli) {
        return cli.dbIsUrl() ? StoreDoctor.forServer(cli.location().server())
                : StoreDoctor.forFile(CommandContext.requireExisting(cli.dbPath()));
    }

    static int exitCode(DoctorReport report) {
        return switch (report.worst()) {
            case OK -> CommandContext.OK;
            case WARNING -> WARNINGS;
            case ERROR -> ERRORS;
        };
    }

    static void print(CommandContext cli, DoctorReport report, boolean all) {
        cli.out().println(report.store() + " (schema version " + report.schemaVersion() + ")");
        for (Finding finding : report.findings()) {
            if (all || finding.isProblem()) {
                cli.out().println(line(finding));
            }
        }
        List<Finding> problems = report.problems();
        long errors = problems.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
        cli.out().println(problems.isEmpty() ? "All checks passed." : errors + " errors, " + (problems.size() - errors)
                + " warnings.");
    }

    private static String line(Finding finding) {
        String mark = switch (finding.severity()) {
            case OK -> "  ok     ";
            case WARNING -> "  WARN   ";
            case ERROR -> "  ERROR  ";
        };
        return mark + finding.code() + "  " + finding.subject() + ": " + finding.detail()
                + (finding.remedy() == null ? "" : "\n           mend: " + finding.remedy());
    }

    private static String lost(List<RecoveryReport.RowidRange> ranges) {
        if (ranges.isEmpty()) {
            return ", none lost";
        }
        List<String> shown = new ArrayList<>();
        for (RecoveryReport.RowidRange range : ranges) {
            shown.add(range.first() == range.last() ? "" + range.first()
                    : range.first() + "-" + (range.last() == Long.MAX_VALUE ? "end" : "" + range.last()));
        }
        return ", unreadable rowids " + String.join(", ", shown);
    }

    static Map<String, Object> json(DoctorReport report) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("store", report.store());
        document.put("schema_version", report.schemaVersion());
        document.put("worst", report.worst().name().toLowerCase(Locale.ROOT));
        document.put("findings", findings(report.findings()));
        return document;
    }

    private static List<Map<String, Object>> findings(List<Finding> findings) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Finding finding : findings) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("severity", finding.severity().name().toLowerCase(Locale.ROOT));
            item.put("code", finding.code());
            item.put("subject", finding.subject());
            item.put("detail", finding.detail());
            item.put("remedy", finding.remedy());
            list.add(item);
        }
        return list;
    }

    private static Map<String, Object> json(RecoveryReport report) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("source", report.source());
        document.put("target", report.target());
        document.put("inspect_only", report.inspectOnly());
        document.put("target_version", report.targetVersion());
        document.put("sessions", account(report.sessions()));
        document.put("messages", account(report.messages()));
        List<Map<String, Object>> others = new ArrayList<>();
        for (RecoveryReport.TableSalvage table : report.otherTables()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("table", table.table());
            item.put("recovered", table.recovered());
            item.put("dropped", table.dropped());
            item.put("lost_rowid_ranges", table.lostRanges().stream().map(r -> List.of(r.first(), r.last())).toList());
            item.put("stopped_at_damage", table.stoppedAtDamage());
            others.add(item);
        }
        document.put("other_tables", others);
        document.put("placeholder_session", report.placeholder());
        document.put("orphan_messages", report.orphanMessages());
        document.put("parents_cleared", report.parentsDropped());
        List<Map<String, Object>> shortfalls = new ArrayList<>();
        for (RecoveryReport.SessionShortfall shortfall : report.sessionsShort()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("session_id", shortfall.sessionId());
            item.put("counted", shortfall.counted());
            item.put("recovered", shortfall.recovered());
            shortfalls.add(item);
        }
        document.put("sessions_short", shortfalls);
        document.put("check", report.check() == null ? null : json(report.check()));
        return document;
    }

    private static Map<String, Object> account(RecoveryReport.TableAccount account) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("recovered", account.recovered());
        document.put("expected", account.expected());
        document.put("highest_id", account.highestId());
        List<List<Long>> ranges = new ArrayList<>();
        for (RecoveryReport.RowidRange range : account.lostRanges()) {
            ranges.add(List.of(range.first(), range.last()));
        }
        document.put("lost_rowid_ranges", ranges);
        return document;
    }
}
