package dev.hermes.state.core.connection;

import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.backend.sqlite.SqliteBackend;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Transaction} over a plain connection, for tests and harnesses that run the store's queries
 * (the search, say) on a file they opened themselves, outside a {@link Database}. Its statements stay
 * prepared on the connection until the connection closes; one thread at a time, like the store's.
 */
public final class TestTransactions {
    private TestTransactions() {
    }

    public static Transaction over(Connection connection) {
        AtomicReference<StoreSchema> schema = new AtomicReference<>();
        SqliteBackend backend = new SqliteBackend(RetryPolicy.HERMES);
        return new ConnectionTransaction(DSL.using(Database.configuration(SQLDialect.SQLITE).derive(connection)),
                new StatementCache(connection), transaction -> schema.updateAndGet(known -> known != null ? known
                : read(transaction, backend)), ConnectionTransaction.Stamps.NONE);
    }

    /** The rules of the file as it is (a target of 6 lets its own version choose: 6 or 17). */
    private static StoreSchema read(Transaction transaction, SqliteBackend backend) {
        try {
            return StoreSchema.read(transaction, backend, Migrator.KEPT_VERSION);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
