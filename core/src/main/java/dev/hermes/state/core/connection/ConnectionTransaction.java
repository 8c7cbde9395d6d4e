package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.backend.WriteStamp;
import org.jooq.DSLContext;

import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@link Transaction} of one connection: its jOOQ context, its cache of prepared statements, the
 * store's schema (read in the first transaction that asks for it) and, on the writer, its write stamps.
 */
record ConnectionTransaction(DSLContext dsl, StatementCache statements, Function<Transaction, StoreSchema> schemaOf,
                             Stamps stamps) implements Transaction {

    /** Where a transaction on this connection stands among the store's writes (none for a reader's). */
    @FunctionalInterface
    interface Stamps {
        Stamps NONE = transaction -> Optional.empty();

        Optional<WriteStamp> of(Transaction transaction) throws SQLException;
    }

    @Override
    public StoreSchema schema() {
        return schemaOf.apply(this);
    }

    @Override
    public <T> T withStatement(String sql, StatementWork<T> work) throws SQLException {
        return statements.use(sql, work);
    }

    @Override
    public Optional<WriteStamp> writeStamp() throws SQLException {
        return stamps.of(this);
    }
}
