package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/behaviour.md#sessions: one test per behaviour, exact values, on a fresh file. */
class SessionsTest extends FreshStoreTest {
    @Test
    void createSessionStoresEveryArgumentAndStartsNow() throws Exception {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("temperature", 0.7);
        config.put("tools", List.of("terminal", "web"));
        String id = store.createSession(NewSession.builder("s1", "cli").model("gpt-x").modelConfig(config)
                .systemPrompt("be brief").userId("u7").build());
        assertEquals("s1", id);
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("cli", session.source());
        assertEquals("gpt-x", session.model());
        assertEquals("u7", session.userId());
        assertEquals("be brief", session.systemPrompt());
        assertEquals(TestStores.EPOCH, session.startedAt());
        assertNull(session.endedAt());
        assertEquals(0, session.messageCount());
        // valid JSON text the Python agent reads with json.loads
        assertEquals("{\"temperature\":0.7,\"tools\":[\"terminal\",\"web\"]}", session.modelConfig());
        assertEquals(1773133200.0, queryLong("SELECT started_at FROM sessions WHERE id = 's1'"), 0.0);
    }

    @Test
    void createSessionIsInsertOrIgnoreTheFirstRowWins() {
        store.createSession(NewSession.builder("s1", "cli").model("first").build());
        assertEquals("s1", store.createSession(NewSession.builder("s1", "telegram").model("second").build()));
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("cli", session.source());
        assertEquals("first", session.model());
        assertEquals(1, store.sessionCount());
    }

    @Test
    void createSessionWithUnknownParentIsAConstraintViolationAndWritesNothing() {
        ConstraintViolationException error = assertThrows(ConstraintViolationException.class,
                () -> store.createSession(NewSession.builder("child", "cli").parentSessionId("nobody").build()));
        assertEquals("Cannot create session 'child': parent session 'nobody' does not exist", error.getMessage());
        assertEquals(0, store.sessionCount());
        // the refused insert leaves the writer usable: the same statement with a known parent goes through
        store.createSession("root", "cli");
        store.createSession(NewSession.builder("child", "cli").parentSessionId("root").build());
        assertEquals("root", store.getSession("child").orElseThrow().parentSessionId());
    }

    /** SQLite skips the conflicting row before checking its foreign key, as Hermes' INSERT OR IGNORE does. */
    @Test
    void createSessionWithAnExistingIdAndAnUnknownParentIsIgnoredWithoutError() {
        store.createSession(NewSession.builder("s1", "cli").model("first").build());
        assertEquals("s1", store.createSession(NewSession.builder("s1", "telegram").parentSessionId("nobody").build()));
        Session kept = store.getSession("s1").orElseThrow();
        assertEquals("cli", kept.source());
        assertEquals("first", kept.model());
        assertNull(kept.parentSessionId());
        assertEquals(1, store.sessionCount());
    }

    @Test
    void emptyModelConfigIsStoredAsNull() throws Exception {
        store.createSession(NewSession.builder("a", "cli").modelConfig(Map.of()).build());
        store.createSession(NewSession.builder("b", "cli").modelConfig(List.of()).build());
        assertEquals(2, queryLong("SELECT count(*) FROM sessions WHERE model_config IS NULL"));
    }

    @Test
    void blankOrMissingArgumentsAreRefusedBeforeWriting() {
        assertThrows(InvalidArgumentException.class, () -> store.createSession("s1", " "));
        assertThrows(InvalidArgumentException.class, () -> store.createSession("s1", null));
        assertThrows(InvalidArgumentException.class, () -> store.createSession(" ", "cli"));
        assertThrows(InvalidArgumentException.class, () -> store.createSession(null, "cli"));
        assertThrows(InvalidArgumentException.class, () -> store.createSession("x".repeat(1025), "cli"));
        assertThrows(InvalidArgumentException.class, () -> store.createSession(NewSession.builder("s1", "cli").parentSessionId("").build()));
        assertThrows(InvalidArgumentException.class, () -> store.createSession(NewSession.builder("s1", "cli")
                .modelConfig(new Object()).build()));
        assertThrows(InvalidArgumentException.class, () -> store.getSession(""));
        assertThrows(InvalidArgumentException.class, () -> store.endSession("s1", ""));
        assertThrows(InvalidArgumentException.class, () -> store.searchSessions(new SearchSessionsQuery(null, -1, 0)));
        assertThrows(InvalidArgumentException.class, () -> store.searchSessions(new SearchSessionsQuery(null, 1, -1)));
        assertEquals(0, store.sessionCount());
    }

