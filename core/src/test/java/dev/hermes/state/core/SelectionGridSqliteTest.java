package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.testsupport.Fixtures;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The filter grid on a SQLite copy of today's agent's file; after a prune both full-text indexes pass their integrity check. */
class SelectionGridSqliteTest extends SelectionGridContract {
    private Path file;

    @Override
    StateRepository open(Path fixtureCopy, Clock clock) {
        file = Fixtures.copy("state-v17.db", folder("store"));
        return StateRepository.builder().path(file).clock(clock).build();
    }

    /**
     * The word index passes FTS5's integrity-check (rank 1: index and messages agree). The trigram
     * index of the agent's file fails that check before any change under the driver's newer SQLite
     * (the agent's SQLite tokenized it), so for it the test asserts what a prune must keep: one index
     * row per message left, none for a deleted one.
     */
    @Override
    void afterPrune(List<String> pruned) throws SQLException {
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)");
            for (String index : List.of("messages_fts", "messages_fts_trigram")) {
                try (var rows = statement.executeQuery("SELECT (SELECT COUNT(*) FROM " + index + "), (SELECT COUNT(*) FROM messages),"
                        + " (SELECT COUNT(*) FROM " + index + " WHERE rowid NOT IN (SELECT id FROM messages))")) {
                    rows.next();
                    assertEquals(rows.getLong(2), rows.getLong(1), index + ": one index row per message left");
                    assertEquals(0, rows.getLong(3), index + ": no row of a deleted message");
                }
            }
            String in = "'" + String.join("','", pruned) + "'";
            try (var rows = statement.executeQuery("SELECT COUNT(*) FROM messages WHERE session_id IN (" + in + ")")) {
                rows.next();
                assertEquals(0, rows.getLong(1));
            }
        }
    }
}
