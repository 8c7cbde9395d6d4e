package dev.hermes.state.cli.view;

import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.model.SearchHit;

import java.util.ArrayList;
import java.util.List;

/**
 * Search hits, best first: where each hit is (session, source, role, when) and its snippet with
 * the match highlighted.
 */
public final class SearchView {
    private SearchView() {
    }

    public static List<String> render(String query, List<SearchHit> hits, int offset, Times times, Highlighter style) {
        List<String> lines = new ArrayList<>();
        if (hits.isEmpty()) {
            lines.add("No messages match " + quote(query) + ".");
            return lines;
        }
        int width = String.valueOf(offset + hits.size()).length();
        int number = offset;
        for (SearchHit hit : hits) {
            number++;
            String where = hit.sessionId() + " · " + hit.source() + " · " + hit.role()
                    + (hit.toolName() == null ? "" : " (" + hit.toolName() + ")") + " · " + times.both(hit.timestamp());
            lines.add(String.format("%" + width + "d. ", number) + where);
            String snippet = Highlighter.markOccurrences(hit.snippet(), query);
            lines.add(" ".repeat(width + 2) + style.render(snippet == null ? "" : snippet));
        }
        lines.add("");
        lines.add(hits.size() + (hits.size() == 1 ? " hit" : " hits") + " for " + quote(query)
                + (offset > 0 ? " (from #" + (offset + 1) + ")" : "") + ".");
        return lines;
    }

    private static String quote(String query) {
        return "'" + query + "'";
    }
}
