package dev.hermes.state.core;

import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filter grid on PostgreSQL: the fixture's rows copied with their ids into a schema of the test
 * server, the same expectations (read from the SQLite copy) and the same answers.
 */
class SelectionGridPostgresTest extends SelectionGridContract {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Override
    StateRepository open(Path fixtureCopy, Clock clock) {
        Path source = dev.hermes.state.testsupport.Fixtures.copy("state-v17.db", folder("source"));
        StateRepository server = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).clock(clock).build();
        try (StateRepository from = StateRepository.builder().path(source).build()) {
            assertTrue(from.copyTo(server, CopyOptions.intoEmpty(), null).verified());
        }
        return server;
    }

    @Override
    void afterPrune(List<String> pruned) throws SQLException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            String in = "'" + String.join("','", pruned) + "'";
            try (var rows = statement.executeQuery("SELECT COUNT(*) FROM messages WHERE session_id IN (" + in + ")")) {
                rows.next();
                assertEquals(0, rows.getLong(1));
            }
        }
    }
}
