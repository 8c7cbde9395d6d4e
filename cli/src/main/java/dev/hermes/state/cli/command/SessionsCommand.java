package dev.hermes.state.cli.command;

import dev.hermes.state.core.model.SchemaRules;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.cli.json.Json;
import dev.hermes.state.cli.export.HtmlExport;
import dev.hermes.state.cli.export.MarkdownExport;
import dev.hermes.state.cli.export.Redaction;
import dev.hermes.state.cli.text.ProgressBar;
import dev.hermes.state.cli.text.Terminal;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.cli.view.LineageView;
import dev.hermes.state.cli.view.SessionListView;
import dev.hermes.state.cli.view.SessionView;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.RewindResult;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.model.SelectionOutcome;
import dev.hermes.state.core.model.SessionSelection;
import dev.hermes.state.sqlite.SqliteFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.Objects;

import static dev.hermes.state.db.Tables.SESSIONS;
import org.jspecify.annotations.Nullable;

/** {@code sessions list|show|lineage|rename|rewind|restore|archive|unarchive|end|delete|prune|export}: the store's sessions. */
@Command(mixinStandardHelpOptions = true, name = "sessions", description = "List, show, rename, rewind, restore, archive, end, delete, prune and export sessions.",
        subcommands = CommandLine.HelpCommand.class, synopsisSubcommandLabel = "COMMAND",
        addMethodSubcommands = false) // CommandContext adds them: only the one being run
