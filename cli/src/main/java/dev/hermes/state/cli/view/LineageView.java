package dev.hermes.state.cli.view;

import dev.hermes.state.cli.text.Highlighter;
import dev.hermes.state.cli.text.Times;
import dev.hermes.state.cli.text.Tree;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.Session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A session's lineage as a tree, root first: compression continuations, delegates and branches
 * under the session they came from, the live tip of the compression chain and the session asked
 * for marked.
 */
public final class LineageView {
    private LineageView() {
    }

    /**
     * The lineage tree as lines, the requested session marked.
     *
     * @param tree      the whole tree under the root (any order)
     * @param requested the session the user asked about
     * @param tip       the compression tip of the root (the chain's newest session)
     */
    public static List<String> render(List<LineageNode> tree, String requested, String tip, Times times, Highlighter style) {
        List<Session> sessions = new ArrayList<>();
        for (LineageNode node : tree) {
            sessions.add(node.session());
        }
        sessions.sort(Comparator.comparing(Session::startedAt).thenComparing(Session::id));
        List<Tree.Node> nodes = new ArrayList<>();
        for (Session session : sessions) {
            nodes.add(new Tree.Node(session.id(), session.parentSessionId(), label(session, requested, tip, times, style)));
        }
        return Tree.render(nodes);
    }

    static String label(Session s, String requested, String tip, Times times, Highlighter style) {
        StringBuilder label = new StringBuilder();
        label.append(style.bold(s.title() == null ? "(untitled)" : s.title()));
        label.append("  ").append(s.id());
        label.append("  ").append(s.source());
        label.append("  ").append(s.messageCount()).append(s.messageCount() == 1 ? " msg" : " msgs");
        label.append("  started ").append(times.absolute(s.startedAt()));
        label.append("  ").append(s.endedAt() == null ? "live" : "ended: " + (s.endReason() == null ? "-" : s.endReason()));
        if (s.id().equals(tip) && s.parentSessionId() != null) {
            label.append("  ← tip of the chain");
        }
        if (s.id().equals(requested)) {
            label.append("  ◀ requested");
        }
        return label.toString();
    }
}
