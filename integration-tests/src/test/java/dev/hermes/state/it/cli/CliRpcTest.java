package dev.hermes.state.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hermes.state.testsupport.ChildProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One {@code hermes-state rpc} process driven line by line through a whole scripted session, every
 * response checked; then end of input ends the process with exit code 0. The answers are those of the
 * agent of schema 6 (docs/behaviour.md#rpc, V6 rules), so the files are kept at 6; the RPC at 17 is checked by the cli
 * module's Rpc*V17Test classes and by the agent's own v17 test files.
 */
class CliRpcTest {
    @TempDir
    Path dir;

    private static final Duration WAIT = Duration.ofSeconds(60);

    private ChildProcess process;

    @AfterEach
    void stop() {
        if (process != null) {
            process.close();
        }
    }

    private void start(Path db) {
        process = new Cli(dir).keptAtSix().command("--db", db.toString(), "rpc").start();
    }

    /** Sends one raw line and reads the one response line. */
    private JsonNode sendLine(String line) throws IOException {
        process.send(line);
        String response = process.nextLine(WAIT);
        assertNotNull(response, "a response to " + line + ": " + process.transcript());
        return Cli.JSON.readTree(response);
    }

    private JsonNode call(Object id, String method, Map<String, ?> params) throws IOException {
        ObjectNode request = Cli.JSON.createObjectNode();
        request.set("id", Cli.JSON.valueToTree(id));
        request.put("method", method);
        request.set("params", Cli.JSON.valueToTree(params));
        JsonNode response = sendLine(Cli.JSON.writeValueAsString(request));
        assertEquals(Cli.JSON.valueToTree(id), response.get("id"), "the id is echoed as given: " + response);
        return response;
    }

    /** The result of a call that must succeed. */
    private JsonNode result(Object id, String method, Map<String, ?> params) throws IOException {
        JsonNode response = call(id, method, params);
        assertFalse(response.has("error"), method + " failed: " + response);
        assertTrue(response.has("result"), response.toString());
        return response.get("result");
    }

    /** The error of a call that must fail. */
    private JsonNode error(Object id, String method, Map<String, ?> params) throws IOException {
        JsonNode response = call(id, method, params);
        assertFalse(response.has("result"), method + " should fail: " + response);
        return response.get("error");
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aScriptedSessionThroughOneProcess() throws Exception {
        start(dir.resolve("rpc").resolve("state.db"));

        // sessions
        assertEquals("s1", result(1, "create_session", Map.of("session_id", "s1", "source", "cli",
                "model", "anthropic/claude-sonnet-4", "model_config", Map.of("temperature", 0.2),
                "system_prompt", "You are Hermes.")).asText());
        assertEquals("s1", result("two", "create_session", Map.of("session_id", "s1", "source", "telegram")).asText(),
                "insert-or-ignore: the first row wins");
        assertTrue(result(3, "ensure_session", Map.of("session_id", "s2")).isNull());

        // messages, with tool calls and reasoning
        long user = result(4, "append_message", Map.of("session_id", "s1", "role", "user",
                "content", "Hello 你好 🚀 数据库迁移问题")).asLong();
        List<Map<String, Object>> toolCalls = List.of(
                Map.of("id", "call_1", "type", "function", "function", Map.of("name", "terminal", "arguments", "{\"command\": \"ls\"}")),
                Map.of("id", "call_2", "type", "function", "function", Map.of("name", "read_file", "arguments", "{\"path\": \"a.md\"}")));
        long assistant = result(5, "append_message", Map.of("session_id", "s1", "role", "assistant", "content", "",
                "tool_calls", toolCalls, "reasoning", "Look around first.", "finish_reason", "tool_calls",
                "reasoning_details", List.of(Map.of("type", "reasoning.summary", "summary", "look")))).asLong();
        long tool = result(6, "append_message", Map.of("session_id", "s1", "role", "tool", "content", "a.md b.md",
                "tool_name", "terminal", "tool_call_id", "call_1")).asLong();
        assertTrue(user < assistant && assistant < tool, "ids grow");
        assertEquals("constraint_violation", error(7, "append_message", Map.of("session_id", "nope", "role", "user",
                "content", "x")).get("type").asText(), "unknown session");

        JsonNode session = result(8, "get_session", Map.of("session_id", "s1"));
        assertEquals(CliReadCommandsTest.SESSION_KEYS, keys(session));
        assertEquals("cli", session.get("source").asText());
        assertEquals(3, session.get("message_count").asInt());
        assertEquals(2, session.get("tool_call_count").asInt(), "two tool calls; the tool message adds none");
        assertEquals(Map.of("temperature", 0.2), Cli.JSON.readValue(session.get("model_config").asText(), Map.class),
                "model_config is JSON text, as Hermes returns it");
        assertTrue(session.get("started_at").isFloatingPointNumber());
        assertTrue(result(9, "get_session", Map.of("session_id", "missing")).isNull());

        JsonNode messages = result(10, "get_messages", Map.of("session_id", "s1"));
        assertEquals(3, messages.size());
        assertEquals(List.of("id", "session_id", "role", "content", "tool_call_id", "tool_calls", "tool_name",
                "timestamp", "token_count", "finish_reason", "reasoning", "reasoning_details", "codex_reasoning_items"),
                keys(messages.get(0)));
        assertEquals(Cli.JSON.valueToTree(toolCalls), messages.get(1).get("tool_calls"), "decoded");
        assertTrue(messages.get(1).get("reasoning_details").isTextual(), "stays JSON text in get_messages");
        JsonNode conversation = result(11, "get_messages_as_conversation", Map.of("session_id", "s1"));
        assertEquals(List.of("role", "content"), keys(conversation.get(0)));
        assertEquals("Look around first.", conversation.get(1).get("reasoning").asText());
        assertEquals("reasoning.summary", conversation.get(1).get("reasoning_details").get(0).get("type").asText(), "decoded");
        assertEquals(Cli.JSON.valueToTree(toolCalls), conversation.get(1).get("tool_calls"));
        assertEquals("call_1", conversation.get(2).get("tool_call_id").asText());
        assertEquals("terminal", conversation.get(2).get("tool_name").asText());
        assertEquals(3, result(12, "message_count", Map.of()).asInt());

        // titles, including the duplicate
        assertEquals("my rpc project", result(13, "sanitize_title", Map.of("title", "  my\u200B rpc\tproject ")).asText());
        assertTrue(result(14, "set_session_title", Map.of("session_id", "s1", "title", "my rpc project")).asBoolean());
        JsonNode duplicate = error(15, "set_session_title", Map.of("session_id", "s2", "title", "my rpc project"));
        assertEquals("invalid_argument", duplicate.get("type").asText());
        assertEquals("Title 'my rpc project' is already in use by session s1", duplicate.get("message").asText());
        assertEquals("Title too long (101 chars, max 100)", error(16, "set_session_title",
                Map.of("session_id", "s2", "title", "x".repeat(101))).get("message").asText());
        assertFalse(result(17, "set_session_title", Map.of("session_id", "ghost", "title", "t")).asBoolean());
        assertEquals("my rpc project #2", result(18, "get_next_title_in_lineage", Map.of("base_title", "my rpc project")).asText());
        assertEquals("s1", result(19, "resolve_session_by_title", Map.of("title", "my rpc project")).asText());
        assertEquals("my rpc project", result(20, "get_session_title", Map.of("session_id", "s1")).asText());

        // search, including a Chinese word inside a longer run
        JsonNode hits = result(21, "search_messages", Map.of("query", "hello"));
        assertEquals(1, hits.size());
        assertEquals(user, hits.get(0).get("id").asLong());
        assertEquals("s1", hits.get(0).get("session_id").asText());
        assertEquals("cli", hits.get(0).get("source").asText());
        assertTrue(hits.get(0).get("snippet").asText().contains(">>>Hello<<<"), hits.toString());
        assertEquals(2, hits.get(0).get("context").size(), "the hit and the next message");
        JsonNode chinese = result(22, "search_messages", Map.of("query", "迁移"));
        assertEquals(1, chinese.size(), chinese.toString());
        assertEquals(user, chinese.get(0).get("id").asLong());
        assertEquals(0, result(23, "search_messages", Map.of("query", "hello", "source_filter", List.of())).size(),
                "an empty source filter matches nothing, as in Hermes");

        // listing
        JsonNode rows = result(24, "list_sessions_rich", Map.of());
        assertEquals(List.of("s2", "s1"), Cli.ids(rows), "newest first");
        assertEquals("Hello 你好 🚀 数据库迁移问题", rows.get(1).get("preview").asText());
        assertEquals("", rows.get(0).get("preview").asText());
        assertEquals(2, result(25, "search_sessions", Map.of("limit", 5)).size());
        assertEquals(2, result(26, "session_count", Map.of()).asInt());

        // a malformed line and an unknown method get errors; the loop goes on
        JsonNode malformed = sendLine("{\"id\": 27, \"method\": \"session_count\"");
        assertTrue(malformed.get("id").isNull());
        assertEquals("invalid_argument", malformed.get("error").get("type").asText());
        assertEquals("unknown_method", error(28, "drop_all_tables", Map.of()).get("type").asText());
        assertEquals("invalid_argument", error(29, "get_session", Map.of("id", "s1")).get("type").asText());

        // export, delete, prune
        JsonNode export = result(30, "export_session", Map.of("session_id", "s1"));
        assertEquals(3, export.get("messages").size());
        assertEquals("my rpc project", export.get("title").asText());
        assertEquals(2, result(31, "export_all", Map.of()).size());
        assertTrue(result(32, "delete_session", Map.of("session_id", "s2")).asBoolean());
        assertFalse(result(33, "delete_session", Map.of("session_id", "s2")).asBoolean());
        assertTrue(result(34, "end_session", Map.of("session_id", "s1", "end_reason", "cli_close")).isNull());
        assertEquals("s1", result(35, "get_compression_tip", Map.of("session_id", "s1")).asText());
        assertEquals(1, result(36, "prune_sessions", Map.of("older_than_days", 0)).asInt());
        assertEquals(0, result(37, "session_count", Map.of()).asInt());

        // end of input ends the process cleanly
        process.closeStdin();
        assertEquals(0, process.waitFor(WAIT), process.transcript());
        assertEquals(null, process.nextLine(WAIT), "nothing after the last response");
        assertEquals("", process.stderr());
    }

    /**
     * list_sessions_rich rows have Hermes' exact keys: _lineage_root_id on the row projected onto a
     * compression tip, on no other row (Hermes' own tests assert {@code "_lineage_root_id" not in row}).
     */
    @Test
    void onlyAProjectedRowHasTheLineageRootKey() throws Exception {
        start(dir.resolve("state.db"));
        result(1, "create_session", Map.of("session_id", "plain", "source", "cli"));
        result(2, "create_session", Map.of("session_id", "root", "source", "cli"));
        result(3, "end_session", Map.of("session_id", "root", "end_reason", "compression"));
        result(4, "create_session", Map.of("session_id", "tip", "source", "cli", "parent_session_id", "root"));
        result(5, "append_message", Map.of("session_id", "tip", "role", "user", "content", "continued"));

        JsonNode rows = result(6, "list_sessions_rich", Map.of());
        assertEquals(List.of("tip", "plain"), Cli.ids(rows), "the root shows as its tip; the tip itself is a child");
        List<String> plainKeys = new ArrayList<>(CliReadCommandsTest.SESSION_KEYS);
        plainKeys.addAll(List.of("preview", "last_active"));
        List<String> projectedKeys = new ArrayList<>(plainKeys);
        projectedKeys.add("_lineage_root_id");
        assertEquals(projectedKeys, keys(rows.get(0)));
        assertEquals("root", rows.get(0).get("_lineage_root_id").asText());
        assertEquals("continued", rows.get(0).get("preview").asText());
        assertEquals(plainKeys, keys(rows.get(1)));
        for (Map<String, ?> unprojected : List.of(Map.of("include_children", true), Map.of("project_compression_tips", false))) {
            JsonNode listed = result(7, "list_sessions_rich", unprojected);
            listed.forEach(row -> assertEquals(plainKeys, keys(row), unprojected + ": " + row));
        }
    }

    /**
     * search_messages returns every hit when the limit is larger than the number of matches, here
     * 1,500 of each kind (FTS5 prefix, CJK fallback): through the RPC, with Python-sized limits
     * (10**12, sys.maxsize), and through {@code search --json} on the command line.
     */
    @Test
    void searchReturnsEveryHitWhenTheLimitIsLarger() throws Exception {
        Path db = dir.resolve("state.db");
        start(db);
        List<Long> deployments = new ArrayList<>();
        List<Long> migrations = new ArrayList<>();
        for (String session : List.of("a", "b", "c")) {
            result("create-" + session, "create_session", Map.of("session_id", session, "source", "cli"));
            List<Map<String, Object>> messages = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                messages.add(Map.of("role", "user", "content", i % 2 == 0 ? "deployment " + session + i : "数据库迁移问题" + i));
            }
            JsonNode ids = result("append-" + session, "append_messages", Map.of("session_id", session, "messages", messages));
            for (int i = 0; i < ids.size(); i++) {
                (i % 2 == 0 ? deployments : migrations).add(ids.get(i).asLong());
            }
        }
        assertEquals(1500, deployments.size());
        for (Object limit : List.of(1500, 100_000, 1_000_000_000_000L, Long.MAX_VALUE)) {
            JsonNode hits = result("limit-" + limit, "search_messages", Map.of("query", "deploy*", "limit", limit));
            assertEquals(deployments, Cli.sortedNumericIds(hits), "limit " + limit);
        }
        List<Long> paged = new ArrayList<>(Cli.sortedNumericIds(result("first", "search_messages",
                Map.of("query", "deploy*", "limit", 1400))));
        JsonNode rest = result("rest", "search_messages", Map.of("query", "deploy*", "limit", 100_000, "offset", 1400));
        assertEquals(100, rest.size(), "the 100 hits after the first 1,400");
        paged.addAll(Cli.sortedNumericIds(rest));
        assertEquals(deployments, paged.stream().sorted().toList(), "the two pages hold every hit once");
        List<Long> newestFirst = new ArrayList<>(migrations);
        java.util.Collections.reverse(newestFirst);
        List<Long> cjk = new ArrayList<>();
        result("cjk", "search_messages", Map.of("query", "迁移", "limit", 100_000)).forEach(hit -> cjk.add(hit.get("id").asLong()));
        assertEquals(newestFirst, cjk, "the CJK fallback, newest first");
        assertEquals(3, result("sessions", "search_sessions", Map.of("limit", 1_000_000_000_000L)).size(),
                "search_sessions takes a Python-sized limit too");
        assertEquals(3, result("listing", "list_sessions_rich", Map.of("limit", Long.MAX_VALUE)).size());
        assertTrue(result("close", "close", Map.of()).isNull());
        assertEquals(0, process.waitFor(WAIT), process.transcript());

        Cli cli = new Cli(dir).keptAtSix();
        JsonNode hits = cli.json("--db", db.toString(), "--json", "search", "deploy*", "--limit", "100000");
        assertEquals(deployments, Cli.sortedNumericIds(hits));
        assertEquals(List.of("id", "session_id", "role", "snippet", "timestamp", "tool_name", "source", "model",
                "session_started", "context"), keys(hits.get(0)));
        List<Long> cliCjk = new ArrayList<>();
        cli.json("--db", db.toString(), "--json", "search", "迁移", "--limit", "5000")
                .forEach(hit -> cliCjk.add(hit.get("id").asLong()));
        assertEquals(newestFirst, cliCjk);
        List<String> lines = cli.run("--db", db.toString(), "search", "deploy*", "--limit", "100000").ok().lines();
        assertEquals("1500 hits for 'deploy*'.", lines.get(lines.size() - 1));
    }

    @Test
    void closeEndsTheSession() throws Exception {
        start(dir.resolve("state.db"));
        assertEquals(0, result("a", "session_count", Map.of()).asInt());
        assertTrue(result("b", "close", Map.of()).isNull());
        assertEquals(0, process.waitFor(WAIT), "the process ends with its input still open: " + process.transcript());
    }
}
