package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TreeTest {
    @Test
    void aCompressionChainWithADelegate() {
        List<Tree.Node> nodes = List.of(
                new Tree.Node("L1", null, "my project"),
                new Tree.Node("D", "L1", "delegate"),
                new Tree.Node("L2", "L1", "my project #2"),
                new Tree.Node("L3", "L2", "my project #3"),
                new Tree.Node("L4", "L3", "my project #4"));
        assertEquals(List.of(
                "my project",
                "├─ delegate",
                "└─ my project #2",
                "   └─ my project #3",
                "      └─ my project #4"), Tree.render(nodes));
    }

    @Test
    void siblingsKeepTheirOrderAndBranchesContinue() {
        List<Tree.Node> nodes = List.of(
                new Tree.Node("r", null, "root"),
                new Tree.Node("a", "r", "a"),
                new Tree.Node("b", "r", "b"),
                new Tree.Node("a1", "a", "a1"),
                new Tree.Node("a2", "a", "a2"),
                new Tree.Node("b1", "b", "b1"));
        assertEquals(List.of(
                "root",
                "├─ a",
                "│  ├─ a1",
                "│  └─ a2",
                "└─ b",
                "   └─ b1"), Tree.render(nodes));
    }

    @Test
    void inputOrderOfParentsAndChildrenDoesNotMatter() {
        List<Tree.Node> nodes = List.of(
                new Tree.Node("c", "b", "c"),
                new Tree.Node("b", "a", "b"),
                new Tree.Node("a", null, "a"));
        assertEquals(List.of("a", "└─ b", "   └─ c"), Tree.render(nodes));
    }

    @Test
    void aParentOutsideTheListMakesARoot() {
        assertEquals(List.of("orphan"), Tree.render(List.of(new Tree.Node("x", "gone", "orphan"))));
    }

    @Test
    void cyclesAreDrawnOnce() {
        List<Tree.Node> nodes = List.of(new Tree.Node("a", "b", "a"), new Tree.Node("b", "a", "b"));
        assertEquals(List.of("a", "└─ b"), Tree.render(nodes));
    }

    @Test
    void aChainThousandsDeepNeitherOverflowsNorRunsOffTheScreen() {
        List<Tree.Node> nodes = new ArrayList<>();
        nodes.add(new Tree.Node("s0", null, "s0"));
        for (int i = 1; i < 5000; i++) {
            nodes.add(new Tree.Node("s" + i, "s" + (i - 1), "s" + i));
        }
        List<String> lines = Tree.render(nodes);
        assertEquals(5000, lines.size());
        int maxIndent = 3 * (Tree.MAX_INDENT_LEVELS - 1);
        assertEquals(" ".repeat(maxIndent) + "└─ [depth 4999] s4999", lines.get(4999));
        for (String line : lines) {
            assertTrue(line.length() <= maxIndent + 30, line);
        }
    }
}
