package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.TestStores;
import dev.hermes.state.core.backend.MessageSearch;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.connection.TestTransactions;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;
import dev.hermes.state.testsupport.Fixtures;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Real state.db files for the search tests: migrated copies of the Python agent's fixtures, and new
 * files (schema by the project's migrator) filled row by row with plain JDBC, the way the agent
 * writes them (the FTS index is kept by the schema's triggers).
 */
final class SearchDatabases {
    private SearchDatabases() {
    }

    /** A copy of fixture {@code name} in {@code dir}, mode 0600, migrated to version 6. */
    static Path migratedFixture(String name, Path dir) {
        Path copy = Fixtures.copy(name, dir);
        Migrator.create().toVersion(Migrator.KEPT_VERSION).migrate(copy);
        return copy;
    }

    /** A new, empty version-6 state.db in {@code dir}. */
    static Path newDatabase(Path dir) {
        return TestStores.newDatabase(dir);
    }

    static Connection open(Path file) throws SQLException {
        return SqliteConnections.open(file, RetryPolicy.HERMES, false);
    }

    /** The search of the tests: one instance, so that its statements are rendered once, as in a store. */
    static final MessageSearch SEARCH = new SqliteMessageSearch();

    /** {@link #SEARCH} on {@code reader}, for tests that expect no database failure (one fails the test). */
    static List<SearchHit> search(Transaction reader, SearchQuery query) {
        try {
            return SEARCH.search(reader, query);
        } catch (SQLException failure) {
            throw new AssertionError("The search failed: " + failure.getMessage(), failure);
        }
    }

    /** The search's reader on {@code connection}: its statements stay prepared there. */
    static Transaction reader(Connection connection) {
        return TestTransactions.over(connection);
    }
}
