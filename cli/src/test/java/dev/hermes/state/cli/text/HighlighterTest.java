package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HighlighterTest {
    @Test
    void inATerminalMatchesAreBoldYellow() {
        assertEquals("how do I \u001B[1;33mdocker\u001B[0m compose",
                Highlighter.ansi().render("how do I >>>docker<<< compose"));
    }

    @Test
    void pipedOutputKeepsHermesMarkers() {
        assertEquals("how do I >>>docker<<< compose", Highlighter.markers().render("how do I >>>docker<<< compose"));
    }

    @Test
    void snippetsBecomeOneLine() {
        assertEquals("...first line >>>deploy<<< second ...",
                Highlighter.markers().render("...first line\n>>>deploy<<<\r\n second  ..."));
    }

    @Test
    void anUnclosedMatchIsResetAtTheEnd() {
        assertEquals("a \u001B[1;33mb\u001B[0m", Highlighter.ansi().render("a >>>b"));
    }

    @Test
    void plainSnippetsGetTheirOccurrencesMarked() {
        assertEquals("数据库>>>迁移<<<问题，>>>迁移<<<完成", Highlighter.markOccurrences("数据库迁移问题，迁移完成", "迁移"));
        assertEquals("a >>>Docker<<< b", Highlighter.markOccurrences("a Docker b", "\"docker\""));
        assertEquals("already >>>marked<<<", Highlighter.markOccurrences("already >>>marked<<<", "already"));
        assertEquals("nothing here", Highlighter.markOccurrences("nothing here", "迁移"));
    }

    @Test
    void boldAndDimOnlyInATerminal() {
        assertEquals("x", Highlighter.markers().bold("x"));
        assertEquals("\u001B[1mx\u001B[0m", Highlighter.ansi().bold("x"));
        assertEquals("\u001B[2mx\u001B[0m", Highlighter.ansi().dim("x"));
    }
}