public final class SessionsCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    /** {@code sessions} alone: its usage, as a usage error. */
    @Override
    public Integer call() {
        CommandLine.usage(this, cli.err());
        return CommandContext.USAGE;
    }

    // ------------------------------------------------------------------ reading

    @Command(mixinStandardHelpOptions = true, name = "list", description = "The sessions, newest first (Hermes' rich listing: preview, last activity, "
            + "compression chains shown as their newest session, archived sessions left out).")
    int list(@Mixin SelectionOptions filters,
             @Option(names = "--exclude-source", paramLabel = "S", description = "Leave out this source (repeatable).")
             List<String> excludeSources,
             @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "At most N rows (default ${DEFAULT-VALUE}).") int limit,
             @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip N rows.") int offset,
             @Option(names = "--children", description = "Include child sessions (delegates, branches, continuations).")
             boolean children,
             @Option(names = "--archived", description = "Only the archived sessions (schema 17: hidden from the listing"
                     + " by 'sessions archive' or the agent).") boolean archived,
             @Option(names = "--all", description = "Every session: child sessions and archived ones too.") boolean all,
             @Option(names = "--no-tips", description = "Show compression chains by their first session, not their newest.")
             boolean noTips) {
        SessionSelection selection = filters.selection(false);
        ListSessionsQuery query = ListSessionsQuery.builder()
                .source(filters.source)
                .selection(selection.hasFilter() ? selection : null)
                .excludeSources(excludeSources)
                .limit(limit)
                .offset(offset)
                .includeChildren(children || all)
                .includeArchived(all || filters.includeArchived)
                .archivedOnly(archived)
                .projectCompressionTips(!noTips)
                .build();
        List<RichSession> rows;
        try (StateRepository store = cli.openExisting()) {
            rows = store.listSessionsRich(query);
        }
        if (cli.json()) {
            cli.printJson(HermesShapes.richRows(rows));
            return CommandContext.OK;
        }
        SessionListView.render(rows, cli.times()).forEach(cli.out()::println);
        if (limit > 0 && rows.size() == limit) {
            cli.out().println();
            cli.out().println("Showing " + (offset + 1) + "-" + (offset + rows.size()) + ". Next page: --offset " + (offset + limit)
                    + (all ? "" : "   Child and archived sessions too: --all"));
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "show", description = "One session with its messages (the live"
            + " transcript: turns a rewind or a compaction hid are left out unless --hidden).")
    int show(@Parameters(paramLabel = "ID-OR-PREFIX-OR-TITLE", description = "A session id, a unique id prefix, or a title.")
             String reference,
             @Option(names = "--full", description = "Print long messages whole (default: the first "
                     + SessionView.DEFAULT_MAX_CHARS + " characters).") boolean full,
             @Option(names = "--hidden", description = "Also the turns a rewind hid or a compaction summarised away,"
                     + " each marked [rewound] or [compacted].") boolean hidden) {
        SessionExport export;
        boolean v17;
        try (StateRepository store = cli.openExisting()) {
            String id = SessionRefs.byIdOrTitle(store, reference);
            export = store.exportSession(id)
                    .orElseThrow(() -> new InvalidArgumentException("Session " + id + " was deleted meanwhile"));
            if (hidden) {
                export = new SessionExport(export.session(), store.getMessages(id, true));
            }
            v17 = store.schemaRules() == SchemaRules.V17;
        }
        if (cli.json()) {
            cli.printJson(HermesShapes.export(export, v17));
            return CommandContext.OK;
        }
        SessionView.render(export.session(), export.messages(), cli.times(), cli.highlighter(),
                full ? Integer.MAX_VALUE : SessionView.DEFAULT_MAX_CHARS).forEach(cli.out()::println);
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "lineage", description = "The tree the session belongs to, root first: compression continuations, "
            + "delegates and branches.")
    int lineage(@Parameters(paramLabel = "ID", description = "A session id, a unique id prefix, or a title.") String reference) {
        String id;
        String rootId;
        String tipId;
        List<LineageNode> tree;
        try (StateRepository store = cli.openExisting()) {
            id = SessionRefs.byIdOrTitle(store, reference);
            rootId = SessionRefs.rootOf(store, id);
            tree = store.getLineageTree(rootId);
            tipId = store.getCompressionTip(rootId);
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("root_id", rootId);
            document.put("compression_tip_id", tipId);
            document.put("sessions", HermesShapes.lineage(tree));
            cli.printJson(document);
            return CommandContext.OK;
        }
        LineageView.render(tree, id, tipId, cli.times(), cli.highlighter()).forEach(cli.out()::println);
        return CommandContext.OK;
    }

    // ------------------------------------------------------------------ changing

    @Command(mixinStandardHelpOptions = true, name = "rename", description = "Set a session's title (an empty TITLE clears it). Titles are unique.")
    int rename(@Parameters(index = "0", paramLabel = "ID", description = "A session id or unique id prefix.") String reference,
               @Parameters(index = "1", paramLabel = "TITLE") String title) {
        String id;
        String previous;
        String current;
        try (StateRepository store = cli.openForChange("sessions rename")) {
            id = SessionRefs.byId(store, reference);
            previous = store.getSessionTitle(id).orElse(null);
            store.setSessionTitle(id, title);
            current = store.getSessionTitle(id).orElse(null);
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("title", current);
            document.put("previous_title", previous);
            cli.printJson(document);
        } else if (current == null) {
            cli.out().println("Cleared the title of " + id + (previous == null ? "" : " (was '" + previous + "')"));
        } else {
            cli.out().println("Renamed " + id + ": " + (previous == null ? "(untitled)" : "'" + previous + "'") + " → '" + current + "'");
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "end", description = "End a live session with a reason (compression, cli_close, session_reset, ...). "
            + "An already ended session keeps its first end.")
    int end(@Parameters(index = "0", paramLabel = "ID", description = "A session id or unique id prefix.") String reference,
            @Parameters(index = "1", paramLabel = "REASON") String reason) {
        String id;
        boolean ended;
        Session session;
        try (StateRepository store = cli.openForChange("sessions end")) {
            id = SessionRefs.byId(store, reference);
            ended = store.endSession(id, reason);
            session = store.getSession(id).orElseThrow(() -> new InvalidArgumentException("Session " + id + " was deleted meanwhile"));
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("ended", ended);
            document.put("ended_at", session.endedAt());
            document.put("end_reason", session.endReason());
            cli.printJson(document);
        } else if (ended) {
            cli.out().println("Ended " + id + " (" + session.endReason() + ")");
        } else {
            cli.out().println(id + " was already ended " + cli.times().both(session.endedAt()) + " ("
                    + session.endReason() + "); left unchanged");
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "rewind", description = "Rewind a session to before one of its user"
            + " messages: that message and every later one are hidden from the transcript (kept in the file, shown by"
            + " 'sessions show --hidden'), as the agent's /undo does. Schema 17.")
    int rewind(@Parameters(index = "0", paramLabel = "ID", description = "A session id or unique id prefix.") String reference,
               @Parameters(index = "1", paramLabel = "MESSAGE-ID", description = "The id of the user message to rewind to.")
               long messageId) {
        String id;
        RewindResult result;
        try (StateRepository store = cli.openForChange("sessions rewind")) {
            id = SessionRefs.byId(store, reference);
            result = store.rewindToMessage(id, messageId);
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("rewound_count", result.rewoundCount());
            document.put("new_head_id", result.newHeadId());
            cli.printJson(document);
        } else {
            cli.out().println("Rewound " + id + " to before message " + messageId + ": " + result.rewoundCount()
                    + (result.rewoundCount() == 1 ? " message" : " messages") + " hidden"
                    + (result.newHeadId() == null ? ", none left live" : ", the last live one is " + result.newHeadId())
                    + ". Undo: hermes-state sessions restore " + id + " " + messageId);
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "restore", description = "Make the turns a rewind hid live again,"
            + " from MESSAGE-ID on. Schema 17.")
    int restore(@Parameters(index = "0", paramLabel = "ID", description = "A session id or unique id prefix.") String reference,
                @Parameters(index = "1", paramLabel = "MESSAGE-ID", description = "The first message id to restore.")
                long sinceMessageId) {
        String id;
        int restored;
        try (StateRepository store = cli.openForChange("sessions restore")) {
            id = SessionRefs.byId(store, reference);
            restored = store.restoreRewound(id, sinceMessageId);
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("restored", restored);
            cli.printJson(document);
        } else {
            cli.out().println("Restored " + restored + (restored == 1 ? " message" : " messages") + " of " + id);
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "archive", description = "Hide a session from 'sessions list'"
            + " (its messages stay; 'list --archived' shows it), with the rest of its compression chain, as the"
            + " agent's archive does; or, without ID, every compression chain whose sessions all match the filters."
            + " Schema 17.")
    int archive(@Parameters(paramLabel = "ID", arity = "0..1", description = "A session id or unique id prefix.") String reference,
                @Mixin SelectionOptions filters,
                @Option(names = "--dry-run", description = "List what would be archived; change nothing.") boolean dryRun) {
        if (reference == null) {
            return archiveSelected(filters, dryRun);
        }
        if (filters.beyondSource() || filters.source != null || dryRun) {
            throw new InvalidArgumentException("Give either a session ID or filters (with --dry-run), not both");
        }
        return setArchived(reference, true);
    }

    private int archiveSelected(SelectionOptions filters, boolean dryRun) {
        SessionSelection selection = filters.selection(true);
        if (!selection.hasFilter()) {
            throw new InvalidArgumentException("sessions archive needs a session ID or at least one filter"
                    + " (--older-than, --source, --title, ...): archiving every session is not a default");
        }
        SelectionOutcome outcome;
        try (StateRepository store = dryRun ? cli.openExisting() : cli.openForChange("sessions archive")) {
            outcome = store.archiveSessions(selection, dryRun);
        }
        printOutcome(outcome, filters, dryRun ? "would archive" : "archived", "archive");
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "unarchive", description = "List an archived session again, with"
            + " the rest of its compression chain. Schema 17.")
    int unarchive(@Parameters(paramLabel = "ID", description = "A session id or unique id prefix.") String reference) {
        return setArchived(reference, false);
    }

    private int setArchived(String reference, boolean archived) {
        String verb = archived ? "archive" : "unarchive";
        String id;
        boolean changed;
        try (StateRepository store = cli.openForChange("sessions " + verb)) {
            id = SessionRefs.byId(store, reference);
            changed = store.setSessionArchived(id, archived);
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("archived", archived);
            document.put("updated", changed);
            cli.printJson(document);
        } else if (archived) {
            cli.out().println("Archived " + id + ": left out of 'sessions list' (see it with --archived)."
                    + " Undo: hermes-state sessions unarchive " + id);
        } else {
            cli.out().println("Unarchived " + id + ": listed again");
        }
        return CommandContext.OK;
    }

    @Command(mixinStandardHelpOptions = true, name = "delete", description = "Delete a session and its messages; its children become"
            + " roots, except (schema 17) the subagent runs it delegated to, which are deleted with it, as the agent does.")
    int delete(@Parameters(paramLabel = "ID", description = "A session id or unique id prefix.") String reference) {
        String id;
        long messages;
        int children;
        try (StateRepository store = cli.openForChange("sessions delete")) {
            id = SessionRefs.byId(store, reference);
            messages = store.messageCount(id);
            children = store.dsl().fetchCount(SESSIONS, SESSIONS.PARENT_SESSION_ID.eq(id));
            if (!store.deleteSession(id)) {
                throw new InvalidArgumentException("Session " + id + " was deleted meanwhile");
            }
        }
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("session_id", id);
            document.put("deleted", true);
            document.put("messages_deleted", messages);
            document.put("children_orphaned", children);
            cli.printJson(document);
        } else {
            cli.out().println("Deleted " + id + " and its " + messages + (messages == 1 ? " message" : " messages")
                    + (children == 0 ? "" : "; " + children + (children == 1 ? " child session is" : " child sessions are") + " now a root"));
        }
        return CommandContext.OK;
    }

    @SuppressWarnings("try") // the progress bar is open only to be closed when the prune ends
    @Command(mixinStandardHelpOptions = true, name = "prune", description = "Delete the ended sessions the filters select"
            + " (live sessions are never pruned), a compression chain as one unit: all of it, or none when one of its"
            + " sessions is live or not selected. Without any filter: last activity more than 90 days ago, as the agent.")
    int prune(@Mixin SelectionOptions filters,
              @Option(names = "--dry-run", description = "List what would be deleted; delete nothing.") boolean dryRun,
              @Option(names = {"--yes", "-y"}, description = "Do not ask for confirmation (needed without a filter"
                      + " when no terminal is attached).") boolean yes,
              @Option(names = "--vacuum", description = "Afterwards give the freed space back to the file system (VACUUM).")
              boolean vacuum) {
        SessionSelection selection = filters.selection(true);
        if (dryRun) {
            SelectionOutcome plan;
            try (StateRepository store = cli.openExisting()) {
                plan = store.pruneSessions(selection, true);
            }
            printOutcome(plan, filters, "would delete", "prune");
            return CommandContext.OK;
        }
        if (!yes) {
            confirmPrune(selection);
        }
        SelectionOutcome pruned;
        long reclaimed = 0;
        try (StateRepository store = cli.openForChange("sessions prune");
             ProgressBar progress = ProgressBar.spinning(cli.err(), cli.progressWanted(), "pruning")) {
            pruned = store.pruneSessions(selection, false);
            if (vacuum) {
                reclaimed = store.vacuum().bytesReclaimed();
            }
        }
        int count = pruned.sessions().size();
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("dry_run", false);
            document.put("selection", filters.given());
            document.put("older_than_days", olderThanDays(filters));
            document.put("source", filters.source);
            document.put("deleted", count);
            document.put("messages_deleted", pruned.messages());
            document.put("session_ids", pruned.ids());
            document.put("reclaimed_bytes", vacuum ? reclaimed : null);
            cli.printJson(document);
        } else {
            cli.out().println("Pruned " + count + (count == 1 ? " session" : " sessions") + " and " + pruned.messages()
                    + (pruned.messages() == 1 ? " message" : " messages") + " (" + describe(filters, selection) + ")"
                    + (vacuum ? "; reclaimed " + Times.bytes(reclaimed) : ""));
        }
        return CommandContext.OK;
    }

    /**
     * The agent asks before pruning unless {@code --yes}. Asked on a terminal only; a script that gives
     * a filter runs as it always did, but the implicit 90-day default needs {@code --yes} there, so that a
     * bare {@code sessions prune} in a script deletes nothing by accident.
     */
    private void confirmPrune(SessionSelection selection) {
        java.io.Console console = Terminal.interactiveConsole();
        if (console == null) {
            if (!selection.hasFilter()) {
                throw new InvalidArgumentException("sessions prune without a filter deletes every ended session inactive"
                        + " for 90 days: confirm with --yes, or see them first with --dry-run");
            }
            return;
        }
        String answer = console.readLine("Delete the ended sessions selected (%s)? [y/N] ",
                selection.hasFilter() ? "see --dry-run for the list" : "last activity over 90 days ago");
        if (answer == null || !(answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"))) {
            throw new InvalidArgumentException("Cancelled; nothing was deleted");
        }
    }

    private static @org.jspecify.annotations.Nullable Double olderThanDays(SelectionOptions filters) {
        java.time.Duration age = SelectionOptions.age(filters.olderThan, "--older-than");
        return age == null ? null : age.toNanos() / 86_400e9;
    }

    /** The selection in words, for the summary line. */
    private static String describe(SelectionOptions filters, SessionSelection selection) {
        Map<String, Object> given = filters.given();
        if (given.isEmpty() || (!selection.hasFilter() && given.keySet().equals(java.util.Set.of("include_archived")))) {
            return "default: last activity more than 90 days ago" + (filters.includeArchived ? ", archived too" : "");
        }
        StringBuilder words = new StringBuilder();
        given.forEach((flag, value) -> words.append(words.isEmpty() ? "" : ", ").append(flag.replace('_', '-'))
                .append(value instanceof Boolean ? "" : " " + value));
        return words.toString();
    }

    private void printOutcome(SelectionOutcome outcome, SelectionOptions filters, String verb, String operation) {
        SessionSelection selection = filters.selection(true);
        if (cli.json()) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("dry_run", outcome.dryRun());
            document.put("selection", filters.given());
            if (operation.equals("prune")) {
                document.put("older_than_days", olderThanDays(filters));
                document.put("source", filters.source);
                document.put("would_delete", outcome.sessions().size());
            } else {
                document.put(outcome.dryRun() ? "would_archive" : "archived", outcome.sessions().size());
            }
            document.put("messages", outcome.messages());
            document.put("sessions", HermesShapes.sessions(outcome.sessions()));
            cli.printJson(document);
            return;
        }
        Times times = cli.times();
        Table table = Table.withHeaders("ID", "TITLE", "SOURCE", "MSGS", "STARTED", "ENDED").alignRight(3).maxWidth(1, 30);
        for (Session session : outcome.sessions()) {
            table.row(session.id(), session.title() == null ? "-" : session.title(), session.source(),
                    session.messageCount(), times.absolute(session.startedAt()),
                    session.endedAt() == null ? "live"
                            : times.relative(session.endedAt()) + (session.endReason() == null ? "" : " (" + session.endReason() + ")"));
        }
        cli.out().println("Selection: " + describe(filters, selection));
        if (!table.isEmpty()) {
            table.lines().forEach(cli.out()::println);
            cli.out().println();
        }
        int count = outcome.sessions().size();
        String summary = verb + " " + count + (count == 1 ? " session" : " sessions") + " and " + outcome.messages()
                + (outcome.messages() == 1 ? " message" : " messages");
        cli.out().println(outcome.dryRun()
                ? "Dry run: " + summary + "; nothing was changed."
                : Character.toUpperCase(summary.charAt(0)) + summary.substring(1) + ".");
    }

    // ------------------------------------------------------------------ export

    /** The export formats. */
    enum ExportFormat { jsonl, md, html }

    @Command(mixinStandardHelpOptions = true, name = "export", description = "Export sessions with their messages:"
            + " JSON lines (one session per line, the default), Markdown (a file per session and SHA256SUMS, into"
            + " --out DIR) or one self-contained HTML page; streaming: memory stays flat whatever the size."
            + " Without filters every session (archived ones too); with a filter other than --source the selection,"
            + " archived sessions only with --include-archived.")
    int export(@Parameters(paramLabel = "ID", arity = "0..1", description = "Only this session (id, unique prefix or title).")
               String reference,
               @Mixin SelectionOptions filters,
               @Option(names = "--out", paramLabel = "FILE|DIR", description = "Write to FILE (created owner-only) instead"
                       + " of stdout; for md, the folder to create.") Path outFile,
               @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl",
                       description = "jsonl, md or html (default ${DEFAULT-VALUE}).") ExportFormat format,
               @Option(names = "--redact", description = "Mask secrets (API keys, tokens, bearer headers, private keys,"
                       + " passwords in URLs) in every string.") boolean redact,
               @Option(names = "--dry-run", description = "List the sessions that would be exported; write nothing.")
               boolean dryRun) {
        boolean selecting = filters.beyondSource();
        if (reference != null && (filters.source != null || selecting)) {
            throw new InvalidArgumentException("Give either a session ID or " + (selecting ? "filters" : "--source") + ", not both");
        }
        if (outFile != null && SqliteFile.isPartOf(outFile, cli.dbPath())) {
            throw new InvalidArgumentException("--out " + outFile + " is the database itself (or its -wal, -shm or -journal);"
                    + " writing the export there would destroy it. Choose another file.");
        }
        if (format == ExportFormat.md && outFile == null && !dryRun) {
            throw new InvalidArgumentException("--format md writes a folder: give it with --out DIR");
        }
        SessionSelection selection = selecting ? filters.selection(true) : null;
        if (dryRun) {
            List<Session> chosen;
            try (StateRepository store = cli.openExisting()) {
                chosen = reference != null ? List.of(store.getSession(SessionRefs.byIdOrTitle(store, reference)).orElseThrow())
                        : store.selectSessions(selection != null ? selection
                        : SessionSelection.builder().source(filters.source).includeArchived(true).build());
            }
            long messages = chosen.stream().mapToLong(Session::messageCount).sum();
            printOutcome(new SelectionOutcome(true, chosen, messages), filters, "would export", "export");
            return CommandContext.OK;
        }
        long[] written = new long[2];
        try (StateRepository store = cli.openExisting()) {
            boolean v17 = store.schemaRules() == SchemaRules.V17;
            java.util.function.Function<SessionExport, Map<String, Object>> shape = export -> {
                Map<String, Object> row = HermesShapes.export(export, v17);
                return redact ? Redaction.session(row) : row;
            };
            if (format == ExportFormat.md) {
                try (MarkdownExport md = new MarkdownExport(outFile)) {
                    stream(store, reference, filters.source, selection, export -> {
                        md.write(shape.apply(export));
                        count(export, written);
                    });
                }
            } else {
                try (OutputStream target = outFile == null ? new NonClosing(cli.out()) : createPrivate(outFile)) {
                    if (format == ExportFormat.html) {
                        try (HtmlExport html = new HtmlExport(target, "Hermes sessions")) {
                            stream(store, reference, filters.source, selection, export -> {
                                html.write(shape.apply(export));
                                count(export, written);
                            });
                        }
                    } else {
                        try (JsonGenerator json = Json.generator(target)) {
                            stream(store, reference, filters.source, selection, export -> {
                                writeLine(json, shape.apply(export));
                                count(export, written);
                            });
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new StateIOException("Cannot write the export" + (outFile == null ? "" : " to " + outFile) + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            IOException cause = Objects.requireNonNull(e.getCause()); // its constructors require one
            throw new StateIOException("Cannot write the export" + (outFile == null ? "" : " to " + outFile) + ": "
                    + cause.getMessage(), cause);
        } catch (OutputClosed closed) {
            return CommandContext.OK;
        }
        if (outFile != null) {
            if (cli.json()) {
                Map<String, Object> document = new LinkedHashMap<>();
                document.put(format == ExportFormat.md ? "folder" : "file", outFile.toAbsolutePath().toString());
                document.put("format", format.name());
                document.put("redacted", redact);
                document.put("sessions", written[0]);
                document.put("messages", written[1]);
                cli.printJson(document);
            } else {
                cli.out().println("Exported " + written[0] + (written[0] == 1 ? " session" : " sessions") + " ("
                        + written[1] + (written[1] == 1 ? " message" : " messages") + ") to " + outFile
                        + (format == ExportFormat.jsonl ? "" : " as " + format) + (redact ? ", secrets masked" : ""));
            }
        }
        return CommandContext.OK;
    }

    /** One session (by reference), every session of a source, or a selection, each handed to {@code sink}. */
    private void stream(StateRepository store, @Nullable String reference, @Nullable String source,
                        @Nullable SessionSelection selection,
                        java.util.function.Consumer<SessionExport> sink) {
        if (reference != null) {
            String id = SessionRefs.byIdOrTitle(store, reference);
            sink.accept(store.exportSession(id)
                    .orElseThrow(() -> new InvalidArgumentException("Session " + id + " was deleted meanwhile")));
            return;
        }
        long total = selection == null ? store.sessionCount(source) : 0;
        try (ProgressBar progress = selection == null
                ? ProgressBar.counting(cli.err(), cli.progressWanted(), "exporting", total)
                : ProgressBar.spinning(cli.err(), cli.progressWanted(), "exporting")) {
            java.util.function.Consumer<SessionExport> each = export -> {
                sink.accept(export);
                progress.advance(1);
                if (cli.out().checkError()) {
                    throw new OutputClosed();
                }
            };
            if (selection == null) {
                store.exportAll(source, each);
            } else {
                store.exportSessions(selection, each);
            }
        } catch (RuntimeException failure) {
            if (cli.out().checkError()) {
                throw new OutputClosed();
            }
            throw failure;
        }
    }

    private static void count(SessionExport export, long[] written) {
        written[0]++;
        written[1] += export.messages().size();
    }

    private static void writeLine(JsonGenerator json, Map<String, Object> row) {
        try {
            Json.write(json, row);
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new export file is owner-only: it holds private conversations. */
    private static OutputStream createPrivate(Path file) throws IOException {
        try {
            return Channels.newOutputStream(Files.newByteChannel(file,
                    EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))));
        } catch (UnsupportedOperationException notPosix) {
            return Files.newOutputStream(file);
        }
    }

    /** Stdout must stay open for the rest of the run. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(PrintStream out) {
            super(out);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** The reader of stdout went away (e.g. {@code | head}): stop quietly, like other command-line tools. */
    private static final class OutputClosed extends RuntimeException {
        OutputClosed() {
            super("output closed", null, false, false);
        }
    }
}
