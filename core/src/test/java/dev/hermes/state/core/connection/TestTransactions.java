package dev.hermes.state.core.connection;

import dev.hermes.state.core.backend.Transaction;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

import java.sql.Connection;

/**
 * A {@link Transaction} over a plain connection, for tests and harnesses that run the store's queries
 * (the search, say) on a file they opened themselves, outside a {@link Database}. Its statements stay
 * prepared on the connection until the connection closes; one thread at a time, like the store's.
 */
public final class TestTransactions {
    private TestTransactions() {
    }

    public static Transaction over(Connection connection) {
        return new ConnectionTransaction(DSL.using(Database.configuration(SQLDialect.SQLITE).derive(connection)),
                new StatementCache(connection));
    }
}
