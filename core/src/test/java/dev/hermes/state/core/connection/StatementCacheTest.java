package dev.hermes.state.core.connection;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Statements kept prepared per connection, and what happens to one that failed. */
class StatementCacheTest {

    @Test
    void aStatementThatFailedWhileSteppingIsPreparedAfresh() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            StatementCache cache = new StatementCache(connection);
            String sql = "SELECT json(?)";
            SQLException malformed = assertThrows(SQLException.class, () -> cache.use(sql, statement -> {
                statement.setString(1, "[1");
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next();
                }
            }));
            assertTrue(malformed.getMessage().contains("malformed JSON"), malformed.getMessage());
            // sqlite-jdbc leaves such a statement "not executing" for good; the cache must not hand it out again
            assertEquals("[1]", cache.use(sql, statement -> {
                statement.setString(1, "[1]");
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return rows.getString(1);
                }
            }));
        }
    }

    @Test
    void statementsAreReusedAndClosedWithTheCache() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            StatementCache cache = new StatementCache(connection);
            var first = cache.use("SELECT 1", statement -> statement);
            var second = cache.use("SELECT 1", statement -> statement);
            assertTrue(first == second, "the same prepared statement");
            cache.closeAll();
            assertTrue(first.isClosed());
        }
    }
}
