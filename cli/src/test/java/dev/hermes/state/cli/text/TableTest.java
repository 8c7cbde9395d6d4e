package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableTest {
    @Test
    void columnsAreAlignedInTerminalColumnsEvenWithWideCharacters() {
        List<String> lines = Table.withHeaders("ID", "TITLE", "MSGS")
                .alignRight(2)
                .row("a1", "数据库迁移", 2)
                .row("b22", "🚀 Launch plan", 12)
                .row("c", null, 100)
                .lines();
        assertEquals(List.of(
                "ID   TITLE           MSGS",
                "a1   数据库迁移         2",
                "b22  🚀 Launch plan    12",
                "c                     100"), lines);
        int width = DisplayWidth.of(lines.get(0));
        for (String line : lines) {
            assertEquals(width, DisplayWidth.of(line), "every row ends at the same column: " + line);
        }
    }

    @Test
    void lastLeftAlignedColumnHasNoTrailingSpaces() {
        List<String> lines = Table.withHeaders("A", "PREVIEW").row("x", "short").row("y", "").lines();
        assertEquals(List.of("A  PREVIEW", "x  short", "y"), lines);
    }

    @Test
    void cappedColumnsAreCutWithAnEllipsis() {
        List<String> lines = Table.withHeaders("T", "N").maxWidth(0, 8).row("PR #438 — fixing the auth middleware", 1).lines();
        assertEquals("PR #438…  1", lines.get(1));
    }

    @Test
    void cellsAreSingleLine() {
        List<String> lines = Table.withHeaders("A", "B").row("line1\nline2\tx", "ok").lines();
        assertEquals("line1 line2 x  ok", lines.get(1));
    }

    @Test
    void headerlessTablesAlignLabels() {
        List<String> lines = Table.withColumns(2).row("File", "/x/state.db").row("Journal mode", "wal").lines();
        assertEquals(List.of("File          /x/state.db", "Journal mode  wal"), lines);
    }

    @Test
    void rowsMustMatchTheColumns() {
        assertThrows(IllegalArgumentException.class, () -> Table.withHeaders("A", "B").row("only one"));
        assertTrue(Table.withHeaders("A").isEmpty());
    }
}
