package dev.hermes.state.cli.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table: a header row and aligned columns separated by two spaces, measured in
 * terminal columns ({@link DisplayWidth}). Cells are single-line: line breaks and tabs become
 * spaces. A column may be capped; longer cells are cut with {@code …}.
 */
public final class Table {
    private static final String GAP = "  ";

    private final String[] headers;
    private final boolean showHeaders;
    private final boolean[] rightAligned;
    private final int[] maxWidths;
    private final List<String[]> rows = new ArrayList<>();

    private Table(String[] headers, boolean showHeaders) {
        this.headers = headers.clone();
        this.showHeaders = showHeaders;
        this.rightAligned = new boolean[headers.length];
        this.maxWidths = new int[headers.length];
        Arrays.fill(maxWidths, Integer.MAX_VALUE);
    }

    public static Table withHeaders(String... headers) {
        return new Table(headers, true);
    }

    /** A table without a header row (label/value listings). */
    public static Table withColumns(int columns) {
        String[] none = new String[columns];
        java.util.Arrays.fill(none, "");
        return new Table(none, false);
    }

    /** Right-aligns the given columns (numbers). */
    public Table alignRight(int... columns) {
        for (int column : columns) {
            rightAligned[column] = true;
        }
        return this;
    }

    /** Caps a column at {@code width} terminal columns. */
    public Table maxWidth(int column, int width) {
        maxWidths[column] = width;
        return this;
    }

    /** Adds a row; null cells print empty, other values with {@code String.valueOf}. */
    public Table row(Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.length + " columns");
        }
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = DisplayWidth.truncate(singleLine(cells[i]), maxWidths[i]);
        }
        rows.add(row);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The rendered lines: header first (if any), no trailing spaces. */
    public List<String> lines() {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = DisplayWidth.of(headers[i]);
        }
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], DisplayWidth.of(row[i]));
            }
        }
        List<String> lines = new ArrayList<>(rows.size() + 1);
        if (showHeaders) {
            lines.add(format(headers, widths));
        }
        for (String[] row : rows) {
            lines.add(format(row, widths));
        }
        return lines;
    }

    @Override
    public String toString() {
        return String.join("\n", lines());
    }

    private String format(String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                line.append(GAP);
            }
            boolean last = i == cells.length - 1;
            if (rightAligned[i]) {
                line.append(DisplayWidth.padLeft(cells[i], widths[i]));
            } else if (last) {
                line.append(cells[i]);
            } else {
                line.append(DisplayWidth.padRight(cells[i], widths[i]));
            }
        }
        return stripTrailing(line);
    }

    private static String stripTrailing(StringBuilder line) {
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        return line.substring(0, end);
    }

    /** One line of text: CR, LF, tabs and other control characters become spaces. */
    public static String singleLine(Object value) {
        if (value == null) {
            return "";
        }
        String text = String.valueOf(value);
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = (c < 0x20 && c != '\u001B') || c == 0x7F;
            if (control && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                out.append(control ? ' ' : c);
            }
        }
        return out == null ? text : out.toString();
    }
}
