package dev.hermes.state.cli.view;

import dev.hermes.state.cli.text.Table;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.Session;

import java.util.ArrayList;
import java.util.List;

/**
 * The rich session listing as a table, newest first, with a legend for compression chains; an
 * archived session (listed only on request) has its title marked.
 */
public final class SessionListView {
    static final String CHAIN_MARK = "⛓ ";
    static final String ARCHIVED_MARK = "[archived] ";

    private SessionListView() {
    }

    public static List<String> render(List<RichSession> rows, Times times) {
        if (rows.isEmpty()) {
            return List.of("No sessions.");
        }
        Table table = Table.withHeaders("ID", "TITLE", "SOURCE", "MSGS", "STARTED", "LAST ACTIVE", "PREVIEW")
                .alignRight(3)
                .maxWidth(1, 30)
                .maxWidth(6, 63);  // Hermes' previews are at most 63 characters
        boolean anyChain = false;
        for (RichSession row : rows) {
            Session session = row.session();
            boolean chain = row.lineageRootId() != null;
            anyChain |= chain;
            String title = (session.archived() ? ARCHIVED_MARK : "") + (session.title() == null ? "-" : session.title());
            table.row(session.id(), chain ? CHAIN_MARK + title : title, session.source(), session.messageCount(),
                    times.absolute(session.startedAt()), times.relative(row.lastActive()), row.preview());
        }
        List<String> lines = new ArrayList<>(table.lines());
        if (anyChain) {
            lines.add("");
            lines.add(CHAIN_MARK + "= a compression chain, shown as its newest session (started = when the chain began; "
                    + "see it whole with: sessions lineage ID)");
        }
        return lines;
    }
}
