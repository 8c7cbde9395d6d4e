package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.testsupport.SqliteFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The session and coordination methods of the RPC on a store at schema 17: each answer is the one the
 * agent's v17 module gives for the same calls (its {@code json.dumps}, parsed, compared with ours
 * parsed: the same keys in the same order, the same values), with the store's clock fixed at the
 * time the agent's clock read.
 */
class RpcSessionsV17Test {
    @TempDir
    Path dir;
    private StateRepository store;
    private RpcServer server;

    private void open(int version, double now) {
        // a whole number of microseconds, as the store's clock keeps them
        Clock clock = Clock.fixed(java.time.Instant.EPOCH.plus(java.time.Duration.ofNanos(Math.round(now * 1e6) * 1_000)),
                ZoneOffset.UTC);
        store = StateRepository.builder().path(dir.resolve("state.db")).schemaVersion(version).clock(clock).build();
        server = new RpcServer(() -> store, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private Object call(String method, String params) {
        Map<?, ?> response = server.handle("{\"id\": 1, \"method\": \"" + method + "\", \"params\": " + params + "}").body();
        assertFalse(response.containsKey("error"), method + ": " + response);
        return response.get("result");
    }

    /** Our answer as the JSON line the server writes, parsed as the agent's answer is. */
    private Object answer(String method, String params) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            server.serve(new java.io.BufferedReader(new java.io.StringReader("{\"id\": 1, \"method\": \"" + method
                    + "\", \"params\": " + params + "}\n")), out);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        Map<?, ?> response = (Map<?, ?>) PythonJson.parse(out.toString(StandardCharsets.UTF_8));
        assertFalse(response.containsKey("error"), method + ": " + response);
        return response.get("result");
    }

    private static List<String> keys(Object dict) {
        return new ArrayList<>(((Map<?, ?>) dict).keySet().stream().map(String::valueOf).toList());
    }

    @Test
    void sessionsAnswerWithTheAgentsDicts() {
        open(17, 1773133200.001);
        assertEquals("s1", answer("create_session", "{\"session_id\": \"s1\", \"source\": \"telegram\", \"user_id\": \"u1\","
                + " \"chat_id\": \"c1\", \"cwd\": \"/w\"}"));
        assertEquals("s2", answer("ensure_session", "{\"session_id\": \"s2\", \"model\": \"m\"}"));
        Object agent = PythonJson.parse("{\"id\": \"s2\", \"source\": \"unknown\", \"user_id\": null, \"session_key\": null,"
                + " \"chat_id\": null, \"chat_type\": null, \"thread_id\": null, \"model\": \"m\", \"model_config\": null,"
                + " \"system_prompt\": null, \"parent_session_id\": null, \"started_at\": 1773133200.001, \"ended_at\": null,"
                + " \"end_reason\": null, \"message_count\": 0, \"tool_call_count\": 0, \"input_tokens\": 0, \"output_tokens\": 0,"
                + " \"cache_read_tokens\": 0, \"cache_write_tokens\": 0, \"reasoning_tokens\": 0, \"cwd\": null,"
                + " \"git_branch\": null, \"git_repo_root\": null, \"billing_provider\": null, \"billing_base_url\": null,"
                + " \"billing_mode\": null, \"estimated_cost_usd\": null, \"actual_cost_usd\": null, \"cost_status\": null,"
                + " \"cost_source\": null, \"pricing_version\": null, \"title\": null, \"api_call_count\": 0,"
                + " \"handoff_state\": null, \"handoff_platform\": null, \"handoff_error\": null,"
                + " \"compression_failure_cooldown_until\": null, \"compression_failure_error\": null, \"rewind_count\": 0,"
                + " \"archived\": 0}");
        Object ours = answer("get_session", "{\"session_id\": \"s2\"}");
        assertEquals(agent, ours);
        assertEquals(keys(agent), keys(ours));
        assertEquals(true, answer("set_session_archived", "{\"session_id\": \"s1\", \"archived\": true}"));
        assertEquals(1L, ((Map<?, ?>) answer("get_session", "{\"session_id\": \"s1\"}")).get("archived"));
        assertEquals(PythonJson.parse("{\"state\": null, \"platform\": null, \"error\": null}"),
                answer("get_handoff_state", "{\"session_id\": \"s1\"}"));
        assertEquals(true, answer("request_handoff", "{\"session_id\": \"s1\", \"platform\": \"discord\"}"));
        assertEquals(null, answer("get_compression_failure_cooldown", "{\"session_id\": \"s1\"}"));
        assertEquals(false, answer("try_acquire_compression_lock", "{\"session_id\": \"\", \"holder\": \"a\"}"));
        assertEquals(null, answer("get_compression_lock_holder", "{\"session_id\": \"\"}"));
        assertEquals(false, answer("refresh_compression_lock", "{\"session_id\": \"s1\", \"holder\": \"\"}"));
        assertEquals(1L, answer("delete_sessions", "{\"session_ids\": [1, null, \"\", \"s2\", \"s2\"]}"));
        assertEquals(PythonJson.parse("{\"skipped\": false, \"pruned\": 0, \"vacuumed\": false}"),
                answer("maybe_auto_prune_and_vacuum", "{\"vacuum\": false}"));
        assertEquals(2L, answer("optimize_fts", "{}"));
        assertEquals(2L, answer("vacuum", "{}"));
        assertEquals(null, answer("find_latest_gateway_session_for_peer", "{\"source\": \"telegram\"}"));
        call("bind_telegram_topic", "{\"chat_id\": 208214988, \"thread_id\": 17585, \"user_id\": 208214988,"
                + " \"session_key\": \"k\", \"session_id\": \"s1\"}");
        Object binding = answer("get_telegram_topic_binding", "{\"chat_id\": \"208214988\", \"thread_id\": \"17585\"}");
        assertEquals(PythonJson.parse("{\"chat_id\": \"208214988\", \"thread_id\": \"17585\", \"user_id\": \"208214988\","
                + " \"session_key\": \"k\", \"session_id\": \"s1\", \"managed_mode\": \"auto\", \"linked_at\": 1773133200.001,"
                + " \"updated_at\": 1773133200.001}"), binding);
        assertEquals(keys(PythonJson.parse("{\"chat_id\": 1, \"thread_id\": 1, \"user_id\": 1, \"session_key\": 1,"
                + " \"session_id\": 1, \"managed_mode\": 1, \"linked_at\": 1, \"updated_at\": 1}")), keys(binding));
    }

    @Test
    void theCooldownComesBackAsTheExactFloatGiven() {
        open(17, 1773133200.0);
        call("create_session", "{\"session_id\": \"s1\", \"source\": \"cli\"}");
        call("record_compression_failure_cooldown", "{\"session_id\": \"s1\", \"cooldown_until\": 1773133260.1234567,"
                + " \"error\": \"timeout\"}");
        Map<?, ?> cooldown = (Map<?, ?>) answer("get_compression_failure_cooldown", "{\"session_id\": \"s1\"}");
        assertEquals(List.of("cooldown_until", "remaining_seconds", "error"), keys(cooldown));
        assertEquals(1773133260.1234567, (Double) cooldown.get("cooldown_until"), 0.0);
        assertEquals(1773133260.1234567 - 1773133200.0, (Double) cooldown.get("remaining_seconds"), 0.0);
        assertEquals("timeout", cooldown.get("error"));
    }

    @Test
    void aStoreKeptAt6AnswersAsBefore() throws Exception {
        open(6, 1773133200.0);
        assertEquals(null, answer("ensure_session", "{\"session_id\": \"s2\"}"));
        Map<?, ?> session = (Map<?, ?>) answer("get_session", "{\"session_id\": \"s2\"}");
        assertEquals(List.of("id", "source", "user_id", "model", "model_config", "system_prompt", "parent_session_id",
                "started_at", "ended_at", "end_reason", "message_count", "tool_call_count", "input_tokens", "output_tokens",
                "cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "billing_provider", "billing_base_url",
                "billing_mode", "estimated_cost_usd", "actual_cost_usd", "cost_status", "cost_source", "pricing_version",
                "title"), keys(session));
        Object bytes = answer("vacuum", "{}");
        assertEquals(Long.class, bytes.getClass(), "the bytes reclaimed, as before");
        Map<?, ?> refused = server.handle("{\"id\": 1, \"method\": \"create_session\", \"params\": {\"session_id\": \"s3\","
                + " \"source\": \"cli\", \"cwd\": \"/w\"}}").body();
        assertEquals("invalid_argument", ((Map<?, ?>) refused.get("error")).get("type"));
        assertEquals(1L, answer("session_count", "{}"));
        assertEquals(true, Files.exists(dir.resolve("state.db")));
    }
    @Test
    void aStoreWhoseNumberWasSetBackTo15TagsItsSubagentRunsWhenOpenedAgain() throws Exception {
        open(17, 1773133200.0);
        call("create_session", "{\"session_id\": \"parent\", \"source\": \"cli\"}");
        call("create_session", "{\"session_id\": \"delegate\", \"source\": \"cli\", \"parent_session_id\": \"parent\"}");
        call("create_session", "{\"session_id\": \"orphan\", \"source\": \"cli\"}");
        call("append_message", "{\"session_id\": \"orphan\", \"role\": \"user\", \"content\": \"Echo progress\"}");
        call("append_message", "{\"session_id\": \"orphan\", \"role\": \"tool\", \"content\": \"step 1\","
                + " \"tool_name\": \"terminal\"}");
        store.close();
        try (java.sql.Connection connection = SqliteFiles.readWrite(dir.resolve("state.db"));
             java.sql.Statement statement = connection.createStatement()) {
            statement.execute("UPDATE schema_version SET version = 15");
        }

        // the agent's answers after the same calls and the same UPDATE (its v17 module, opened again)
        open(17, 1773133300.0);
        assertEquals("{\"_delegate_from\":\"parent\"}",
                ((Map<?, ?>) answer("get_session", "{\"session_id\": \"delegate\"}")).get("model_config"));
        assertEquals("{\"_delegate_from\":\"__orphaned__\"}",
                ((Map<?, ?>) answer("get_session", "{\"session_id\": \"orphan\"}")).get("model_config"));
        assertEquals(List.of("parent"), ((List<?>) answer("list_sessions_rich", "{}")).stream()
                .map(row -> ((Map<?, ?>) row).get("id")).toList());
        assertEquals(true, answer("delete_session", "{\"session_id\": \"parent\"}"));
        assertEquals(null, answer("get_session", "{\"session_id\": \"delegate\"}"));
    }
}
