package dev.hermes.state.core;

import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.testsupport.SqliteFiles;
import dev.hermes.state.core.model.SchemaRules;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.ParameterizedTest;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.TokenUsage;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real files the Python agent wrote ({@link Fixtures}, see their MANIFEST.md): a version-6
 * file opened as it is, and a version-2 file adopted on open. Expected values are the MANIFEST's.
 */
class FixturesTest {
    static final String L1 = "20260310_090000_8520da";
    static final String DELEGATE = "20260310_090500_53bef4";
    static final String L2 = "20260310_113000_6c0e5a";
    static final String L3 = "20260310_125900_7d739b";
    static final String L4 = "20260310_135900_0957cb";

    /** list_sessions_rich(limit=50) first six rows: (id, preview), the same in every version. */
    static final List<List<String>> FIRST_ROWS = List.of(
            List.of("20260315_124812_eeef83", "Notes for my project: database migration dry-run results"),
            List.of("20260314_114159_49276f", "What's the status of the \uD83D\uDC1B bug #12?"),
            List.of("20260314_103446_3e72c1", "数据库迁移完成了吗？"),
            List.of("20260314_092733_a67437", "Python NOT java — which should I learn first?"),
            List.of("20260314_082020_73b220", "Deploy the kubernetes manifests to prod"),
            List.of("20260314_171307_59ec25", "A".repeat(60) + "..."));

    @TempDir
    Path dir;

    /** The v6 answers of MANIFEST.md hold on a store pinned at 6. */
    private StateRepository keptAtSix(String fixture) {
        return StateRepository.builder().path(Fixtures.copy(fixture, dir)).schemaVersion(Migrator.KEPT_VERSION).build();
    }

