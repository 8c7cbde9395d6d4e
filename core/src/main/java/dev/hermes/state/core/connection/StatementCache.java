package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.Transaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Statements kept prepared on one connection, by SQL text; used by one thread at a time (the
 * connection's: the store lends a connection to one unit of work at a time, so no locking here).
 * Bounded, least recently used out, so queries of many shapes cannot pile up; the store's own use
 * stays well below the bound (on a read connection about 25, the search's 16 shapes among them). An
 * open statement that has been reset holds no lock and no snapshot, only its compiled program.
 */
final class StatementCache {
    private static final int MAX_STATEMENTS = 64;

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= MAX_STATEMENTS) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    StatementCache(Connection connection) {
        this.connection = connection;
    }

    /**
     * Runs {@code work} on the statement for {@code sql}. A statement that failed is closed and
     * forgotten: after an error while stepping, sqlite-jdbc can leave it unusable ("statement is not
     * executing"), and the next use (a retry, say) must get a fresh one.
     */
    <T> T use(String sql, Transaction.StatementWork<T> work) throws SQLException {
        PreparedStatement statement = get(sql);
        try {
            return work.run(statement);
        } catch (SQLException | RuntimeException failure) {
            statements.remove(sql);
            closeQuietly(statement);
            throw failure;
        }
    }

    /** Executes a statement without parameters or result rows ({@code BEGIN}, {@code COMMIT}...). */
    void execute(String sql) throws SQLException {
        use(sql, PreparedStatement::execute);
    }

    private PreparedStatement get(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    void closeAll() {
        statements.values().forEach(StatementCache::closeQuietly);
        statements.clear();
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // closing is best effort
        }
    }
}