    @Test
    void ensureSessionInsertsWithUnknownSourceAndNeverOverwrites() {
        store.ensureSession("e1", null, null);
        assertEquals("unknown", store.getSession("e1").orElseThrow().source());
        store.createSession(NewSession.builder("e2", "cli").model("m1").build());
        store.ensureSession("e2", "telegram", "m2");
        Session kept = store.getSession("e2").orElseThrow();
        assertEquals("cli", kept.source());
        assertEquals("m1", kept.model());
    }

    @Test
    void endSessionTheFirstEndWins() {
        store.createSession("s1", "cli");
        assertTrue(store.endSession("s1", "compression"));
        Instant endedAt = store.getSession("s1").orElseThrow().endedAt();
        assertFalse(store.endSession("s1", "cli_close"));
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("compression", session.endReason());
        assertEquals(endedAt, session.endedAt());
        assertTrue(session.isEnded());
        assertFalse(store.endSession("nobody", "cli_close"));
    }

    @Test
    void reopenSessionClearsTheEnd() {
        store.createSession("s1", "cli");
        store.endSession("s1", "session_reset");
        store.reopenSession("s1");
        Session session = store.getSession("s1").orElseThrow();
        assertNull(session.endedAt());
        assertNull(session.endReason());
        assertTrue(store.endSession("s1", "cli_close"));
        assertEquals("cli_close", store.getSession("s1").orElseThrow().endReason());
    }

    @Test
    void updateSystemPrompt() {
        store.createSession(NewSession.builder("s1", "cli").systemPrompt("old").build());
        store.updateSystemPrompt("s1", "new prompt");
        assertEquals("new prompt", store.getSession("s1").orElseThrow().systemPrompt());
        store.updateSystemPrompt("s1", null);
        assertNull(store.getSession("s1").orElseThrow().systemPrompt());
    }

