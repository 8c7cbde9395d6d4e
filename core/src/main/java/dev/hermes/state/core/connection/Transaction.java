package dev.hermes.state.core.connection;

import org.jooq.DSLContext;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The open transaction handed to a unit of work (a read snapshot or a write): the jOOQ context
 * bound to its connection, and statements kept prepared on that connection across transactions.
 * For the hottest and the most complex queries, compiling the SQL (jOOQ's rendering plus SQLite's
 * prepare) costs more than running it; those are rendered once and prepared once per connection.
 * Valid only while the work runs; never commit or roll back through it.
 */
public final class Transaction {
    private final DSLContext dsl;
    private final StatementCache statements;

    Transaction(DSLContext dsl, StatementCache statements) {
        this.dsl = dsl;
        this.statements = statements;
    }

    /** What a caller does with a statement: bind, execute, read what it needs. */
    @FunctionalInterface
    public interface StatementWork<T> {
        T run(PreparedStatement statement) throws SQLException;
    }

    public DSLContext dsl() {
        return dsl;
    }

    /**
     * Runs {@code work} on the statement for {@code sql}, prepared on first use and kept until the
     * store closes (or until it fails: then the next use prepares it afresh).
     */
    public <T> T withStatement(String sql, StatementWork<T> work) throws SQLException {
        return statements.use(sql, work);
    }
}
