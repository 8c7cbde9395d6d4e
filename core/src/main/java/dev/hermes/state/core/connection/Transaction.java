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

    public DSLContext dsl() {
        return dsl;
    }

    /** The statement for {@code sql}, prepared on first use and kept until the store closes. */
    public PreparedStatement prepared(String sql) throws SQLException {
        return statements.get(sql);
    }
}
