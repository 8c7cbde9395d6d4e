package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.codegen.EpochSecondsConverter;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit.ContextMessage;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MANIFEST's answers on migrated copies of the Python agent's own files: the v6 file, and the v2
 * file adopted by our migrator (same messages). Hermes v6's {@code search_messages(q, limit=50)} is the
 * reference; the three queries Hermes v2 failed on give the v6 answers here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixtureSearchTest {
    private static final List<String> FIXTURES = List.of("state-v6.db", "state-v2.db");

    private final Map<String, Connection> connections = new HashMap<>();
    private final Map<String, Transaction> readers = new HashMap<>();

    @BeforeAll
    void migrateCopies(@TempDir Path dir) throws SQLException {
        for (String fixture : FIXTURES) {
            Connection connection = SearchDatabases.open(SearchDatabases.migratedFixture(fixture, dir));
            connections.put(fixture, connection);
            readers.put(fixture, SearchDatabases.reader(connection));
        }
    }

    @AfterAll
    void close() throws SQLException {
        for (Connection connection : connections.values()) {
            connection.close();
        }
    }

    static Stream<Arguments> manifestAnswers() {
        List<Arguments> cases = new ArrayList<>();
        for (String fixture : FIXTURES) {
            cases.add(Arguments.of(fixture, "docker", List.of(30L, 31L, 79L, 80L)));
            cases.add(Arguments.of(fixture, "\"database migration\"", List.of(2L, 8L, 9L, 10L, 11L, 12L, 13L, 96L)));
            cases.add(Arguments.of(fixture, "deploy*", List.of(9L, 11L, 13L, 23L, 30L, 84L, 88L)));
            cases.add(Arguments.of(fixture, "数据库迁移", List.of(20L)));
            cases.add(Arguments.of(fixture, "ENDMARKER_7f3a", List.of(55L)));
            cases.add(Arguments.of(fixture, "kubernetes OR k8s", List.of(47L, 48L, 84L)));
            cases.add(Arguments.of(fixture, "迁移", List.of(20L, 21L, 91L, 92L)));
            cases.add(Arguments.of(fixture, "\"chat-send\"", List.of(42L, 46L)));
            cases.add(Arguments.of(fixture, "chat-send", List.of(42L, 46L)));
            cases.add(Arguments.of(fixture, "C++", List.of(49L, 50L)));
            cases.add(Arguments.of(fixture, "P2.2", List.of(42L, 46L)));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @MethodSource("manifestAnswers")
    void manifestAnswers(String fixture, String query, List<Long> expectedIds) {
        List<SearchHit> hits = search(fixture, SearchQuery.builder(query).limit(50).build());
        assertEquals(expectedIds, hits.stream().map(SearchHit::id).sorted().toList());
    }

    /** FTS hits come in FTS5 rank order: the same order as the raw MATCH ordered by rank (ties by id). */
    @ParameterizedTest
    @ValueSource(strings = {"docker", "\"database migration\"", "deploy*", "kubernetes OR k8s", "main", "the"})
    void ftsHitsAreInRankOrder(String query) throws SQLException {
        List<Long> raw = new ArrayList<>();
        try (PreparedStatement statement = connections.get("state-v6.db").prepareStatement(
                "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank, rowid LIMIT 50")) {
            statement.setString(1, query);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    raw.add(rows.getLong(1));
                }
            }
        }
        List<SearchHit> hits = search("state-v6.db", SearchQuery.builder(query).limit(50).build());
        assertEquals(raw, hits.stream().map(SearchHit::id).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v2.db"})
    void cjkFallbackIsNewestFirst(String fixture) {
        List<SearchHit> hits = search(fixture, SearchQuery.builder("迁移").limit(50).build());
        assertEquals(List.of(92L, 91L, 21L, 20L), hits.stream().map(SearchHit::id).toList());
        // the whole content: every match is within its first 40 characters and the messages are short
        assertEquals("数据库迁移已经完成，所有表都已验证。", hits.get(0).snippet());
        assertEquals("数据库迁移 问题：我们需要把 MySQL 迁移到 PostgreSQL，应该先做什么？", hits.get(3).snippet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v2.db"})
    void oneHitInFull(String fixture) throws SQLException {
        List<SearchHit> hits = search(fixture, SearchQuery.of("FastAPI"));
        SearchHit answer = hits.stream().filter(hit -> hit.id() == 65).findFirst().orElseThrow();
        // each fixture has its own generation-time timestamps
        assertEquals(new SearchHit(65, "20260313_123802_415804", "assistant",
                ">>>FastAPI<<< is a Python web framework built on Starlette and Pydantic.",
                epoch(fixture, "SELECT timestamp FROM messages WHERE id = 65"), null, "discord", "deepseek/deepseek-v3.2",
                epoch(fixture, "SELECT started_at FROM sessions WHERE id = '20260313_123802_415804'"),
                List.of(new ContextMessage("user", "What is FastAPI?"),
                        new ContextMessage("assistant", "FastAPI is a Python web framework built on Starlette and Pydantic."))),
                answer);
        assertEquals(List.of(64L, 65L), hits.stream().map(SearchHit::id).sorted().toList());
    }

    /** Session 8520da's messages 1-4 and 7 interleave with its delegate child's 5 and 6. */
    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v2.db"})
    void contextStaysInTheSession(String fixture) {
        SearchHit hit = search(fixture, SearchQuery.of("\"check mode\"")).get(0);
        assertEquals(7, hit.id());
        assertEquals(List.of(
                        new ContextMessage("tool", "{\"exit_code\": 0, \"output\": \"schema.sql written (412 lines)\"}"),
                        new ContextMessage("assistant", "The schema dump is ready. Next step: run pg_upgrade in check mode.")),
                hit.context());
        SearchHit delegate = search(fixture, SearchQuery.of("Subtask")).get(0);
        assertEquals(5, delegate.id());
        assertEquals(List.of(
                        new ContextMessage("user", "Subtask: list all tables with foreign keys in schema.sql"),
                        new ContextMessage("assistant", "Found 14 tables with foreign keys; orders -> customers is the largest.")),
                delegate.context());
    }

    /** The 102,400-character tool message: snippet around the marker, context cut to 200 characters. */
    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v2.db"})
    void hugeMessage(String fixture) {
        SearchHit hit = search(fixture, SearchQuery.of("ENDMARKER_7f3a")).get(0);
        assertEquals(55, hit.id());
        assertEquals("tool", hit.role());
        assertEquals("slack", hit.source());
        assertTrue(hit.snippet().startsWith("..."), hit.snippet());
        assertTrue(hit.snippet().endsWith("\n2026-0\n>>>ENDMARKER_7f3a<<< tail of build log\n"), hit.snippet());
        assertEquals(3, hit.context().size());
        assertEquals(new ContextMessage("assistant", ""), hit.context().get(0));
        assertEquals(200, hit.context().get(1).content().length());
        assertTrue(hit.context().get(1).content().startsWith("2026-03-15T09:00:00Z INFO worker-0 processed batch 00000 ok\n"));
        assertEquals(new ContextMessage("assistant", "The build succeeded; see the attached tool output."), hit.context().get(2));
    }

    /** A NULL content (assistant turn that only called tools) is "" in the context, as Hermes writes it. */
    @ParameterizedTest
    @ValueSource(strings = {"state-v6.db", "state-v2.db"})
    void nullContentIsEmptyInContext(String fixture) {
        SearchHit hit = search(fixture, SearchQuery.builder("#438").roleFilter(List.of("user")).build()).get(0);
        assertEquals(24, hit.id());
        assertEquals(List.of(new ContextMessage("user", "Review PR #438 please"), new ContextMessage("assistant", "")),
                hit.context());
        assertEquals("Review PR #>>>438<<< please", hit.snippet());
    }

    private List<SearchHit> search(String fixture, SearchQuery query) {
        return SearchDatabases.search(readers.get(fixture), query);
    }

    private Instant epoch(String fixture, String sql) throws SQLException {
        try (PreparedStatement statement = connections.get(fixture).prepareStatement(sql);
             ResultSet row = statement.executeQuery()) {
            row.next();
            return new EpochSecondsConverter().from(row.getDouble(1));
        }
    }
}
