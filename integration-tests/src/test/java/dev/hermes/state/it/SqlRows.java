package dev.hermes.state.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Every row of a query as plain values (blobs as hex), for assertions on what a file holds. */
public final class SqlRows {
    private SqlRows() {
    }

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
}
