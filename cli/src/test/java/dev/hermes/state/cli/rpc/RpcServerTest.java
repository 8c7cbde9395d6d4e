package dev.hermes.state.cli.rpc;

import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.core.json.PythonJson;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request/response layer without a database: every case here is answered before the store is
 * opened, which the counting opener proves (a bad request never touches the file).
 */
class RpcServerTest {
    private final AtomicInteger opened = new AtomicInteger();
    private final ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    private final RpcServer server = new RpcServer(() -> {
        opened.incrementAndGet();
        throw new SchemaTooNewException(7, 6);
    }, new PrintStream(diagnostics, true, StandardCharsets.UTF_8));

    private Map<?, ?> answer(String line) {
        return server.handle(line).body();
    }

    private static Map<?, ?> error(Map<?, ?> response) {
        assertFalse(response.containsKey("result"), "an error response has no result: " + response);
        return (Map<?, ?>) response.get("error");
    }

    @Test
    void aLineThatIsNotJsonGetsAnErrorWithIdNull() {
        Map<?, ?> response = answer("{\"id\": 1, \"method\": ");
        assertTrue(response.containsKey("id"));
        assertNull(response.get("id"));
        assertEquals("invalid_argument", error(response).get("type"));
        assertTrue(((String) error(response).get("message")).startsWith("Malformed JSON"));
        assertEquals(0, opened.get());
    }

    @Test
    void aRequestMustBeAnObjectWithAMethod() {
        assertEquals("invalid_argument", error(answer("[1, 2]")).get("type"));
        Map<?, ?> noMethod = answer("{\"id\": \"a\", \"params\": {}}");
        assertEquals("a", noMethod.get("id"));
        assertEquals("The request has no \"method\" string", error(noMethod).get("message"));
        Map<?, ?> positional = answer("{\"id\": 2, \"method\": \"get_session\", \"params\": [\"s1\"]}");
        assertEquals("\"params\" must be an object of keyword arguments", error(positional).get("message"));
        assertEquals(0, opened.get());
    }

    @Test
    void anUnknownMethodIsReportedWithTheIdAsGiven() {
        Map<?, ?> response = answer("{\"id\": \"req-9\", \"method\": \"drop_everything\"}");
        assertEquals("req-9", response.get("id"));
        assertEquals("unknown_method", error(response).get("type"));
        assertTrue(((String) error(response).get("message")).contains("append_message"));
        assertEquals(1.5, answer("{\"id\": 1.5, \"method\": \"nope\"}").get("id"));
        assertEquals(0, opened.get());
    }

    @Test
    void anUnknownParameterNameIsAnInvalidArgument() {
        Map<?, ?> response = answer("{\"id\": 3, \"method\": \"get_session\", \"params\": {\"sessionId\": \"s1\"}}");
        assertEquals(3L, response.get("id"));
        assertEquals("invalid_argument", error(response).get("type"));
        assertEquals("get_session() got an unexpected parameter 'sessionId'; it takes session_id", error(response).get("message"));
        assertEquals(0, opened.get());
    }

    @Test
    void aMissingRequiredParameterIsAnInvalidArgument() {
        Map<?, ?> response = answer("{\"id\": 4, \"method\": \"append_message\", \"params\": {\"session_id\": \"s1\"}}");
        assertEquals("append_message() is missing the required parameter 'role'", error(response).get("message"));
        assertEquals(0, opened.get());
    }

    @Test
    void aValueOfTheWrongTypeIsAnInvalidArgument() {
        assertEquals("list_sessions_rich(): parameter 'limit' must be an integer, got a string",
                error(answer("{\"id\": 5, \"method\": \"list_sessions_rich\", \"params\": {\"limit\": \"10\"}}")).get("message"));
        assertEquals("search_messages(): parameter 'source_filter' must be a list of strings, got a string",
                error(answer("{\"id\": 6, \"method\": \"search_messages\", \"params\": {\"query\": \"x\", \"source_filter\": \"cli\"}}"))
                        .get("message"));
        assertEquals("list_sessions_rich(): parameter 'include_children' must be true or false, got the number 1",
                error(answer("{\"id\": 7, \"method\": \"list_sessions_rich\", \"params\": {\"include_children\": 1}}")).get("message"));
        assertEquals("append_messages() item got an unexpected parameter 'session_id'; it takes role, content, tool_name, "
                        + "tool_calls, tool_call_id, token_count, finish_reason, reasoning, reasoning_content, reasoning_details, "
                        + "codex_reasoning_items, codex_message_items, platform_message_id, observed, timestamp",
                error(answer("{\"id\": 8, \"method\": \"append_messages\", \"params\": {\"session_id\": \"s\", "
                        + "\"messages\": [{\"role\": \"user\", \"session_id\": \"s\"}]}}")).get("message"));
        assertEquals(0, opened.get());
    }

