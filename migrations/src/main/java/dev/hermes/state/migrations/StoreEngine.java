package dev.hermes.state.migrations;

import dev.hermes.state.JdbcFailures;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.StateIOException;
import dev.hermes.state.postgresql.PostgresErrors;
import dev.hermes.state.sqlite.SqliteErrors;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The engine a store is on, told once from where it is (a file, a PostgreSQL URL, the database product
 * an application's connection names), and the rules its failures are typed by. SQLite's need nothing
 * but this library; PostgreSQL's are its module's, which a user of files leaves out: choosing them on
 * a class path without it is refused, naming the artifact to add ({@link PostgresSupport}).
 */
public enum StoreEngine {
    SQLITE,
    POSTGRESQL;

    /** The database product JDBC names for a PostgreSQL server. */
    private static final String POSTGRESQL_PRODUCT = "PostgreSQL";

    /**
     * Failures before the engine is known (an application's DataSource before its first connection
     * answers): one to connect is an I/O failure, whichever engine it was meant for; anything else,
     * typed by SQLite's result codes (only SQLite raises failures that carry them).
     */
    public static final RetryPolicy.Failures UNDECIDED = new RetryPolicy.Failures() {
        @Override
        public boolean isRetryable(Throwable failure) {
            return SqliteErrors.FAILURES.isRetryable(failure);
        }

        @Override
        public RuntimeException translate(Throwable failure, String what) {
            if (JdbcFailures.isConnectionFailure(failure)) {
                return new StateIOException("Cannot connect while " + what + ": " + failure.getMessage(), failure);
            }
            return SqliteErrors.FAILURES.translate(failure, what);
        }
    };

    /** The engine a database product name stands for: PostgreSQL's, else SQLite (the only other engine of a store). */
    public static StoreEngine ofProduct(@Nullable String product) {
        return POSTGRESQL_PRODUCT.equals(product) ? POSTGRESQL : SQLITE;
    }

    /** The engine of the database behind an application's connection; a failure to tell is typed by {@link #UNDECIDED}. */
    public static StoreEngine of(Connection connection) {
        try {
            return ofProduct(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw UNDECIDED.translate(e, "reading the connection's database product");
        }
    }

    /**
     * How this engine's failures are typed.
     *
     * @throws dev.hermes.state.InvalidArgumentException PostgreSQL's, on a class path without its module
     */
    public RetryPolicy.Failures failures() {
        if (this == SQLITE) {
            return SqliteErrors.FAILURES;
        }
        PostgresSupport.requireForMigration();
        return PostgresErrors.FAILURES;
    }
}
