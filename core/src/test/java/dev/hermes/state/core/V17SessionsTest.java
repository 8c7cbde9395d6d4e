package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionColumns;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sessions at schema 17's rules, on both engines: the upsert of create and ensure, token counts with
 * API calls, the metadata updates, title transfer, the archive of a lineage, a cron job's runs. The
 * expected values are the agent's (its v17 module run with the same calls; see each test).
 */
class V17SessionsTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 17;
    }

    @Test
    void everySessionReadsWithTheColumnsOfSchema17() {
        store.createSession("s1", "cli");
        Session session = store.getSession("s1").orElseThrow();
        assertEquals(SessionColumns.V17, session.columns());
        assertEquals(List.of("id", "source", "user_id", "session_key", "chat_id", "chat_type", "thread_id", "model",
                "model_config", "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason",
                "message_count", "tool_call_count", "input_tokens", "output_tokens", "cache_read_tokens",
                "cache_write_tokens", "reasoning_tokens", "cwd", "git_branch", "git_repo_root", "billing_provider",
                "billing_base_url", "billing_mode", "estimated_cost_usd", "actual_cost_usd", "cost_status", "cost_source",
                "pricing_version", "title", "api_call_count", "handoff_state", "handoff_platform", "handoff_error",
                "compression_failure_cooldown_until", "compression_failure_error", "rewind_count", "archived"),
                session.columns().names());
        assertEquals(0, session.apiCallCount());
        assertEquals(0, session.rewindCount());
        assertFalse(session.archived());
        assertNull(session.cwd());
        assertEquals(17, store.rulesVersion());
    }

    /** The agent (A1): a gateway's bare row is enriched by the agent's create, never overwritten. */
    @Test
    void createSessionFillsTheNullMetadataOfAnExistingRowAndOverwritesNothing() {
        store.createSession(NewSession.builder("s1", "telegram").userId("u1").chatId("c1").build());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("max_iterations", 90);
        config.put("reasoning", Map.of("effort", "high"));
        config.put("name", "Ünï");
        assertEquals("s1", store.createSession(NewSession.builder("s1", "cli").model("claude").modelConfig(config)
                .systemPrompt("SYS").cwd("/w").sessionKey("k").build()));
        store.createSession(NewSession.builder("s1", "unknown").model("other").chatId("c2").build());
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("telegram", session.source());
        assertEquals("u1", session.userId());
        assertEquals("c1", session.chatId());
        assertEquals("claude", session.model());
        // the agent's json.dumps text, bit for bit
        assertEquals("{\"max_iterations\": 90, \"reasoning\": {\"effort\": \"high\"}, \"name\": \"\\u00dcn\\u00ef\"}",
                session.modelConfig());
        assertEquals("SYS", session.systemPrompt());
        assertEquals("/w", session.cwd());
        assertEquals("k", session.sessionKey());
        assertNull(session.chatType());
        assertEquals(TestStores.EPOCH, session.startedAt(), "the first row's start is kept");
        assertEquals(1, store.sessionCount());
    }

    /** The agent (A2): ensure_session with its keywords goes through the same upsert. */
    @Test
    void ensureSessionTakesTheKeywordsOfCreateSession() {
        store.createSession("s1", "cli");
        store.ensureSession(NewSession.builder("s2", "unknown").build());
        store.ensureSession(NewSession.builder("s2", "cli").model("m").cwd("/x").parentSessionId("s1").build());
        Session session = store.getSession("s2").orElseThrow();
        assertEquals("unknown", session.source());
        assertEquals("m", session.model());
        assertEquals("/x", session.cwd());
        assertEquals("s1", session.parentSessionId());
        store.ensureSession("s2", "slack", "later");
        assertEquals("m", store.getSession("s2").orElseThrow().model());
    }

    @Test
    void fillingInAnUnknownParentIsAConstraintViolationAndChangesNothing() {
        store.createSession("s1", "cli");
        assertThrows(ConstraintViolationException.class,
                () -> store.createSession(NewSession.builder("s1", "cli").parentSessionId("nobody").model("m").build()));
        Session session = store.getSession("s1").orElseThrow();
        assertNull(session.parentSessionId());
        assertNull(session.model());
    }

    /** The agent (A3, A4): a missing row is made first (source unknown); API calls grow, or are set when absolute. */
    @Test
    void updateTokenCountsCreatesAMissingSessionAndCountsApiCalls() {
        store.updateTokenCounts("ghost", TokenUsage.builder().inputTokens(10).outputTokens(4).model("gpt").apiCallCount(2).build());
        store.updateTokenCounts("ghost", TokenUsage.builder().inputTokens(1).apiCallCount(3).build());
        Session session = store.getSession("ghost").orElseThrow();
        assertEquals("unknown", session.source());
        assertEquals("gpt", session.model());
        assertEquals(11, session.inputTokens());
        assertEquals(4, session.outputTokens());
        assertEquals(5, session.apiCallCount());
        assertEquals(0.0, session.estimatedCostUsd());
        store.updateTokenCounts("ghost", TokenUsage.builder().inputTokens(100).apiCallCount(7).absolute(true).build());
        session = store.getSession("ghost").orElseThrow();
        assertEquals(100, session.inputTokens());
        assertEquals(0, session.outputTokens());
        assertEquals(7, session.apiCallCount());
        assertThrows(InvalidArgumentException.class,
                () -> store.updateTokenCounts("ghost", TokenUsage.builder().apiCallCount(-1).build()));
        assertEquals(7, store.getSession("ghost").orElseThrow().apiCallCount());
    }

    /** The agent (A5-A10). */
    @Test
    void metadataUpdatesSetWhatTheAgentSets() {
        store.createSession(NewSession.builder("s1", "cli").model("claude").systemPrompt("SYS").build());
        store.createSession(NewSession.builder("s2", "cli").cwd("/x").build());
        store.updateSessionMeta("s1", "{\"a\": 1}", null);
        assertEquals(List.of("{\"a\": 1}", "claude"), metaOf("s1"));
        store.updateSessionMeta("s1", "{\"b\": 2}", "new");
        assertEquals(List.of("{\"b\": 2}", "new"), metaOf("s1"));
        store.updateSessionModel("s1", "switched");
        store.updateTokenCounts("s1", TokenUsage.builder().billingProvider("openrouter").billingBaseUrl("https://o")
                .billingMode("api_key").build());
        store.updateSessionBillingRoute("s1", "ollama", "http://l", null);
        Session session = store.getSession("s1").orElseThrow();
        assertEquals("switched", session.model());
        assertEquals("ollama", session.billingProvider());
        assertEquals("http://l", session.billingBaseUrl());
        assertEquals("api_key", session.billingMode());
        assertNull(session.systemPrompt());

        store.updateSessionCwd("s1", "/repo/src", " main ", "");
        assertEquals(List.of("/repo/src", "main", "-"), workspaceOf("s1"));
        store.updateSessionCwd("s1", "/repo/src", "", " /repo ");
        assertEquals(List.of("/repo/src", "main", "/repo"), workspaceOf("s1"));
        store.updateSessionCwd("s1", "", "x", null);
        assertEquals(List.of("/repo/src", "main", "/repo"), workspaceOf("s1"));
        Map<String, String> roots = new LinkedHashMap<>();
        roots.put("/x", "/xroot");
        roots.put("/repo/src", "/other");
        roots.put("", "/y");
        roots.put("/w", "");
        store.backfillRepoRoots(roots);
        assertEquals("/repo", store.getSession("s1").orElseThrow().gitRepoRoot());
        assertEquals("/xroot", store.getSession("s2").orElseThrow().gitRepoRoot());
    }

    /** The agent (B1-B4): a title held by a compression ancestor moves to the continuation; any other holder refuses. */
    @Test
    void aTitleHeldByACompressionAncestorMovesToTheContinuation() {
        lineage();
        assertTrue(store.setSessionTitle("c2", "Plan"));
        assertEquals(List.of("-", "-", "Plan"), List.of(title("r"), title("c1"), title("c2")));
        InvalidArgumentException taken = assertThrows(InvalidArgumentException.class, () -> store.setSessionTitle("b", "Plan"));
        assertEquals("Title 'Plan' is already in use by session c2", taken.getMessage());
        taken = assertThrows(InvalidArgumentException.class, () -> store.setSessionTitle("r", "Plan"));
        assertEquals("Title 'Plan' is already in use by session c2", taken.getMessage());
        assertEquals("Plan", title("c2"));
    }

    /** The agent (B5-B9): the lineage through compression-ended parents, up and down, and nothing beside it. */
    @Test
    void setSessionArchivedArchivesTheCompressionLineage() throws Exception {
        lineage();
        assertTrue(store.setSessionArchived("c1", true));
        assertEquals(Map.of("r", true, "c1", true, "c2", true, "dl", true, "b", false, "other", false), archived());
        assertFalse(store.setSessionArchived("nope", true));
        assertTrue(store.setSessionArchived("c2", false));
        assertEquals(Map.of("r", false, "c1", false, "c2", false, "dl", true, "b", false, "other", false), archived());
        assertEquals(0, queryLong("SELECT archived FROM sessions WHERE id = 'r'"));
        assertEquals(1, queryLong("SELECT archived FROM sessions WHERE id = 'dl'"));
    }

    @Test
    void listCronJobRunsIsOneJobsRunsNewestFirstWithPreviews() {
        store.createSession("cron_job1_20260310_090000", "cron");
        store.appendMessage("cron_job1_20260310_090000", NewMessage.of("user", " first\nrun\r\nreport " + "y".repeat(70)));
        clock.advance(Duration.ofSeconds(5));
        store.createSession("cron_job1_20260310_100000", "cron");
        store.createSession("cron_job10_20260310_100000", "cron");
        store.createSession("cron_job1_elsewhere", "cli");
        store.createSession("cron_job1`", "cron");
        store.createSession("cron_job1_", "cron");
        List<RichSession> runs = store.listCronJobRuns("job1", 20, 0);
        assertEquals(List.of("cron_job1_", "cron_job1_20260310_100000", "cron_job1_20260310_090000"),
                runs.stream().map(run -> run.session().id()).toList());
        assertEquals("first run  report " + "y".repeat(42) + "...", runs.get(2).preview());
        assertEquals("", runs.get(0).preview());
        assertEquals(List.of("cron_job1_20260310_100000"),
                store.listCronJobRuns("job1", 1, 1).stream().map(run -> run.session().id()).toList());
        assertEquals(List.of(), store.listCronJobRuns("job2", 20, 0));
        assertEquals(List.of("cron_job10_20260310_100000"),
                store.listCronJobRuns("job10", 20, 0).stream().map(run -> run.session().id()).toList());
    }

    /** The agent: export_all lists as search_sessions does, the most recently active first. */
    @Test
    void exportAllListsTheMostRecentlyActiveFirst() {
        for (int i = 0; i < 3; i++) {
            store.createSession("s" + i, "cli");
        }
        store.appendMessage("s1", NewMessage.of("user", "a"));
        clock.advance(Duration.ofSeconds(5));
        store.appendMessage("s0", NewMessage.of("user", "b"));
        List<String> exported = new java.util.ArrayList<>();
        assertEquals(3, store.exportAll(null, export -> exported.add(export.session().id() + "/" + export.messages().size())));
        assertEquals(List.of("s0/1", "s1/1", "s2/0"), exported);
    }

    /** r (compression) → c1 (compression) → c2; c1 → dl (a delegate); r → b (a branch); other apart. Title "Plan" on r. */
    private void lineage() {
        store.createSession("r", "cli");
        store.setSessionTitle("r", "Plan");
        store.endSession("r", "compression");
        store.createSession(NewSession.builder("c1", "cli").parentSessionId("r").build());
        store.endSession("c1", "compression");
        store.createSession(NewSession.builder("c2", "cli").parentSessionId("c1").build());
        store.createSession(NewSession.builder("dl", "cli").parentSessionId("c1").modelConfig(Map.of("_delegate_from", "c1")).build());
        store.createSession(NewSession.builder("b", "cli").parentSessionId("r").modelConfig(Map.of("_branched_from", "r")).build());
        store.createSession("other", "cli");
    }

    private Map<String, Boolean> archived() {
        Map<String, Boolean> flags = new LinkedHashMap<>();
        for (String id : List.of("r", "c1", "c2", "dl", "b", "other")) {
            flags.put(id, store.getSession(id).orElseThrow().archived());
        }
        return flags;
    }

    private String title(String id) {
        return store.getSessionTitle(id).orElse("-");
    }

    private List<String> metaOf(String id) {
        Session session = store.getSession(id).orElseThrow();
        return List.of(String.valueOf(session.modelConfig()), String.valueOf(session.model()));
    }

    private List<String> workspaceOf(String id) {
        Session session = store.getSession(id).orElseThrow();
        return java.util.Arrays.asList(orDash(session.cwd()), orDash(session.gitBranch()), orDash(session.gitRepoRoot()));
    }

    private static String orDash(String value) {
        return value == null ? "-" : value;
    }
}
