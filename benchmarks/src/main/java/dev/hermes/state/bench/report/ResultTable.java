package dev.hermes.state.bench.report;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Prints the rows as one aligned table and turns the target rows into the {@code targets} section. */
public final class ResultTable {
    private static final String[] HEADER = {"workload", "measure", "ours", "raw JDBC", "ours/raw", "target", "status"};

    private ResultTable() {
    }

    public static void print(List<Row> rows, PrintStream out) {
        int[] widths = new int[HEADER.length];
        for (int c = 0; c < HEADER.length; c++) {
            widths[c] = HEADER[c].length();
        }
        for (Row row : rows) {
            String[] cells = cells(row);
            for (int c = 0; c < cells.length; c++) {
                widths[c] = Math.max(widths[c], cells[c].length());
            }
        }
        printLine(HEADER, widths, out);
        StringBuilder rule = new StringBuilder();
        for (int width : widths) {
            rule.append("-".repeat(width)).append("  ");
        }
        out.println(rule.toString().stripTrailing());
        for (Row row : rows) {
            printLine(cells(row), widths, out);
        }
        for (Row row : rows) {
            if (row.note() != null && row.hasTarget()) {
                out.println("  note (" + row.workload() + ", " + row.measure() + "): " + row.note());
            }
        }
    }

    /** {@code workload / measure -> {target, ours, raw, ratio, met, note}} for every row with a target. */
    public static Map<String, Object> targets(List<Row> rows) {
        Map<String, Object> json = new LinkedHashMap<>();
        for (Row row : rows) {
            if (row.hasTarget()) {
                json.put(row.workload() + " " + row.measure(), row.toJson());
            }
        }
        return json;
    }

    private static String[] cells(Row row) {
        return new String[]{row.workload(), row.measure(), row.ours(), row.raw(), row.ratio(), row.target(), row.status()};
    }

    private static void printLine(String[] cells, int[] widths, PrintStream out) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            boolean numeric = c >= 2 && c <= 4;
            String cell = cells[c];
            String padding = " ".repeat(widths[c] - cell.length());
            line.append(numeric ? padding + cell : cell + padding).append("  ");
        }
        out.println(line.toString().stripTrailing());
    }
}
