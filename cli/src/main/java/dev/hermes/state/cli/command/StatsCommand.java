package dev.hermes.state.cli.command;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.stats.StoreStats;
import dev.hermes.state.cli.view.StatsView;
import dev.hermes.state.core.StateRepository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code stats}: sessions and messages per source, tokens and costs per model, the largest sessions. */
@Command(mixinStandardHelpOptions = true, name = "stats", description = "Counts per source, tokens and costs per model, largest sessions.")
public final class StatsCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Option(names = "--top", paramLabel = "N", defaultValue = "5", description = "How many of the largest sessions (default ${DEFAULT-VALUE}).")
    private int top;

    @Override
    public Integer call() {
        if (top < 0) {
            throw new InvalidArgumentException("--top must be 0 or more, got " + top);
        }
        StoreStats stats;
        try (StateRepository store = cli.openExisting()) {
            stats = StoreStats.collect(store, top);
        }
        if (cli.json()) {
            cli.printJson(stats.toJson());
        } else {
            StatsView.render(stats, cli.times(), cli.highlighter()).forEach(cli.out()::println);
        }
        return CommandContext.OK;
    }
}