    @Test
    void updateTokenCountsIncrementally() {
        store.createSession("s1", "cli");
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(100).outputTokens(20).cacheReadTokens(5)
                .cacheWriteTokens(3).reasoningTokens(7).estimatedCostUsd(0.25).model("model-a")
                .costStatus("estimated").costSource("table").pricingVersion("v1")
                .billingProvider("openrouter").billingBaseUrl("https://a").billingMode("metered").build());
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(50).outputTokens(5).cacheReadTokens(1)
                .cacheWriteTokens(1).reasoningTokens(1).actualCostUsd(0.5).model("model-b")
                .costStatus("actual").pricingVersion("v2")
                .billingProvider("anthropic").billingBaseUrl("https://b").billingMode("subscription_included").build());
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(1).actualCostUsd(0.25).build());
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(151, session.inputTokens());
        assertEquals(25, session.outputTokens());
        assertEquals(6, session.cacheReadTokens());
        assertEquals(4, session.cacheWriteTokens());
        assertEquals(8, session.reasoningTokens());
        assertEquals(0.25, session.estimatedCostUsd());   // 0.25 + 0 + 0
        assertEquals(0.75, session.actualCostUsd());      // from NULL: 0 + 0.5 + 0.25
        assertEquals("actual", session.costStatus());     // last wins
        assertEquals("table", session.costSource());      // not given later: unchanged
        assertEquals("v2", session.pricingVersion());
        assertEquals("model-a", session.model());         // first wins
        assertEquals("openrouter", session.billingProvider());
        assertEquals("https://a", session.billingBaseUrl());
        assertEquals("metered", session.billingMode());
    }

    @Test
    void updateTokenCountsWithoutCostsKeepsActualCostNullAndMakesEstimatedZero() {
        store.createSession("s1", "cli");
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(3).build());
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(0.0, session.estimatedCostUsd());
        assertNull(session.actualCostUsd());
    }

    @Test
    void updateTokenCountsAbsolutely() {
        store.createSession(NewSession.builder("s1", "cli").model("kept").build());
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(100).outputTokens(20).estimatedCostUsd(1.0)
                .actualCostUsd(2.0).build());
        store.updateTokenCounts("s1", TokenUsage.builder().absolute(true).inputTokens(7).outputTokens(8)
                .cacheReadTokens(9).cacheWriteTokens(10).reasoningTokens(11).model("ignored").build());
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(7, session.inputTokens());
        assertEquals(8, session.outputTokens());
        assertEquals(9, session.cacheReadTokens());
        assertEquals(10, session.cacheWriteTokens());
        assertEquals(11, session.reasoningTokens());
        assertEquals(0.0, session.estimatedCostUsd());   // COALESCE(given, 0)
        assertEquals(2.0, session.actualCostUsd());      // not given: unchanged
        assertEquals("kept", session.model());
        store.updateTokenCounts("s1", TokenUsage.builder().absolute(true).estimatedCostUsd(0.5).actualCostUsd(0.1).build());
        session = store.getSession("s1").orElseThrow();
        assertEquals(0.5, session.estimatedCostUsd());
        assertEquals(0.1, session.actualCostUsd());
        assertEquals(0, session.inputTokens());
    }

    @Test
    void updateTokenCountsRefusesNegativeOrNonFiniteValues() {
        store.createSession("s1", "cli");
        assertThrows(InvalidArgumentException.class, () -> store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(-1).build()));
        assertThrows(InvalidArgumentException.class, () -> store.updateTokenCounts("s1", TokenUsage.builder().estimatedCostUsd(Double.NaN).build()));
        assertEquals(0, store.getSession("s1").orElseThrow().inputTokens());
    }

    @Test
    void getSessionOfUnknownIdIsEmpty() {
        assertTrue(store.getSession("nobody").isEmpty());
    }

    @Test
    void resolveSessionIdExactPrefixAmbiguousAndLiteralWildcards() {
        store.createSession("20260310_090000_8520da", "cli");
        store.createSession("20260310_090500_53bef4", "cli");
        store.createSession("a%b_c\\d", "cli");
        store.createSession("axbycxd", "cli");
        assertEquals("20260310_090000_8520da", store.resolveSessionId("20260310_090000_8520da").orElseThrow());
        assertEquals("20260310_090000_8520da", store.resolveSessionId("20260310_0900").orElseThrow());
        assertTrue(store.resolveSessionId("20260310_09").isEmpty()); // ambiguous
        assertTrue(store.resolveSessionId("2027").isEmpty());        // nothing
        assertEquals("a%b_c\\d", store.resolveSessionId("a%b_c\\").orElseThrow());
        assertEquals("a%b_c\\d", store.resolveSessionId("a%").orElseThrow());   // % is not a wildcard
        assertTrue(store.resolveSessionId("_").isEmpty());                      // _ is not a wildcard
        assertEquals("axbycxd", store.resolveSessionId("ax").orElseThrow());
    }

    @Test
    void countsBySourceAndSession() {
        store.createSession("a", "cli");
        store.createSession("b", "cli");
        store.createSession("c", "slack");
        store.appendMessage("a", NewMessage.of("user", "1"));
        store.appendMessage("a", NewMessage.of("user", "2"));
        store.appendMessage("c", NewMessage.of("user", "3"));
        assertEquals(3, store.sessionCount());
        assertEquals(3, store.sessionCount(""));
        assertEquals(2, store.sessionCount("cli"));
        assertEquals(0, store.sessionCount("discord"));
        assertEquals(3, store.messageCount(null));
        assertEquals(2, store.messageCount("a"));
        assertEquals(0, store.messageCount("b"));
    }

    @Test
    void searchSessionsNewestFirstWithChildrenAndPaging() {
        store.createSession("root", "cli");
        store.createSession(NewSession.builder("child", "cli").parentSessionId("root").build());
        store.createSession("other", "slack");
        assertEquals(List.of("other", "child", "root"), ids(store.searchSessions(new SearchSessionsQuery(null, 20, 0))));
        assertEquals(List.of("child", "root"), ids(store.searchSessions(new SearchSessionsQuery("cli", 20, 0))));
        assertEquals(List.of("child"), ids(store.searchSessions(new SearchSessionsQuery(null, 1, 1))));
        assertEquals(List.of(), ids(store.searchSessions(new SearchSessionsQuery(null, 0, 0))));
    }

    static List<String> ids(List<Session> sessions) {
        return sessions.stream().map(Session::id).toList();
    }
}
