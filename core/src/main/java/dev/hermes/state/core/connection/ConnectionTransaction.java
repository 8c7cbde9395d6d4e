package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.Transaction;
import org.jooq.DSLContext;

import java.sql.SQLException;

/** The {@link Transaction} of one connection: its jOOQ context and its cache of prepared statements. */
record ConnectionTransaction(DSLContext dsl, StatementCache statements) implements Transaction {

    @Override
    public <T> T withStatement(String sql, StatementWork<T> work) throws SQLException {
        return statements.use(sql, work);
    }
}