    @Test
    void version6File() {
        try (StateRepository store = keptAtSix("state-v6.db")) {
            checkCommonAnswers(store, 17);
            List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.builder().limit(50).build());
            assertEquals(List.of("my project notes"), rows.subList(0, 1).stream().map(row -> row.session().title()).toList());
            assertNull(rows.get(1).session().title());
            RichSession projected = projectedRow(rows);
            assertEquals("my project #4", projected.session().title());

            assertEquals(L4, store.resolveSessionByTitle("my project").orElseThrow());
            assertEquals(L2, store.resolveSessionByTitle("my project #2").orElseThrow());
            assertEquals("my project #5", store.getNextTitleInLineage("my project"));
            assertEquals("my project #5", store.getNextTitleInLineage("my project #2"));
            assertEquals("test_project", store.getSessionTitle("20260312_144218_15c4f9").orElseThrow());
            assertEquals("20260312_154931_9d7f08", store.getSessionByTitle("100% done").orElseThrow().id());
            assertTrue(store.getSessionByTitle("100%").isEmpty());
            assertTrue(store.resolveSessionByTitle("test%project").isEmpty(), "% in a title is not a wildcard");
            assertEquals("20260312_144218_15c4f9", store.resolveSessionByTitle("test_project").orElseThrow());
            assertEquals("20260311_090713_315582", store.resolveSessionByTitle("数据库迁移").orElseThrow());

            long withReasoning = store.exportSession(L1).orElseThrow().messages().size();
            assertEquals(5, withReasoning);
            long reasoningRows = 0;
            long detailRows = 0;
            long codexRows = 0;
            for (RichSession row : store.listSessionsRich(ListSessionsQuery.builder().limit(100).includeChildren(true).build())) {
                for (ChatMessage message : store.getMessagesAsConversation(row.session().id())) {
                    reasoningRows += message.reasoning() != null ? 1 : 0;
                    detailRows += message.reasoningDetails() != null ? 1 : 0;
                    codexRows += message.codexReasoningItems() != null ? 1 : 0;
                }
            }
            assertEquals(List.of(11L, 2L, 3L), List.of(reasoningRows, detailRows, codexRows));
        }
    }

    @Test
    void adoptedVersion2File() {
        try (StateRepository store = keptAtSix("state-v2.db")) {
            checkCommonAnswers(store, 27);
            List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.builder().limit(50).build());
            assertTrue(rows.stream().allMatch(row -> row.session().title() == null), "version 2 had no titles");
            assertNull(projectedRow(rows).session().title());
            assertTrue(store.resolveSessionByTitle("my project").isEmpty());
            assertEquals("my project", store.getNextTitleInLineage("my project #3"));
            // the adopted file takes every version-6 operation
            store.appendMessage(L4, NewMessage.builder("assistant").content("after adoption").reasoning("r")
                    .reasoningDetails(JsonValue.of(List.of(Map.of("k", "v")))).build());
            store.updateTokenCounts(L4, TokenUsage.builder().cacheReadTokens(5).billingMode("subscription_included").build());
            Session tip = store.getSession(L4).orElseThrow();
            assertEquals(3, tip.messageCount());
            assertEquals(5, tip.cacheReadTokens());
            assertEquals("subscription_included", tip.billingMode());
            assertEquals("[{\"k\":\"v\"}]", store.getMessages(L4).get(2).reasoningDetails().json());
        }
    }

    /**
     * Opened with the defaults, a v6 or v2 file is brought to 17 and answers as today's agent answers
     * after its own upgrade of the same file (7e8f50a, run on copies): the delegate children its
     * upgrade tags (and, on v2, the children it had no end reasons to tell apart) leave the listing.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"state-v6.db, 20, 17", "state-v2.db, 17, 27"})
    void olderFilesOpenedWithTheDefaultsAnswerAsTodaysAgent(String fixture, int listed, long toolCallSum) throws Exception {
        Path file = Fixtures.copy(fixture, dir);
        try (StateRepository store = StateRepository.open(file)) {
            assertEquals(SchemaRules.V17, store.schemaRules());
            assertEquals(30, store.sessionCount());
            assertEquals(12, store.sessionCount("cli"));
            assertEquals(95, store.messageCount(null));
            assertEquals(toolCallSum, store.searchSessions(new SearchSessionsQuery(null, 100, 0)).stream().mapToLong(Session::toolCallCount).sum());
            List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.builder().limit(50).build());
            assertEquals(listed, rows.size());
            assertEquals(List.of("20260315_124812_eeef83", "20260314_114159_49276f", "20260314_103446_3e72c1",
                    "20260314_092733_a67437", "20260314_171307_59ec25", "20260314_160654_7acb75", "20260313_145228_df7cfa",
                    "20260313_123802_415804"), rows.subList(0, 8).stream().map(row -> row.session().id()).toList());
            assertEquals(List.of(L4), rows.stream().filter(row -> L1.equals(row.lineageRootId())).map(row -> row.session().id()).toList());
            assertEquals(30, store.listSessionsRich(ListSessionsQuery.builder().limit(50).includeChildren(true).build()).size());
            assertEquals(L4, store.getCompressionTip(L1));
        }
        assertEquals(17, SqliteFiles.number(file, "SELECT version FROM schema_version"));
    }

    /** What the MANIFEST lists for every version: counts, chain, tip, ids, listing, the long message. */
    private static void checkCommonAnswers(StateRepository store, long toolCallSum) {
        assertEquals(30, store.sessionCount());
        assertEquals(12, store.sessionCount("cli"));
        assertEquals(6, store.sessionCount("slack"));
        assertEquals(95, store.messageCount(null));
        List<Session> all = store.searchSessions(new SearchSessionsQuery(null, 100, 0));
        assertEquals(95, all.stream().mapToLong(Session::messageCount).sum());
        assertEquals(toolCallSum, all.stream().mapToLong(Session::toolCallCount).sum());

        assertEquals(L4, store.getCompressionTip(L1));
        assertEquals(L4, store.getCompressionTip(L3));
        assertEquals(DELEGATE, store.getCompressionTip(DELEGATE));
        assertEquals(List.of(L4 + ":0", L3 + ":1", L2 + ":2", L1 + ":3"), LineageTest.labels(store.getAncestors(L4)));
        assertEquals(List.of(L1 + ":0", DELEGATE + ":1", L2 + ":1", L3 + ":2", L4 + ":3"), LineageTest.labels(store.getLineageTree(L1)));

        assertEquals(L1, store.resolveSessionId("20260310_0900").orElseThrow());
        assertTrue(store.resolveSessionId("20260310_09").isEmpty());
        assertEquals(L1, store.resolveSessionId(L1).orElseThrow());

        List<RichSession> rows = store.listSessionsRich(ListSessionsQuery.builder().limit(50).build());
        assertEquals(26, rows.size());
        List<List<String>> first = new ArrayList<>();
        for (RichSession row : rows.subList(0, 6)) {
            first.add(List.of(row.session().id(), row.preview()));
            assertNull(row.lineageRootId());
        }
        assertEquals(FIRST_ROWS, first);
        RichSession projected = projectedRow(rows);
        assertEquals(L4, projected.session().id());
        assertEquals(store.getSession(L1).orElseThrow().startedAt(), projected.session().startedAt());
        assertEquals(2, projected.session().messageCount());
        assertEquals(1, rows.stream().filter(row -> row.lineageRootId() != null).count());
        assertEquals(30, store.listSessionsRich(ListSessionsQuery.builder().limit(50).includeChildren(true).build()).size());

        Message longest = store.getMessages("20260312_091723_9a58a3").stream()
                .filter(message -> message.id() == 55).findFirst().orElseThrow();
        assertEquals(102_400, longest.text().length());
        assertEquals(102_367, longest.text().indexOf("ENDMARKER_7f3a"));
        for (LineageNode node : store.getLineageTree(L1)) {
            assertEquals("cli", node.session().source());
        }
    }

    private static RichSession projectedRow(List<RichSession> rows) {
        return rows.stream().filter(row -> L1.equals(row.lineageRootId())).findFirst().orElseThrow();
    }
}
