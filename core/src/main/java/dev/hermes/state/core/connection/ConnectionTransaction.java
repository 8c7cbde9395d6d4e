package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import org.jooq.DSLContext;

import java.sql.SQLException;
import java.util.function.Function;

/**
 * The {@link Transaction} of one connection: its jOOQ context, its cache of prepared statements and the
 * store's schema (read in the first transaction that asks for it).
 */
record ConnectionTransaction(DSLContext dsl, StatementCache statements, Function<Transaction, StoreSchema> schemaOf)
        implements Transaction {

    @Override
    public StoreSchema schema() {
        return schemaOf.apply(this);
    }

    @Override
    public <T> T withStatement(String sql, StatementWork<T> work) throws SQLException {
        return statements.use(sql, work);
    }
}
