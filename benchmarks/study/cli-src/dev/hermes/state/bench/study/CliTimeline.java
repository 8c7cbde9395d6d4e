package dev.hermes.state.bench.study;

import dev.hermes.state.cli.HermesStateCli;
import dev.hermes.state.cli.command.SessionsCommand;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.cli.view.SessionListView;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.StateRepository;
import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * W8 step by step: what {@code hermes-state --db FILE sessions list} does, in the same order, each step
 * timed in one cold JVM (start it exactly as the launcher starts the jar, with this class's folder appended
 * to the class path so the jar's class-data archive still applies). Steps: JVM start to main; picocli's model
 * of the root and the sessions command plus parsing; StateRepository.open; listSessionsRich (first query:
 * connection, jOOQ rendering, SQLite); rendering the table; close. Usage: CliTimeline DB [warm-jooq]: with
 * warm-jooq, a query of the listing's kind is rendered by jOOQ before the store opens (timed on its own), to
 * show how much of the first list is jOOQ's first rendering.
 */
public final class CliTimeline {
    public static void main(String[] args) throws Exception {
        long main = System.nanoTime();
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        long sinceStartMs = Duration.between(started, Instant.now()).toMillis();
        PrintStream out = new PrintStream(PrintStream.nullOutputStream());
        String[] cli = {"--db", args[0], "sessions", "list"};

        long t0 = System.nanoTime();
        CommandLine commandLine = new CommandLine(new HermesStateCli(System.in, out, out));
        commandLine.addSubcommand("sessions", new SessionsCommand());
        commandLine.parseArgs(cli);
        long t1 = System.nanoTime();
        long warm = 0;
        if (args.length > 1 && args[1].equals("warm-jooq")) {
            long w = System.nanoTime();
            var dsl = org.jooq.impl.DSL.using(org.jooq.SQLDialect.SQLITE);
            var s = dev.hermes.state.db.Tables.SESSIONS;
            dsl.render(dsl.select(s.fields()).from(s).where(s.ID.in(dsl.select(s.ID).from(s)
                    .where(s.PARENT_SESSION_ID.isNull()).orderBy(s.STARTED_AT.desc()).limit(21).offset(0)))
                    .orderBy(s.STARTED_AT.desc(), s.ID.desc()));
            warm = System.nanoTime() - w;
            t1 = System.nanoTime();
        }
        StateRepository store = StateRepository.open(Path.of(args[0]));
        long t2 = System.nanoTime();
        List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.defaults());
        long t3 = System.nanoTime();
        SessionListView.render(rows, Times.system()).forEach(out::println);
        long t4 = System.nanoTime();
        store.close();
        long t5 = System.nanoTime();
        List<RichSession> again;
        try (StateRepository second = StateRepository.open(Path.of(args[0]))) {
            again = second.listSessionsRich(ListSessionsQuery.defaults());
        }
        long t6 = System.nanoTime();
        System.out.printf("process start->main %d ms | picocli model+parse %.0f |%s open %.0f | first list %.0f | view %.0f | close %.0f"
                        + " | (open+list again, warm classes: %.0f) | main->end %.0f ms, rows %d%n",
                sinceStartMs, ms(t1 - t0 - warm), warm > 0 ? String.format(" jOOQ warm-up %.0f |", ms(warm)) : "", ms(t2 - t1), ms(t3 - t2), ms(t4 - t3), ms(t5 - t4), ms(t6 - t5), ms(t5 - main),
                again.size());
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
