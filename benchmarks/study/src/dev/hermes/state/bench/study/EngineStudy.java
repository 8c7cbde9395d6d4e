package dev.hermes.state.bench.study;

import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;

/**
 * SQLite's own FTS5 speed through sqlite-jdbc, for comparison with py/engine.py (the interpreter's SQLite):
 * each query REPS times (after 3 untimed), SQL = ENGINE_RANK or ENGINE_COUNT of SearchStudy; prints min and
 * median ms per query. Only 20 rows (or 1) cross JNI, so this is the engine, not the driver.
 * Usage: EngineStudy DB REPS rank|count QUERY...
 */
public final class EngineStudy {
    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int reps = Integer.parseInt(args[1]);
        String sql = args[2].equals("rank") ? SearchStudy.ENGINE_RANK : SearchStudy.ENGINE_COUNT;
        try (Connection c = SqliteFile.open(db, RetryPolicy.HERMES, false)) {
            try (Statement s = c.createStatement(); ResultSet v = s.executeQuery("select sqlite_version()")) {
                v.next();
                System.out.print("java sqlite-jdbc " + v.getString(1) + " " + args[2] + ":");
            }
            PreparedStatement statement = c.prepareStatement(sql);
            for (int q = 3; q < args.length; q++) {
                double[] ms = new double[reps];
                for (int i = -3; i < reps; i++) {
                    long t = System.nanoTime();
                    SearchStudy.rows(statement, args[q]);
                    if (i >= 0) {
                        ms[i] = (System.nanoTime() - t) / 1e6;
                    }
                }
                Arrays.sort(ms);
                System.out.printf("  %s min %.2f med %.2f;", args[q], ms[0], ms[reps / 2]);
            }
            System.out.println();
        }
    }
}
