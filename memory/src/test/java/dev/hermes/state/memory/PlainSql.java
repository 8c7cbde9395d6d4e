package dev.hermes.state.memory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain SQL on a store file, outside the store (its own sqlite-jdbc connection, as any other program
 * would read the file): what the adapters' tests check the stored rows with.
 */
public final class PlainSql {
    private PlainSql() {
    }

    /** The first column of every row, as text (null stays null). */
    public static List<String> column(Path db, String sql, Object... parameters) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new AssertionError("cannot run " + sql + " on " + db, e);
        }
    }

    /** The one number the query answers. */
    public static long number(Path db, String sql, Object... parameters) {
        List<String> values = column(db, sql, parameters);
        if (values.size() != 1) {
            throw new AssertionError(sql + " answered " + values);
        }
        return Long.parseLong(values.get(0));
    }
}
