package dev.hermes.state.core.messages;

import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One row of a message read, its columns by position (1 first) as the JDBC driver reads them: the
 * rows of a result set one by one, or the rows of one packed value ({@link PackedRows}), which give
 * exactly the same values.
 */
interface StoredRow {

    /** A TEXT column: its stored bytes decoded as UTF-8; NULL is null and '' is "". */
    @Nullable String text(int column) throws SQLException;

    /** An integer column as {@link ResultSet#getLong}: 0 for NULL (then {@link #wasNull} tells). */
    long integer(int column) throws SQLException;

    /** A REAL column as {@link ResultSet#getDouble}: 0 for NULL. */
    double real(int column) throws SQLException;

    /** Whether the column read last was NULL. */
    boolean wasNull() throws SQLException;

    /** The current row of a result set. */
    static StoredRow of(ResultSet rows) {
        return new StoredRow() {
            /**
             * The column's UTF-8 bytes from the driver, decoded here: measured faster per row than the
             * driver's getString (the driver gives no array for NULL, an empty one for '').
             */
            @Override
            public @Nullable String text(int column) throws SQLException {
                byte[] utf8 = rows.getBytes(column);
                return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
            }

            @Override
            public long integer(int column) throws SQLException {
                return rows.getLong(column);
            }

            @Override
            public double real(int column) throws SQLException {
                return rows.getDouble(column);
            }

            @Override
            public boolean wasNull() throws SQLException {
                return rows.wasNull();
            }
        };
    }
}
