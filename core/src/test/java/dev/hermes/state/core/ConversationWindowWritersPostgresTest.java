package dev.hermes.state.core;

import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link ConversationWindowWritersContract} on PostgreSQL, where nothing tells a store whether another
 * connection committed: every save reads its window, and the writes in between are seen all the same.
 */
class ConversationWindowWritersPostgresTest extends ConversationWindowWritersContract {

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Override
    StateRepository open() {
        return StateRepository.builder().url(postgres.url()).schema(postgres.schema())
                .schemaVersion(Migrator.LATEST_VERSION).build();
    }

    @Override
    Connection plainConnection() throws SQLException {
        Connection connection = postgres.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
        }
        return connection;
    }
}
