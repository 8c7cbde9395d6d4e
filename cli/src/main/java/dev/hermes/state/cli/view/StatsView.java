package dev.hermes.state.cli.view;

import dev.hermes.state.cli.stats.StoreStats;
import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The store's numbers as three small tables: per source, per model, largest sessions. */
public final class StatsView {
    private StatsView() {
    }

    public static List<String> render(StoreStats stats, Times times, Highlighter style) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%,d sessions, %,d messages", stats.sessions(), stats.messages()));

        lines.add("");
        lines.add(style.bold("Per source"));
        Table sources = Table.withHeaders("SOURCE", "SESSIONS", "MESSAGES", "TOOL CALLS", "LATEST SESSION")
                .alignRight(1, 2, 3);
        for (StoreStats.SourceRow row : stats.bySource()) {
            sources.row(row.source(), number(row.sessions()), number(row.messages()), number(row.toolCalls()),
                    times.relative(row.lastStarted()));
        }
        lines.addAll(sources.lines());

        lines.add("");
        lines.add(style.bold("Tokens and cost per model"));
        Table models = Table.withHeaders("MODEL", "SESSIONS", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE",
                "REASONING", "EST. USD", "ACTUAL USD").alignRight(1, 2, 3, 4, 5, 6, 7, 8).maxWidth(0, 36);
        for (StoreStats.ModelRow row : stats.byModel()) {
            models.row(row.model() == null ? "(none recorded)" : row.model(), number(row.sessions()),
                    number(row.inputTokens()), number(row.outputTokens()), number(row.cacheReadTokens()),
                    number(row.cacheWriteTokens()), number(row.reasoningTokens()), usd(row.estimatedCostUsd()),
                    usd(row.actualCostUsd()));
        }
        lines.addAll(models.lines());

        lines.add("");
        lines.add(style.bold("Largest sessions"));
        Table largest = Table.withHeaders("ID", "TITLE", "SOURCE", "MSGS", "TOOL CALLS", "TOKENS")
                .alignRight(3, 4, 5).maxWidth(1, 36);
        for (StoreStats.LargestSession row : stats.largest()) {
            largest.row(row.id(), row.title() == null ? "-" : row.title(), row.source(), number(row.messages()),
                    number(row.toolCalls()), number(row.tokens()));
        }
        lines.addAll(largest.lines());
        return lines;
    }

    private static String number(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String usd(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }
}
