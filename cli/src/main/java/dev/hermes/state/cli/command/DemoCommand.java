package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.demo.DemoClock;
import dev.hermes.state.cli.demo.DemoData;
import dev.hermes.state.cli.stats.StoreStats;
import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.cli.view.LineageView;
import dev.hermes.state.cli.view.SearchView;
import dev.hermes.state.cli.view.SessionListView;
import dev.hermes.state.cli.view.StatsView;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.SearchQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * {@code demo}: the README's first command. Fills a demo database once with a realistic week of
 * sessions (only when it has none, so re-running adds nothing) and tours what the tool does, each
 * step headed by the command that shows it.
 */
@Command(mixinStandardHelpOptions = true, name = "demo", description = {
        "A guided tour on a sample database: the session list, a search with highlighted hits, a compression "
                + "chain as a tree, statistics. The database (default " + DemoCommand.DEFAULT_LOCATION + " under the "
                + "current folder, or --db) is filled once with sample sessions when it has none; re-running reuses it."})
public final class DemoCommand implements Callable<Integer> {
    /** Where the demo keeps its database unless --db says otherwise: never the user's real store. */
    static final String DEFAULT_LOCATION = "target/demo/state.db";

    @ParentCommand
    private CommandContext cli;

    @Override
    public Integer call() {
        if (cli.json()) {
            throw new InvalidArgumentException("demo is a tour for people and has no --json output; "
                    + "try --json with sessions list, search or stats");
        }
        Path file = cli.explicitDbPath() != null ? cli.explicitDbPath() : Path.of(DEFAULT_LOCATION);
        PrintStream out = cli.out();
        Highlighter style = cli.highlighter();
        String db = "hermes-state --db " + shellQuote(file.toString());

        out.println(style.bold("hermes-state demo") + ": the Hermes Agent session store (state.db), from Java");
        out.println("The Python agent keeps every conversation in one SQLite file; this tool reads and writes it "
                + "safely, even while the agent runs.");
        out.println();

        DemoClock clock = new DemoClock();
        boolean existed = Files.exists(file);
        try (StateRepository store = open(file, clock)) {
            describeDatabase(store, file, existed, clock);
            Times times = Times.system();

            heading(style, "1. The sessions, newest first", db + " sessions list");
            out.println("Every session of every source (cli, telegram, discord, slack...), with a preview of its first "
                    + "question.");
            out.println();
            SessionListView.render(store.listSessionsRich(ListSessionsQuery.builder().limit(10).build()), times)
                    .forEach(out::println);

            heading(style, "2. Full-text search", db + " search '" + DemoData.ENGLISH_QUERY + "'");
            out.println("Ranked hits with the match highlighted; phrases, prefix* and OR work, any other text is "
                    + "taken literally.");
            out.println();
            search(store, DemoData.ENGLISH_QUERY, times, style);
            out.println();
            out.println("Chinese, Japanese and Korean words are found inside longer text too:  " + db + " search "
                    + DemoData.CHINESE_QUERY);
            out.println();
            search(store, DemoData.CHINESE_QUERY, times, style);

            heading(style, "3. A compression chain", db + " sessions lineage '" + DemoData.CHAIN_TITLE + "'");
            out.println("When a conversation gets too long the agent ends it (reason: compression) and continues in a "
                    + "child session; delegates hang off the session that started them. The list above shows a chain "
                    + "once, as its newest session.");
            out.println();
            lineage(store, times, style);

            heading(style, "4. Statistics", db + " stats");
            StatsView.render(StoreStats.collect(store, 5), times, style).forEach(out::println);
        }

        heading(style, "Next", null);
        Table next = Table.withColumns(2)
                .row(db + " sessions show '" + DemoData.CHAIN_TITLE + "'", "one session with its messages")
                .row(db + " --json sessions list", "the same data for scripts, with Hermes' keys")
                .row("echo '{\"id\": 1, \"method\": \"session_count\"}' | " + db + " rpc", "Hermes' API, for any language")
                .row("hermes-state --help", "everything else; without --db it opens your own ~/.hermes/state.db");
        next.lines().forEach(line -> out.println("  " + line));
        return CommandContext.OK;
    }

    private StateRepository open(Path file, DemoClock clock) {
        if (cli.readOnly()) {
            return cli.openReadOnly(CommandContext.requireExisting(file));
        }
        return cli.storeBuilder().path(file).clock(clock).build();
    }

    private void describeDatabase(StateRepository store, Path file, boolean existed, DemoClock clock) {
        PrintStream out = cli.out();
        long sessions = store.sessionCount();
        if (sessions == 0 && !store.isReadOnly()) {
            DemoData.Summary written = DemoData.fill(store, clock, Instant.now());
            out.println("Database: " + file + (existed ? " (it was empty: " : " (new: ") + "added " + written.sessions()
                    + " sample sessions with " + written.messages() + " messages)");
        } else {
            out.println("Database: " + file + " (reusing its " + sessions + " sessions and " + store.messageCount(null)
                    + " messages; delete the file for a fresh start)");
        }
    }

    private void search(StateRepository store, String query, Times times, Highlighter style) {
        SearchView.render(query, store.searchMessages(SearchQuery.builder(query).limit(5).build()), 0, times, style)
                .forEach(cli.out()::println);
    }

    private void lineage(StateRepository store, Times times, Highlighter style) {
        Optional<String> chain = store.resolveSessionByTitle(DemoData.CHAIN_TITLE);
        if (chain.isEmpty()) {
            cli.out().println("(this database has no session titled '" + DemoData.CHAIN_TITLE + "')");
            return;
        }
        String requested = chain.get();
        String root = SessionRefs.rootOf(store, requested);
        LineageView.render(store.getLineageTree(root), requested, store.getCompressionTip(root), times, style)
                .forEach(cli.out()::println);
    }

    private void heading(Highlighter style, String title, @Nullable String command) {
        PrintStream out = cli.out();
        out.println();
        out.println(style.bold("== " + title + " ==") + (command == null ? "" : "   $ " + command));
    }

    /** The path as a shell word: quoted when it has characters the shell would split or expand. */
    static String shellQuote(String word) {
        if (word.matches("[A-Za-z0-9_./:@%+=,-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
