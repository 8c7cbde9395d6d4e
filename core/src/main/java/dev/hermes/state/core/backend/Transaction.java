package dev.hermes.state.core.backend;

import org.jooq.DSLContext;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The open transaction handed to a unit of work (a read snapshot or a write): the jOOQ context
 * bound to its connection, and statements kept prepared on that connection across transactions
 * (what {@link PreparedQuery} runs on). Valid only while the work runs; never commit or roll back
 * through it.
 */
public interface Transaction {

    /** What a caller does with a statement: bind, execute, read what it needs. */
    @FunctionalInterface
    interface StatementWork<T> {
        T run(PreparedStatement statement) throws SQLException;
    }

    /** The jOOQ context of the store's one configuration, on this transaction's connection. */
    DSLContext dsl();

    /** What the store's database holds of Hermes' schema, and whose rules its answers follow. */
    StoreSchema schema();

    /**
     * Runs {@code work} on the statement for {@code sql}, prepared on first use and kept until the
     * store closes (or until it fails: then the next use prepares it afresh).
     */
    <T> T withStatement(String sql, StatementWork<T> work) throws SQLException;

    /** The distinct values of the first column of {@code sql} run with {@code arguments}: names of tables, columns... */
    default Set<String> names(String sql, String... arguments) throws SQLException {
        return withStatement(sql, statement -> {
            for (int i = 0; i < arguments.length; i++) {
                statement.setString(i + 1, arguments[i]);
            }
            Set<String> names = new HashSet<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        });
    }

    /**
     * In a write transaction on an engine that can tell ({@link Backend#otherConnectionsVersion}), where
     * it stands among the store's writes; empty in a read transaction, and where the engine cannot tell.
     */
    Optional<WriteStamp> writeStamp() throws SQLException;
}
