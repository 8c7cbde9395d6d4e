package dev.hermes.state.cli.json;

import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.core.model.ActiveSession;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionCwd;
import dev.hermes.state.core.model.SessionExport;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HermesShapesTest {
    private static final Instant STARTED = Instant.ofEpochSecond(1773133200L, 123_456_000);
    private static final List<String> SESSION_COLUMNS = List.of("id", "source", "user_id", "model", "model_config",
            "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason", "message_count",
            "tool_call_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
            "reasoning_tokens", "billing_provider", "billing_base_url", "billing_mode", "estimated_cost_usd",
            "actual_cost_usd", "cost_status", "cost_source", "pricing_version", "title");
    private static final List<String> MESSAGE_COLUMNS = List.of("id", "session_id", "role", "content", "tool_call_id",
            "tool_calls", "tool_name", "timestamp", "token_count", "finish_reason", "reasoning", "reasoning_details",
            "codex_reasoning_items");

    static Session session(String id, String title) {
        return new Session(id, "cli", null, "gpt", "{\"temperature\": 0}", "be brief", null, STARTED, null, null,
                5, 2, 1137, 241, 0, 0, 0, null, null, null, 0.0123, null, "estimated", null, null, title);
    }

    static Message message() {
        return new Message(3, "s1", "assistant", new MessageContent.Text(""), null, ToolCalls.ofJson("[{\"id\": \"call_1\"}]"), null,
                STARTED, null, "tool_calls", "thinking", JsonValue.ofJson("[{\"type\": \"summary\"}]"), null, null, null, null, false, true,
                false);
    }

    @Test
    void aSessionHasEveryColumnWithHermesKeys() {
        Map<String, Object> row = SessionRows.of(session("s1", "my project"));
        assertEquals(SESSION_COLUMNS, List.copyOf(row.keySet()));
        assertEquals("{\"temperature\": 0}", row.get("model_config"), "JSON columns stay text, as Hermes returns them");
        assertEquals(STARTED, row.get("started_at"));
        assertNull(row.get("ended_at"));
        assertEquals(1137L, row.get("input_tokens"));
    }

    @Test
    void aMessageHasEveryColumnWithToolCallsDecodedAndReasoningDetailsAsText() {
        Map<String, Object> row = HermesShapes.message(message());
        assertEquals(MESSAGE_COLUMNS, List.copyOf(row.keySet()));
        assertEquals(List.of(Map.of("id", "call_1")), row.get("tool_calls"));
        assertEquals("[{\"type\": \"summary\"}]", row.get("reasoning_details"));
    }

    @Test
    void aRichRowAddsPreviewLastActiveAndLineageRoot() {
        Map<String, Object> row = SessionRows.of(new RichSession(session("tip", "my project #4"), "Deploy it",
                STARTED.plusSeconds(60), "root"));
        assertEquals(SESSION_COLUMNS.size() + 3, row.size());
        assertEquals("Deploy it", row.get("preview"));
        assertEquals(STARTED.plusSeconds(60), row.get("last_active"));
        assertEquals("root", row.get("_lineage_root_id"));
        List<String> keys = new ArrayList<>(SESSION_COLUMNS);
        keys.addAll(List.of("preview", "last_active", "_lineage_root_id"));
        assertEquals(keys, List.copyOf(row.keySet()));
    }

    @Test
    void aRichRowThatWasNotProjectedHasNoLineageRootKey() {
        Map<String, Object> row = SessionRows.of(new RichSession(session("s", null), "", STARTED, null));
        assertFalse(row.containsKey("_lineage_root_id"), "Hermes adds the key to projected rows only");
        List<String> keys = new ArrayList<>(SESSION_COLUMNS);
        keys.addAll(List.of("preview", "last_active"));
        assertEquals(keys, List.copyOf(row.keySet()));
    }

    @Test
    void aRichRowOfAStoreWithWorkspacesShowsItsWorkspace() {
        Map<String, Object> row = SessionRows.of(new RichSession(session("tip", "t"), "", STARTED, "root",
                new RichSession.Workspace("/repo/b", "main", null)));
        assertEquals("/repo/b", row.get("cwd"));
        assertEquals("main", row.get("git_branch"));
        assertTrue(row.containsKey("git_repo_root"));
        assertNull(row.get("git_repo_root"));
        assertEquals("root", row.get("_lineage_root_id"));
    }

    @Test
    void searchSessionsOfTodaysAgentAddsLastActiveAndCwdsHaveTheirThreeKeys() {
        Map<String, Object> row = HermesShapes.activeSession(new ActiveSession(session("s", null), STARTED.plusSeconds(5)));
        List<String> keys = new ArrayList<>(SESSION_COLUMNS);
        keys.add("last_active");
        assertEquals(keys, List.copyOf(row.keySet()));
        assertEquals(STARTED.plusSeconds(5), row.get("last_active"));
        assertEquals(Map.of("cwd", "/repo", "sessions", 2L, "last_active", STARTED),
                HermesShapes.sessionCwd(new SessionCwd("/repo", 2, STARTED)));
        assertEquals(List.of("cwd", "sessions", "last_active"),
                List.copyOf(HermesShapes.sessionCwd(new SessionCwd("/repo", 2, STARTED)).keySet()));
    }

    @Test
    void aSearchHitHasHermesKeysAndItsContext() {
        SearchHit hit = new SearchHit(30, "s1", "user", "how do I >>>docker<<<", STARTED, null, "cli", "gpt", STARTED,
                List.of(new SearchHit.ContextMessage("user", "how do I docker"), new SearchHit.ContextMessage("assistant", null)));
        Map<String, Object> row = HermesShapes.hit(hit);
        assertEquals(List.of("id", "session_id", "role", "snippet", "timestamp", "tool_name", "source", "model",
                "session_started", "context"), List.copyOf(row.keySet()));
        assertEquals("{\"role\":\"assistant\",\"content\":null}", Json.toJson(((List<?>) row.get("context")).get(1)));
    }

    @Test
    void anExportIsTheSessionPlusItsMessages() {
        Map<String, Object> row = HermesShapes.export(new SessionExport(session("s1", null), List.of(message())));
        assertEquals(SESSION_COLUMNS.size() + 1, row.size());
        assertEquals(1, ((List<?>) row.get("messages")).size());
    }

    @Test
    void aLineageNodeIsTheSessionPlusItsDepth() {
        Map<String, Object> row = HermesShapes.lineageNode(new LineageNode(session("s1", null), 2));
        assertEquals(2, row.get("depth"));
        assertEquals("s1", row.get("id"));
    }
}