    @Test
    void aCountBeyondJavasIntMeansAllOfThemAndANegativeOneIsRefused() {
        assertEquals("Search limit must not be negative, got -1",
                error(answer("{\"id\": 1, \"method\": \"search_messages\", \"params\": {\"query\": \"x\", \"limit\": -1}}")).get("message"));
        assertEquals("list_sessions_rich(): parameter 'offset' is out of range: -10000000000",
                error(answer("{\"id\": 2, \"method\": \"list_sessions_rich\", \"params\": {\"offset\": -10000000000}}")).get("message"));
        assertEquals(0, opened.get());
        // Python's sys.maxsize and 10**30 pass the argument checks and reach the store (which this test cannot open)
        for (String limit : List.of("9223372036854775807", "1000000000000000000000000000000")) {
            assertEquals("schema_too_new", error(answer("{\"id\": 3, \"method\": \"search_messages\", \"params\": "
                    + "{\"query\": \"x\", \"limit\": " + limit + ", \"offset\": " + limit + "}}")).get("type"));
        }
        assertEquals(2, opened.get());
    }

    @Test
    void aStoreThatCannotBeOpenedIsReportedInBandAndRetriedOnTheNextRequest() {
        Map<?, ?> first = answer("{\"id\": 10, \"method\": \"session_count\"}");
        assertEquals("schema_too_new", error(first).get("type"));
        assertTrue(((String) error(first).get("message")).contains("Schema version 7"));
        Map<?, ?> second = answer("{\"id\": 11, \"method\": \"get_session\", \"params\": {\"session_id\": \"s\"}}");
        assertEquals("schema_too_new", error(second).get("type"));
        assertEquals(2, opened.get());
    }

    @Test
    void closeAnswersAndEndsTheSessionWithoutOpeningTheStore() {
        RpcServer.Response response = server.handle("{\"id\": 12, \"method\": \"close\"}");
        assertTrue(response.closes());
        assertTrue(response.body().containsKey("result"));
        assertNull(response.body().get("result"));
        assertEquals(0, opened.get());
    }

    @Test
    void theLoopAnswersEveryLineInOrderSkipsBlankLinesAndStopsAtClose() throws Exception {
        String input = String.join("\n",
                "{\"id\": 1, \"method\": \"nope\"}",
                "",
                "garbage",
                "{\"id\": 2, \"method\": \"get_session\", \"params\": {\"bad\": 1}}",
                "{\"id\": 3, \"method\": \"close\"}",
                "{\"id\": 4, \"method\": \"nope\"}");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        server.serve(new BufferedReader(new StringReader(input)), out);
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(4, lines.size(), "one line per request up to close: " + lines);
        assertEquals(1L, ((Map<?, ?>) PythonJson.parse(lines.get(0))).get("id"));
        assertNull(((Map<?, ?>) PythonJson.parse(lines.get(1))).get("id"));
        assertEquals(2L, ((Map<?, ?>) PythonJson.parse(lines.get(2))).get("id"));
        assertEquals("{\"id\":3,\"result\":null}", lines.get(3));
    }

    @Test
    void endOfInputEndsTheLoop() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        server.serve(new BufferedReader(new StringReader("")), out);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyHermesMethodIsThere() {
        List<String> hermes = List.of("create_session", "ensure_session", "end_session", "reopen_session",
                "update_system_prompt", "update_token_counts", "get_session", "resolve_session_id", "session_count",
                "message_count", "search_sessions", "append_message", "get_messages", "get_messages_as_conversation",
                "clear_messages", "sanitize_title", "set_session_title", "get_session_title", "get_session_by_title",
                "resolve_session_by_title", "get_next_title_in_lineage", "get_compression_tip", "list_sessions_rich",
                "search_messages", "export_session", "export_all", "delete_session", "prune_sessions", "close");
        assertTrue(RpcMethods.names().containsAll(hermes), "missing: " + hermes.stream()
                .filter(name -> !RpcMethods.names().contains(name)).toList());
        // the keywords of today's agent (a store kept at 6 refuses those version 6 lacked)
        assertEquals(List.of("session_id", "source", "model", "model_config", "system_prompt", "user_id",
                "session_key", "chat_id", "chat_type", "thread_id", "parent_session_id", "cwd"),
                RpcMethods.find("create_session").parameters());
        // the finding methods take today's agent's keywords (schema 17), in its order
        assertEquals(List.of("source", "exclude_sources", "cwd_prefix", "limit", "offset", "include_children",
                "min_message_count", "project_compression_tips", "order_by_last_active", "include_archived",
                "archived_only", "id_query", "search_query"), RpcMethods.find("list_sessions_rich").parameters());
        assertEquals(List.of("query", "source_filter", "exclude_sources", "role_filter", "limit", "offset", "sort",
                "include_inactive"), RpcMethods.find("search_messages").parameters());
        assertEquals(List.of("source", "cwd_prefix", "min_message_count", "include_archived", "archived_only",
                "exclude_children", "exclude_sources"), RpcMethods.find("session_count").parameters());
        assertEquals(List.of("query", "limit", "include_archived"), RpcMethods.find("search_sessions_by_id").parameters());
        assertEquals(List.of("include_archived"), RpcMethods.find("distinct_session_cwds").parameters());
        assertEquals(List.of("session_id"), RpcMethods.find("resolve_resume_session_id").parameters());
        assertEquals(List.of("older_than_days", "source", "sessions_dir"), RpcMethods.find("prune_sessions").parameters());
    }

}
