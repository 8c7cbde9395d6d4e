package dev.hermes.state.core.search;

import org.sqlite.SQLiteConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prepared statements kept open per SQLite connection, so that a statement's SQL is compiled once per
 * connection rather than once per use (for a selective search the compilation costs more than the
 * search). Keyed by the physical connection behind a pool's proxy: a pooled connection finds its
 * statements again on every loan. Closing a connection closes its statements; the cache then prepares
 * anew. At most {@link #MAX_CONNECTIONS} connections are remembered (least recently used first out,
 * their statements closed), so connections that are closed and dropped are not held for long.
 *
 * <p>An open, reset statement holds no lock and no read snapshot; it only keeps its compiled program.
 */
final class StatementCache {
    static final int MAX_CONNECTIONS = 32;

    private final Map<Connection, Map<String, PreparedStatement>> byConnection =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Connection, Map<String, PreparedStatement>> eldest) {
                    if (size() <= MAX_CONNECTIONS) {
                        return false;
                    }
                    eldest.getValue().values().forEach(StatementCache::closeWhenFree);
                    return true;
                }
            };

    /** What a caller does with a statement: bind, execute, read everything it needs. */
    @FunctionalInterface
    interface StatementWork<T> {
        T run(PreparedStatement statement) throws SQLException;
    }

    /**
     * Runs {@code work} on the cached statement for {@code sql} on {@code connection}, prepared if needed.
     * One use of a statement at a time, even on a connection that several threads share.
     */
    <T> T use(Connection connection, String sql, StatementWork<T> work) throws SQLException {
        PreparedStatement statement = prepare(connection, sql);
        synchronized (statement) {
            if (statement.isClosed()) {
                // evicted since prepare (more than MAX_CONNECTIONS connections in turn): use a fresh one once
                try (PreparedStatement once = connection.prepareStatement(sql)) {
                    return work.run(once);
                }
            }
            try {
                return work.run(statement);
            } catch (SQLException | RuntimeException failure) {
                // a statement that failed while stepping can stay unusable ("statement is not executing"):
                // close it, so the next use on this connection prepares it afresh
                closeWhenFree(statement);
                throw failure;
            }
        }
    }

    private synchronized PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        Connection physical = connection.isWrapperFor(SQLiteConnection.class)
                ? connection.unwrap(SQLiteConnection.class)
                : connection;
        Map<String, PreparedStatement> statements = byConnection.computeIfAbsent(physical, key -> new HashMap<>());
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = physical.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    private static void closeWhenFree(PreparedStatement statement) {
        synchronized (statement) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // the connection is gone or going: nothing is left to release
            }
        }
    }
}
