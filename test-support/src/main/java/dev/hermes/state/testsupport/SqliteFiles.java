package dev.hermes.state.testsupport;

import org.sqlite.SQLiteConfig;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A SQLite file read and changed with plain sqlite-jdbc, outside the code under test (as any other
 * program would open it): what the tests of every module check a store's file with, and set up odd data
 * with. One busy timeout for all, long enough for a test machine shared by several builds.
 */
public final class SqliteFiles {
    private static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private SqliteFiles() {
    }

    /** A read-only connection: cannot change the file (it may still read a live WAL). */
    public static Connection readOnly(Path db) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        return DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath(), config.toProperties());
    }

    /** A read-write connection with SQLite's defaults (foreign keys off, as in any program that does not turn them on). */
    public static Connection readWrite(Path db) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        return DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath(), config.toProperties());
    }

    /** A read-write connection with foreign keys enforced, as the agent and the store open the file. */
    public static Connection readWriteWithForeignKeys(Path db) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.enforceForeignKeys(true);
        return DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath(), config.toProperties());
    }

    /** Every row of a query as plain values (blobs as hex), on any JDBC connection. */
    public static List<List<Object>> query(Connection connection, String sql, Object... parameters) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    List<Object> row = new ArrayList<>(columns);
                    for (int c = 1; c <= columns; c++) {
                        Object value = result.getObject(c);
                        row.add(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** {@link #query} on a read-only connection of its own. */
    public static List<List<Object>> rows(Path db, String sql, Object... parameters) throws SQLException {
        try (Connection connection = readOnly(db)) {
            return query(connection, sql, parameters);
        }
    }

    /** The one value a query answers (an AssertionError otherwise), on a read-only connection. */
    public static Object single(Path db, String sql, Object... parameters) throws SQLException {
        List<List<Object>> rows = rows(db, sql, parameters);
        if (rows.size() != 1 || rows.get(0).size() != 1) {
            throw new AssertionError("expected one value from " + sql + ", got " + rows);
        }
        return rows.get(0).get(0);
    }

    /** The first column of every row a query answers, as text (null stays null), on a read-only connection. */
    public static List<@Nullable String> column(Path db, String sql, Object... parameters) throws SQLException {
        List<@Nullable String> values = new ArrayList<>();
        for (List<Object> row : rows(db, sql, parameters)) {
            Object value = row.get(0);
            values.add(value == null ? null : value.toString());
        }
        return values;
    }

    /** {@link #single} as a whole number. */
    public static long number(Path db, String sql, Object... parameters) throws SQLException {
        Object value = single(db, sql, parameters);
        if (!(value instanceof Number number)) {
            throw new AssertionError("expected a number from " + sql + ", got " + value);
        }
        return number.longValue();
    }

    /** {@link #single} as text (null stays null). */
    public static @Nullable String text(Path db, String sql, Object... parameters) throws SQLException {
        Object value = single(db, sql, parameters);
        return value == null ? null : value.toString();
    }

    /** Runs the statements in order, on a read-write connection with foreign keys enforced. */
    public static void execute(Path db, String... statements) throws SQLException {
        try (Connection connection = readWriteWithForeignKeys(db); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
