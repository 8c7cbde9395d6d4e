package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same messages on both engines give the same set of hits for the same query (rank order may
 * differ), except in a message with more words than a tsvector can place (there PostgreSQL may miss a
 * phrase, and so also find it through a NOT of that phrase): the Python agent's v6 file, and its rows copied with their ids into a PostgreSQL store, are
 * searched with every word of the file, its prefixes, adjacent pairs as phrases, operator
 * combinations, CJK substrings and input Hermes fails on.
 */
class SearchEquivalenceTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Test
    void everyQueryFindsTheSameMessagesOnBothEngines() throws SQLException {
        Path file = Fixtures.copy("state-v6.db", dir);
        Migrator.create().toVersion(Migrator.KEPT_VERSION).migrate(file);
        try (StateRepository sqlite = StateRepository.open(file);
             StateRepository server = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            copyRows(file);
            // A tsvector keeps 256 positions per word and positions up to 16383: in a longer message a
            // phrase (or a word split into a phrase) may not be found. The file has one: a 1,700-line log.
            List<Long> beyondLimits = beyondTsvectorLimits();
            assertEquals(List.of(55L), beyondLimits);
            List<String> queries = queries(file);
            assertTrue(queries.size() > 300, "queries: " + queries.size());
            Map<String, List<Long>> differences = new LinkedHashMap<>();
            int withHits = 0;
            for (String query : queries) {
                List<Long> expected = ids(sqlite, query);
                List<Long> actual = ids(server, query);
                List<Long> expectedWithinLimits = new ArrayList<>(expected);
                expectedWithinLimits.removeAll(beyondLimits);
                List<Long> actualWithinLimits = new ArrayList<>(actual);
                actualWithinLimits.removeAll(beyondLimits);
                if (!expectedWithinLimits.equals(actualWithinLimits)) {
                    differences.put(query + " sqlite=" + expected, actual);
                }
                withHits += expected.isEmpty() ? 0 : 1;
            }
            assertEquals(Map.of(), differences);
            assertTrue(withHits > 150, "queries with hits: " + withHits);
        }
    }

    /** The messages with more words than their tsvector can place (SQL on the server, from the schema's own tokens). */
    private List<Long> beyondTsvectorLimits() throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            try (ResultSet rows = statement.executeQuery("SELECT m.id FROM messages m"
                    + " WHERE cardinality(messages_search_tokens(m.content)) > 16383"
                    + " OR EXISTS (SELECT 1 FROM unnest(messages_search_tokens(m.content)) AS t(word)"
                    + " GROUP BY t.word HAVING count(*) > 256) ORDER BY m.id")) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    private static List<Long> ids(StateRepository store, String query) {
        List<Long> ids = new ArrayList<>(store.searchMessages(SearchQuery.builder(query).limit(Integer.MAX_VALUE).build())
                .stream().map(SearchHit::id).toList());
        Collections.sort(ids);
        return ids;
    }

    /** Every word, its first three letters as a prefix, adjacent pairs as phrases and with operators; CJK substrings; odd input. */
    private static List<String> queries(Path file) throws SQLException {
        List<String> picked = List.of("C++", "foo@bar.com", "what's", "-v", "a:b", "#438", "P2.2",
                "chat-send", "\"chat-send\"", "kubernetes OR k8s", "docker NOT compose", "deploy* AND database",
                "\"database migration\"", "数据库迁移", "迁移", "移", "数据", "データ", "백업", "AND OR", "ENDMARKER_7f3a");
        TreeSet<String> queries = new TreeSet<>();
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT content FROM messages WHERE content IS NOT NULL ORDER BY id")) {
            String previous = null;
            while (rows.next()) {
                for (String word : rows.getString(1).split("\\s+")) {
                    if (word.isEmpty()) {
                        continue;
                    }
                    queries.add(word);
                    if (word.codePointCount(0, word.length()) > 3) {
                        queries.add(word.substring(0, word.offsetByCodePoints(0, 3)) + "*");
                    }
                    if (previous != null) {
                        queries.add("\"" + previous.replace("\"", "") + " " + word.replace("\"", "") + "\"");
                        queries.add(previous + " OR " + word);
                        queries.add(previous + " NOT " + word);
                    }
                    previous = word;
                }
            }
        }
        // the hand-picked ones, and an even sample of the rest (all of them would take minutes)
        queries.removeAll(picked);
        List<String> all = new ArrayList<>(queries);
        List<String> sample = new ArrayList<>(picked);
        int step = Math.max(1, all.size() / 600);
        for (int i = 0; i < all.size(); i += step) {
            sample.add(all.get(i));
        }
        return sample;
    }

    /** The file's sessions and messages, ids kept, into the server's store (parents set once all exist). */
    private void copyRows(Path file) throws SQLException {
        try (Connection from = SqliteFiles.readWriteWithForeignKeys(file); Connection to = postgres.connect()) {
            try (Statement statement = to.createStatement()) {
                statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            }
            to.setAutoCommit(false);
            copy(from, to, "sessions", "SELECT * FROM sessions ORDER BY rowid", "parent_session_id");
            copy(from, to, "messages", "SELECT * FROM messages ORDER BY id", null);
            try (PreparedStatement parents = to.prepareStatement("UPDATE sessions SET parent_session_id = ? WHERE id = ?");
                 Statement statement = from.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT parent_session_id, id FROM sessions WHERE parent_session_id IS NOT NULL")) {
                while (rows.next()) {
                    parents.setString(1, rows.getString(1));
                    parents.setString(2, rows.getString(2));
                    parents.executeUpdate();
                }
            }
            to.commit();
        }
    }

    private static void copy(Connection from, Connection to, String table, String select, String leftNull) throws SQLException {
        try (Statement statement = from.createStatement(); ResultSet rows = statement.executeQuery(select)) {
            ResultSetMetaData meta = rows.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnName(i));
            }
            String sql = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                    + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
            try (PreparedStatement insert = to.prepareStatement(sql)) {
                while (rows.next()) {
                    for (int i = 1; i <= columns.size(); i++) {
                        Object value = columns.get(i - 1).equals(leftNull) ? null : rows.getObject(i);
                        insert.setObject(i, value);
                    }
                    insert.executeUpdate();
                }
            }
        }
    }
}
