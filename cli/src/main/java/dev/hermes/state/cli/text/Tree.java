package dev.hermes.state.cli.text;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Draws parent/child items as an indented tree with box-drawing branches:
 * <pre>
 * root
 * ├─ first child
 * │  └─ grandchild
 * └─ last child
 * </pre>
 * The tree is rebuilt from each item's parent id, so the input order only decides the order of
 * siblings; an item whose parent is not in the list is a root. Cycles cannot loop: every item is
 * drawn once.
 */
public final class Tree {
    /** Deeper items stop moving right (their line says its depth) so that long chains stay readable. */
    static final int MAX_INDENT_LEVELS = 20;

    private Tree() {
    }

    /** An item of the tree. */
    public record Node(String id, @Nullable String parentId, String label) {
    }

    public static List<String> render(List<Node> nodes) {
        Map<String, Node> byId = new LinkedHashMap<>();
        for (Node node : nodes) {
            byId.putIfAbsent(node.id(), node);
        }
        Map<String, List<Node>> children = new LinkedHashMap<>();
        List<Node> roots = new ArrayList<>();
        for (Node node : byId.values()) {
            if (node.parentId() == null || !byId.containsKey(node.parentId()) || node.parentId().equals(node.id())) {
                roots.add(node);
            } else {
                children.computeIfAbsent(node.parentId(), parent -> new ArrayList<>()).add(node);
            }
        }
        List<String> lines = new ArrayList<>();
        Set<String> drawn = new HashSet<>();
        for (Node root : roots) {
            drawn.add(root.id());
            lines.add(root.label());
            drawDescendants(root, children, drawn, lines);
        }
        for (Node node : byId.values()) {
            // only items on a parent cycle are left: draw each cycle from its first item
            if (drawn.add(node.id())) {
                lines.add(node.label());
                drawDescendants(node, children, drawn, lines);
            }
        }
        return lines;
    }

    /** Depth-first, with an explicit stack: compression chains can be thousands deep. */
    private static void drawDescendants(Node root, Map<String, List<Node>> children, Set<String> drawn,
                                        List<String> lines) {
        Deque<Level> stack = new ArrayDeque<>();
        stack.push(new Level(undrawn(children.get(root.id()), drawn), "", 1));
        while (!stack.isEmpty()) {
            Level level = stack.peek();
            if (!level.remaining.hasNext()) {
                stack.pop();
                continue;
            }
            Node child = level.remaining.next();
            if (!drawn.add(child.id())) {
                continue;
            }
            boolean last = !level.remaining.hasNext();
            String depthNote = level.depth > MAX_INDENT_LEVELS ? "[depth " + level.depth + "] " : "";
            lines.add(level.indent + (last ? "└─ " : "├─ ") + depthNote + child.label());
            String childIndent = level.depth >= MAX_INDENT_LEVELS ? level.indent : level.indent + (last ? "   " : "│  ");
            stack.push(new Level(undrawn(children.get(child.id()), drawn), childIndent, level.depth + 1));
        }
    }

    private static Iterator<Node> undrawn(@Nullable List<Node> nodes, Set<String> drawn) {
        if (nodes == null) {
            return Collections.emptyIterator();
        }
        List<Node> fresh = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            if (!drawn.contains(node.id())) {
                fresh.add(node);
            }
        }
        return fresh.iterator();
    }

    /** The siblings still to draw at one depth, and the indentation of their lines. */
    private record Level(Iterator<Node> remaining, String indent, int depth) {
    }
}
