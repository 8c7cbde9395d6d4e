package dev.hermes.state.cli.command;

import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.cli.text.ProgressBar;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.CopyProgress;
import dev.hermes.state.core.model.CopyReport;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.StoreLocation;
import dev.hermes.state.postgresql.PostgresLocation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import org.jspecify.annotations.Nullable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code copy --from SRC --to DST}: a whole store into another, SQLite file or PostgreSQL schema either
 * way, through {@link StateRepository#copyTo} (which checks, copies, and verifies); this command opens
 * the two stores, draws the progress and prints the verification.
 */
@Command(mixinStandardHelpOptions = true, name = "copy", description = {
        "Copy every session and message of one store into another: a SQLite file or a PostgreSQL database "
                + "(postgresql://user:password@host:port/db or jdbc:postgresql://...), either way. Session and message ids "
                + "are kept, and new messages of the target continue after the largest id the source ever used.",
        "The source is read in one snapshot and checked first: text the target cannot hold unchanged (invalid UTF-8; "
                + "for PostgreSQL a NUL character) is reported with its session and message, and nothing is written. "
                + "Sessions are written whole, a batch per transaction: a copy interrupted at any moment leaves whole "
                + "sessions only; run the same command with --append to resume it.",
        "At the end both sides are read again and their session and message counts and content checksums printed. "
                + "Exit code 1 when they differ (with --append: only when a session this copy wrote differs)."})
public final class CopyCommand implements Callable<Integer> {
    private static final String SOURCE = "source";
    private static final String TARGET = "target";

    @ParentCommand
    private CommandContext cli;

    @Option(names = "--from", paramLabel = "SRC", required = true,
            description = "The source: a state.db file or a PostgreSQL URL. An older file is migrated first, as by every "
                    + "command (--read-only: read as it is).")
    private String from;

    @Option(names = "--to", paramLabel = "DST", required = true,
            description = "The target: a state.db file (created when missing) or a PostgreSQL URL (its schema is created "
                    + "when missing). It must hold no session, unless --append.")
    private String to;

    @Option(names = "--from-schema", paramLabel = "NAME", description = "The source's PostgreSQL schema (overrides the global --schema).")
    private String fromSchema;

    @Option(names = "--to-schema", paramLabel = "NAME", description = "The target's PostgreSQL schema (overrides the global --schema).")
    private String toSchema;

    @Option(names = "--append", description = "Add to a target that holds sessions (and resume an interrupted copy): a "
            + "session the target has is skipped, never overwritten; the messages of a copied session whose ids are taken "
            + "in the target get new ids; a title the target already uses stops the copy.")
    private boolean append;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + CopyOptions.DEFAULT_BATCH_SESSIONS,
            description = "Sessions per write transaction of the target (default ${DEFAULT-VALUE}).")
    private int batch;

    @Override
    public Integer call() {
        if (cli.explicitDbPath() != null) {
            throw new InvalidArgumentException("'copy' takes the stores as --from and --to, not --db");
        }
        CopyOptions options = new CopyOptions(append, batch);
        String source = describe(from, fromSchema);
        String target = describe(to, toSchema);
        CopyReport report;
        Duration took;
        Path newTarget = StoreLocation.isUrl(to) || Files.exists(Path.of(to)) ? null : Path.of(to);
        try (StateRepository sourceStore = open(SOURCE, from, fromSchema, cli.readOnly());
             StateRepository targetStore = open(TARGET, to, toSchema, false);
             Progress progress = new Progress()) {
            long start = System.nanoTime();
            report = sourceStore.copyTo(targetStore, options, progress);
            took = Duration.ofNanos(System.nanoTime() - start);
        } catch (RuntimeException failure) {
            if (newTarget != null) {
                removeIfEmpty(newTarget);
            }
            throw failure;
        }
        if (cli.json()) {
            cli.printJson(json(source, target, report, took));
        } else {
            print(source, target, report, took);
        }
        boolean failed = append ? report.sessionsDiffering() > report.sessionsSkipped() : !report.verified();
        return failed ? CommandContext.USER_ERROR : CommandContext.OK;
    }

    /**
     * A copy refused before it wrote a session leaves no new file behind; a new target that holds
     * sessions is kept, so that an interrupted copy can be resumed with --append.
     */
    private static void removeIfEmpty(Path created) {
        try {
            if (Files.exists(created) && Migrator.create().status(created).sessions() > 0) {
                return;
            }
            for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                Files.deleteIfExists(Path.of(created + suffix));
            }
        } catch (java.io.IOException | HermesStateException cleanupFailed) {
            // the copy's own failure is what the user must see; a file that could not be checked stays
        }
    }

    /** Opens one side; its failure (missing, not a database, too new...) says which side it is. */
    private StateRepository open(String side, String location, String sideSchema, boolean readOnly) {
        try {
            if (StoreLocation.isUrl(location)) {
                return cli.storeBuilder().url(location).schema(schemaFor(sideSchema)).readOnly(readOnly).build();
            }
            Path file = Path.of(location);
            if (SOURCE.equals(side) && !Files.exists(file)) {
                throw new StateIOException("No database file at " + file.toAbsolutePath() + " to copy from");
            }
            return readOnly ? cli.openReadOnly(file) : cli.storeBuilder().path(file).build();
        } catch (SchemaTooNewException tooNew) {
            if (!tooNew.newestKnown()) {
                throw new InvalidArgumentException("The " + side + " " + location + " is at schema version "
                        + tooNew.fileVersion() + ", newer than version " + tooNew.supportedVersion() + ", which"
                        + " --schema-version keeps stores at; it was left unchanged. Copy without --schema-version "
                        + tooNew.supportedVersion());
            }
            throw new InvalidArgumentException("The " + side + " " + location + " is at schema version "
                    + tooNew.fileVersion() + ", newer than version " + tooNew.supportedVersion() + ", the newest this"
                    + " hermes-state knows; it was left unchanged. Upgrade hermes-state to copy "
                    + (SOURCE.equals(side) ? "it" : "into it"));
        } catch (HermesStateException failure) {
            throw new HermesStateException(failure.type(), side + ": " + failure.getMessage(), failure);
        }
    }

    private String schemaFor(String sideSchema) {
        return sideSchema != null ? sideSchema : cli.schema() != null ? cli.schema() : PostgresLocation.DEFAULT_SCHEMA;
    }

    /** A file as given; a URL without its password. */
    private String describe(String location, String sideSchema) {
        return StoreLocation.parse(location, StoreLocation.isUrl(location) ? schemaFor(sideSchema) : null).toString();
    }

    private void print(String source, String target, CopyReport report, Duration took) {
        var out = cli.out();
        out.println("copied " + source + " -> " + target);
        out.printf(Locale.ROOT, "%,d sessions and %,d messages written in %s (%,.0f messages/s)%n", report.sessionsCopied(),
                report.messagesCopied(), Times.duration(took), report.messagesCopied() / Math.max(took.toNanos() / 1e9, 1e-9));
        if (report.sessionsSkipped() > 0) {
            out.printf(Locale.ROOT, "%,d sessions skipped: the target already had them%n", report.sessionsSkipped());
        }
        if (report.sessionsRenumbered() > 0) {
            out.printf(Locale.ROOT, "%,d sessions (%,d messages) got new message ids: theirs were taken in the target%n",
                    report.sessionsRenumbered(), report.messagesRenumbered());
        }
        out.println();
        Table table = Table.withHeaders("", "sessions", "messages", "checksum").alignRight(1, 2);
        table.row("source", String.format(Locale.ROOT, "%,d", report.source().sessions()),
                String.format(Locale.ROOT, "%,d", report.source().messages()), report.source().checksum());
        table.row("target", String.format(Locale.ROOT, "%,d", report.target().sessions()),
                String.format(Locale.ROOT, "%,d", report.target().messages()), report.target().checksum());
        table.lines().forEach(out::println);
        if (report.targetSessions() != report.target().sessions()) {
            out.printf(Locale.ROOT, "(the target holds %,d sessions and %,d messages in all)%n", report.targetSessions(),
                    report.targetMessages());
        }
        out.println();
        if (report.verified()) {
            out.printf(Locale.ROOT, "verified: every session of the source is in the target, identical; new messages get"
                    + " ids after %,d%n", report.targetMessageIdHighWater());
        } else {
            out.printf(Locale.ROOT, "NOT verified: %,d source sessions differ in the target or are missing (%s%s)%n",
                    report.sessionsDiffering(), String.join(", ", report.differingExamples()),
                    report.sessionsDiffering() > report.differingExamples().size() ? ", ..." : "");
            if (append && report.sessionsSkipped() > 0) {
                out.println("(with --append a session the target already had is left as it is, even when it differs)");
            }
        }
    }

    private static Map<String, Object> json(String source, String target, CopyReport report, Duration took) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("from", source);
        json.put("to", target);
        json.put("sessions_copied", report.sessionsCopied());
        json.put("messages_copied", report.messagesCopied());
        json.put("sessions_skipped", report.sessionsSkipped());
        json.put("sessions_renumbered", report.sessionsRenumbered());
        json.put("messages_renumbered", report.messagesRenumbered());
        json.put("source", side(report.source()));
        json.put("target", side(report.target()));
        json.put("target_sessions_total", report.targetSessions());
        json.put("target_messages_total", report.targetMessages());
        json.put("sessions_differing", report.sessionsDiffering());
        json.put("differing_examples", report.differingExamples());
        json.put("source_message_id_high_water", report.sourceMessageIdHighWater());
        json.put("target_message_id_high_water", report.targetMessageIdHighWater());
        json.put("verified", report.verified());
        json.put("seconds", took.toNanos() / 1e9);
        return json;
    }

    private static Map<String, Object> side(CopyReport.Side side) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sessions", side.sessions());
        json.put("messages", side.messages());
        json.put("checksum", side.checksum());
        return json;
    }

    /** One bar per phase on stderr (a terminal only): rows checked, then sessions copied, then sessions verified. */
    private final class Progress implements Consumer<CopyProgress>, AutoCloseable {
        private CopyProgress.@Nullable Phase phase;
        private @Nullable ProgressBar bar;
        private long done;

        @Override
        public void accept(CopyProgress progress) {
            long now = progress.phase() == CopyProgress.Phase.CHECKING ? progress.sessionsDone() + progress.messagesDone()
                    : progress.sessionsDone();
            ProgressBar current = bar;
            if (progress.phase() != phase || current == null) {
                close();
                CopyProgress.Phase started = progress.phase();
                long total = started == CopyProgress.Phase.CHECKING ? progress.sessionsTotal() + progress.messagesTotal()
                        : progress.sessionsTotal();
                current = ProgressBar.counting(cli.err(), cli.progressWanted(), started.name().toLowerCase(Locale.ROOT), total);
                phase = started;
                bar = current;
                done = 0;
            }
            current.advance(now - done);
            done = now;
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
            }
        }
    }
}
