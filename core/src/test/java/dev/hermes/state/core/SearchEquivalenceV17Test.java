package dev.hermes.state.core;

import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.rows.StoredContent;
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
 * The same messages on both engines give the same set of hits by today's agent's rules: state-v17.db,
 * and its rows copied with their ids into a PostgreSQL store at schema 17, searched (rewound rows left
 * out, and with include_inactive) with every word of the file, its tool names, CJK substrings of one
 * to six characters (the substring search below three, the trigram index from three), CJK words joined
 * by OR and NOT, and words mixed with punctuation and operators in any case (an even sample of them).
 * As for version 6 ({@link SearchEquivalenceTest}), a message with more words than a tsvector can place
 * is left out of the comparison: PostgreSQL may miss a phrase in it.
 */
class SearchEquivalenceV17Test {
    @TempDir
    Path dir;

    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @Test
    void everyQueryFindsTheSameMessagesOnBothEnginesByTodaysRules() throws SQLException {
        Path file = Fixtures.copy("state-v17.db", dir);
        try (StateRepository sqlite = StateRepository.builder().path(file).schemaVersion(17).build();
             StateRepository server = StateRepository.builder().url(postgres.url()).schema(postgres.schema())
                     .schemaVersion(17).build()) {
            assertEquals(0, server.sessionCount()); // the store's schema exists before the rows are copied
            copyRows(file);
            List<Long> beyondLimits = beyondTsvectorLimits();
            assertEquals(List.of(55L), beyondLimits); // the 1,700-line log of the v6 data set
            List<String> queries = queries(file);
            assertTrue(queries.size() > 250, "queries: " + queries.size());
            Map<String, List<Long>> differences = new LinkedHashMap<>();
            int withHits = 0;
            for (String query : queries) {
                for (boolean inactive : List.of(false, true)) {
                    List<Long> expected = ids(sqlite, query, inactive);
                    List<Long> actual = ids(server, query, inactive);
                    expected.removeAll(beyondLimits);
                    actual.removeAll(beyondLimits);
                    if (!expected.equals(actual)) {
                        differences.put(query + (inactive ? " (inactive too)" : "") + " sqlite=" + expected, actual);
                    }
                    withHits += expected.isEmpty() ? 0 : 1;
                }
            }
            assertEquals(Map.of(), differences);
            assertTrue(withHits > 150, "queries with hits: " + withHits);
        }
    }

    /** The messages whose indexed text has more words than their tsvector can place (SQL on the server). */
    private List<Long> beyondTsvectorLimits() throws SQLException {
        List<Long> ids = new ArrayList<>();
        String text = "coalesce(m.content, '') || ' ' || coalesce(m.tool_name, '') || ' ' || coalesce(m.tool_calls, '')";
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            try (ResultSet rows = statement.executeQuery("SELECT m.id FROM messages m"
                    + " WHERE cardinality(messages_search_tokens(" + text + ")) > 16383"
                    + " OR EXISTS (SELECT 1 FROM unnest(messages_search_tokens(" + text + ")) AS t(word)"
                    + " GROUP BY t.word HAVING count(*) > 256) ORDER BY m.id")) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    private static List<Long> ids(StateRepository store, String query, boolean includeInactive) {
        List<Long> ids = new ArrayList<>(store.searchMessages(SearchQuery.builder(query).limit(Integer.MAX_VALUE)
                .includeInactive(includeInactive).build()).stream().map(SearchHit::id).toList());
        Collections.sort(ids);
        return ids;
    }

    private static List<String> queries(Path file) throws SQLException {
        List<String> picked = List.of("星图", "射电望远镜", "orrery_lookup", "magnetar", "meteorite",
                "nebula", "image_url", "json", "sample_ledger", "射电 OR 星图", "射电望远镜 OR 数据", "望远镜 NOT 原始",
                "望远镜 AND OR 星图", "望远镜 or 射电", "\"射电望远镜\"", "星图*", "FITS 射电望远镜", "TODO: fix", "chat-send",
                "P2.2", "foo_bar", "deploy*", "Deploy OR encke", "a:b", "what's", "C++", "100%", "好的");
        TreeSet<String> queries = new TreeSet<>();
        try (Connection connection = SqliteFiles.readWriteWithForeignKeys(file); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT content, tool_name FROM messages ORDER BY id")) {
            String previousCjk = null;
            while (rows.next()) {
                String content = rows.getString(1);
                if (rows.getString(2) != null) {
                    queries.add(rows.getString(2));
                }
                if (content == null) {
                    continue;
                }
                for (String word : content.split("\\s+")) {
                    if (!word.isEmpty() && word.codePoints().noneMatch(Character::isISOControl)) {
                        queries.add(word);
                    }
                }
                for (String run : content.split("[^\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}]+")) {
                    for (int length = 1; length <= 6 && length <= run.length(); length++) {
                        queries.add(run.substring(0, length));
                        queries.add(run.substring(run.length() - length));
                    }
                    if (run.length() >= 2 && previousCjk != null) {
                        queries.add(previousCjk + " OR " + run);
                        queries.add(previousCjk + " NOT " + run);
                    }
                    if (run.length() >= 2) {
                        previousCjk = run;
                    }
                }
            }
        }
        // the hand-picked ones, and an even sample of the rest (all of them take minutes on the server)
        queries.removeAll(picked);
        List<String> all = new ArrayList<>(queries);
        List<String> sample = new ArrayList<>(picked);
        int step = Math.max(1, all.size() / 300);
        for (int i = 0; i < all.size(); i += step) {
            sample.add(all.get(i));
        }
        return sample;
    }

    /**
     * The file's sessions and messages, ids kept, into the server's store (parents set once all exist;
     * structured content under PostgreSQL's marker, its text having no NUL).
     */
    private void copyRows(Path file) throws SQLException {
        try (Connection from = SqliteFiles.readWriteWithForeignKeys(file); Connection to = postgres.connect()) {
            try (Statement statement = to.createStatement()) {
                statement.execute("SET search_path TO \"" + postgres.schema() + "\"");
            }
            to.setAutoCommit(false);
            copy(from, to, "sessions", "SELECT * FROM sessions ORDER BY rowid");
            copy(from, to, "messages", "SELECT * FROM messages ORDER BY id");
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

    private static void copy(Connection from, Connection to, String table, String select) throws SQLException {
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
                        String column = columns.get(i - 1);
                        Object value = column.equals("parent_session_id") ? null : rows.getObject(i);
                        if (column.equals("content") && value instanceof String text) {
                            value = StoredContent.forEngine(text, false);
                        }
                        insert.setObject(i, value);
                    }
                    insert.executeUpdate();
                }
            }
        }
    }
}
