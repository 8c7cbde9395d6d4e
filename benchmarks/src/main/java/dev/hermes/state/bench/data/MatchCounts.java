package dev.hermes.state.bench.data;

import dev.hermes.state.bench.data.SearchCases.SearchCase;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the W2 queries' matches ({@code SELECT count(*) FROM messages_fts WHERE messages_fts MATCH q}).
 * {@link #ofContents} indexes the generated W1 contents in a throw-away FTS5 table, so that the appendix
 * counts can be checked before anything is measured; {@link #inDatabase} counts in a real state.db.
 */
public final class MatchCounts {
    private static final String COUNT = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?";

    private MatchCounts() {
    }

    /** Indexes {@code contents} in a temporary FTS5 table (default tokenizer, as in state.db) under {@code scratchFolder}. */
    public static Map<String, Long> ofContents(List<String> contents, Path scratchFolder) throws Exception {
        Path file = Files.createTempFile(scratchFolder, "match-counts", ".db");
        try (Connection connection = SqliteConnections.open(file, RetryPolicy.HERMES, false)) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode=OFF");
                statement.execute("PRAGMA synchronous=OFF");
                statement.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(content)");
            }
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO messages_fts(content) VALUES (?)")) {
                for (String content : contents) {
                    insert.setString(1, content);
                    insert.executeUpdate();
                }
            }
            connection.commit();
            connection.setAutoCommit(true);
            return count(connection);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The counts in a state.db, on a plain read-only connection. */
    public static Map<String, Long> inDatabase(Path stateDb) throws SQLException {
        try (Connection connection = SqliteConnections.open(stateDb, RetryPolicy.HERMES, true)) {
            return count(connection);
        }
    }

    private static Map<String, Long> count(Connection connection) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(COUNT)) {
            for (SearchCase searchCase : SearchCases.ALL) {
                query.setString(1, searchCase.query());
                try (ResultSet rows = query.executeQuery()) {
                    rows.next();
                    counts.put(searchCase.query(), rows.getLong(1));
                }
            }
        }
        return counts;
    }

    /** Differences from the appendix for a size; empty when they agree or the appendix has no figures for it. */
    public static List<String> mismatches(Map<String, Long> counts, int sessions, int messagesPerSession) {
        List<String> problems = new ArrayList<>();
        for (SearchCase searchCase : SearchCases.ALL) {
            long expected = SearchCases.expectedMatches(searchCase, sessions, messagesPerSession);
            Long actual = counts.get(searchCase.query());
            if (expected >= 0 && (actual == null || actual != expected)) {
                problems.add("matches of " + searchCase.query() + ": expected " + expected + " but found " + actual);
            }
        }
        return problems;
    }
}
