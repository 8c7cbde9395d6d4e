package dev.hermes.state.cli.command;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.cli.view.SearchView;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code search QUERY}: Hermes' full-text search over every message. Any text is a valid query
 * (e-mail addresses, {@code C++}, {@code chat-send}, Chinese words...); matches are highlighted in a
 * terminal and keep Hermes' {@code >>>match<<<} markers when piped.
 */
@Command(mixinStandardHelpOptions = true, name = "search", description = {
        "Full-text search over all messages, best matches first. Quote phrases (\"database migration\"), use "
                + "prefix* and OR; any other text is searched literally. Chinese, Japanese and Korean words work too.",
        "Matches are highlighted in a terminal; piped output keeps Hermes' >>>match<<< markers."})
public final class SearchCommand implements Callable<Integer> {
    @ParentCommand
    private CommandContext cli;

    @Parameters(paramLabel = "QUERY", description = "What to look for.")
    private String query;

    @Option(names = "--source", paramLabel = "S", description = "Only messages of sessions from this source (repeatable).")
    private List<String> sources;

    @Option(names = "--exclude-source", paramLabel = "S", description = "Leave out this source (repeatable).")
    private List<String> excludeSources;

    @Option(names = "--role", paramLabel = "R", description = "Only messages with this role: user, assistant, tool... (repeatable).")
    private List<String> roles;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "At most N hits (default ${DEFAULT-VALUE}).")
    private int limit;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip the first N hits.")
    private int offset;

    @Override
    public Integer call() {
        SearchQuery search = SearchQuery.builder(query)
                .sourceFilter(sources)
                .excludeSources(excludeSources)
                .roleFilter(roles)
                .limit(limit)
                .offset(offset)
                .build();
        List<SearchHit> hits;
        try (StateRepository store = cli.openExisting()) {
            hits = store.searchMessages(search);
        }
        if (cli.json()) {
            cli.printJson(HermesShapes.hits(hits));
        } else {
            SearchView.render(query, hits, offset, cli.times(), cli.highlighter()).forEach(cli.out()::println);
        }
        return CommandContext.OK;
    }
}
