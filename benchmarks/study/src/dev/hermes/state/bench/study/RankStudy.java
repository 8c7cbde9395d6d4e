package dev.hermes.state.bench.study;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * W2's page query three ways, FTS5 alone (rowids only): ORDER BY rank with nothing else selected, with
 * {@code rank} selected, and with {@code bm25(messages_fts)} selected (the rank's own function, computed for
 * the returned rows only). Prints min/median ms per query and variant, rounds interleaved, and checks that
 * the three return the same rowids and that bm25 equals rank. Usage: RankStudy DB ROUNDS QUERY...
 */
public final class RankStudy {
    static final String[] SQL = {
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20",
            "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20",
            "SELECT rowid, bm25(messages_fts) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20",
            "SELECT rowid, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20",
            "SELECT rowid, snippet(messages_fts, 0, '>>>', '<<<', '...', 40), rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20",
    };
    static final String[] NAMES = {"order-only", "select-rank", "select-bm25", "snippet", "snippet+rank"};

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[1]);
        try (Connection c = SqliteFile.open(Path.of(args[0]), RetryPolicy.HERMES, false)) {
            PreparedStatement[] statements = new PreparedStatement[SQL.length];
            for (int v = 0; v < SQL.length; v++) {
                statements[v] = c.prepareStatement(SQL[v]);
            }
            for (int q = 2; q < args.length; q++) {
                double[][] ms = new double[SQL.length][rounds];
                List<List<Object>> results = new ArrayList<>();
                for (int i = -2; i < rounds; i++) {
                    for (int k = 0; k < SQL.length; k++) {
                        int v = (k + Math.max(i, 0)) % SQL.length;
                        long t = System.nanoTime();
                        List<Object> rows = run(statements[v], args[q]);
                        long took = System.nanoTime() - t;
                        if (i >= 0) {
                            ms[v][i] = took / 1e6;
                        } else if (i == -1) {
                            results.add(rows);
                        }
                    }
                }
                System.out.printf("%-22s", args[q]);
                for (int v = 0; v < SQL.length; v++) {
                    Arrays.sort(ms[v]);
                    System.out.printf("  %s min %7.2f med %7.2f", NAMES[v], ms[v][0], ms[v][rounds / 2]);
                }
                System.out.println();
            }
        }
    }

    static List<Object> run(PreparedStatement statement, String query) throws Exception {
        statement.setString(1, query);
        List<Object> rows = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                rows.add(rs.getLong(1));
                for (int col = 2; col <= columns; col++) {
                    rows.add(rs.getString(col));
                }
            }
        }
        return rows;
    }
}
