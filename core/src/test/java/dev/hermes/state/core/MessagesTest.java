package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/behaviour.md#messages: counters, JSON storage and decoding, conversation shape, batches, pages. */
class MessagesTest extends FreshStoreTest {
    static final Map<String, Object> CALL = Map.of("id", "call_1", "type", "function",
            "function", Map.of("name", "terminal", "arguments", "{\"cmd\": \"ls\"}"));

    @BeforeEach
    void createSessionS1() {
        store.createSession("s1", "cli");
    }

    private Session session() {
        return store.getSession("s1").orElseThrow();
    }

    @Test
    void appendReturnsIncreasingIdsAndStampsNow() {
        long first = store.appendMessage("s1", NewMessage.of("user", "hello"));
        long second = store.appendMessage("s1", NewMessage.of("assistant", "hi"));
        assertEquals(1, first);
        assertEquals(2, second);
        List<Message> messages = store.getMessages("s1");
        // the session was created at EPOCH (first clock reading); each later reading is 1 ms later
        assertEquals(TestStores.EPOCH.plusMillis(1), messages.get(0).timestamp());
        assertEquals(TestStores.EPOCH.plusMillis(2), messages.get(1).timestamp());
        assertEquals(2, session().messageCount());
    }

    @Test
    void toolCallCounterRules() throws Exception {
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(List.of(CALL, CALL))).build()); // +2
        assertEquals(2, session().toolCallCount());
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(CALL)).build());                 // a map: +1
        assertEquals(3, session().toolCallCount());
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(Map.of())).build());            // empty map: +1, stored NULL
        assertEquals(4, session().toolCallCount());
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(List.of())).build());           // empty list: +0
        assertEquals(4, session().toolCallCount());
        store.appendMessage("s1", NewMessage.builder("assistant").content("no calls").build());            // null: +0
        assertEquals(4, session().toolCallCount());
        store.appendMessage("s1", NewMessage.builder("tool").toolCalls(ToolCalls.json(List.of(CALL))).toolName("terminal").build()); // tool role: +0
        assertEquals(4, session().toolCallCount());
        assertEquals(6, session().messageCount());
        assertEquals(3, queryLong("SELECT count(*) FROM messages WHERE tool_calls IS NULL"));
    }

    @Test
    void storedJsonIsValidJsonThatRoundTrips() throws Exception {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", "reasoning.text");
        details.put("text", "ünïcödé \"quoted\"");
        store.appendMessage("s1", NewMessage.builder("assistant").content("x").toolCalls(ToolCalls.json(List.of(CALL)))
                .reasoning("thinking").reasoningDetails(JsonValue.of(List.of(details))).codexReasoningItems(JsonValue.of(List.of(Map.of("id", "r1"))))
                .tokenCount(42L).finishReason("tool_calls").build());
        assertEquals("[{\"type\":\"reasoning.text\",\"text\":\"ünïcödé \\\"quoted\\\"\"}]",
                queryString("SELECT reasoning_details FROM messages"));
        assertEquals("terminal", queryString(onSqlite()
                ? "SELECT json_extract(tool_calls, '$[0].function.name') FROM messages"
                : "SELECT tool_calls::json -> 0 -> 'function' ->> 'name' FROM messages"));
        Message message = store.getMessages("s1").get(0);
        assertEquals(List.of(CALL), message.toolCalls().value());
        assertEquals("[{\"id\":\"r1\"}]", message.codexReasoningItems().json());
        assertEquals(42L, message.tokenCount());
        assertEquals("tool_calls", message.finishReason());
        assertEquals("thinking", message.reasoning());
    }

    @Test
    void appendToUnknownSessionIsAConstraintViolationAndWritesNothing() throws Exception {
        ConstraintViolationException error = assertThrows(ConstraintViolationException.class,
                () -> store.appendMessage("nobody", NewMessage.of("user", "lost")));
        assertEquals("Cannot append to session 'nobody': no such session", error.getMessage());
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
    }

    @Test
    void badMessagesAreRefusedBeforeWriting() throws Exception {
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1", NewMessage.of(" ", "x")));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1", NewMessage.of(null, "x")));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1", null));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("", NewMessage.of("user", "x")));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("assistant").toolCalls(ToolCalls.json(new Object())).build()));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("tool").toolName("t".repeat(1025)).build()));
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
        assertEquals(0, session().messageCount());
    }

    @Test
    void getMessagesDecodesToolCallsAndLeavesReasoningJsonAsText() throws Exception {
        store.appendMessage("s1", NewMessage.of("user", "q"));
        execute(
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'assistant', '', 'not json', 1773133300.5)",
                "INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, timestamp) VALUES ('s1', 'assistant', NULL, '[{\"id\": \"c9\"}]', '{\"k\": 1}', 1773133300.6)");
        List<Message> messages = store.getMessages("s1");
        assertEquals(3, messages.size());
        assertNull(messages.get(0).toolCalls());
        assertEquals(List.of(), messages.get(1).toolCalls().value());          // undecodable → empty list
        assertEquals("", messages.get(1).text());
        assertEquals(List.of(Map.of("id", "c9")), messages.get(2).toolCalls().value());
        assertEquals("{\"k\": 1}", messages.get(2).reasoningDetails().json()); // stays text
        assertNull(messages.get(2).text());
        assertEquals(Instant.parse("2026-03-10T09:01:40.500Z"), messages.get(1).timestamp());
    }

    @Test
    void messagesAreOrderedByTimestampThenId() throws Exception {
        execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'late', 200.0)",
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'early-b', 100.0)",
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'early-c', 100.0)",
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'first', 50.0)");
        assertEquals(List.of("first", "early-b", "early-c", "late"),
                store.getMessages("s1").stream().map(Message::text).toList());
        assertEquals(List.of("first", "early-b", "early-c", "late"),
                store.getMessagesAsConversation("s1").stream().map(ChatMessage::text).toList());
    }

    @Test
    void conversationShapeHasExactlyHermesKeys() throws Exception {
        store.appendMessage("s1", NewMessage.builder("system").content("rules").build());
        store.appendMessage("s1", NewMessage.of("user", "list files"));
        store.appendMessage("s1", NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL)))
                .reasoning("need ls").reasoningDetails(JsonValue.of(List.of(Map.of("t", 1)))).codexReasoningItems(JsonValue.of(List.of(Map.of("id", "r")))).build());
        store.appendMessage("s1", NewMessage.builder("tool").content("a.txt").toolName("terminal").toolCallId("call_1")
                .reasoning("tools never show reasoning").build());
        execute("INSERT INTO messages (session_id, role, content, reasoning, reasoning_details, codex_reasoning_items, timestamp)"
                + " VALUES ('s1', 'assistant', 'done', '', 'not json', '', 1999999999.0)",
                "INSERT INTO messages (session_id, role, content, reasoning_details, codex_reasoning_items, timestamp)"
                + " VALUES ('s1', 'assistant', 'again', 'null', '{\"unterminated', 1999999999.5)",
                "INSERT INTO messages (session_id, role, content, reasoning_details, codex_reasoning_items, timestamp)"
                + " VALUES ('s1', 'user', 'users never show reasoning', 'not json', '[1]', 1999999999.7)",
                // tool_calls written by another program: JSON null, not JSON, empty text
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'assistant', 'n', 'null', 1999999999.8)",
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'assistant', 'x', 'not json', 1999999999.85)",
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES ('s1', 'tool', 'e', '', 1999999999.9)");
        List<Map<String, Object>> conversation = store.getMessagesAsConversation("s1").stream().map(ChatMessage::toMap).toList();
        assertEquals(List.of(
                map("role", "system", "content", "rules"),
                map("role", "user", "content", "list files"),
                // JSON integers read back as Long (or BigInteger): one Java type for Python's one int type
                map("role", "assistant", "content", "", "tool_calls", List.of(CALL), "reasoning", "need ls",
                        "reasoning_details", List.of(Map.of("t", 1L)), "codex_reasoning_items", List.of(Map.of("id", "r"))),
                map("role", "tool", "content", "a.txt", "tool_call_id", "call_1", "tool_name", "terminal"),
                // Hermes: try: m[k] = json.loads(v) except: m[k] = None -- the key stays, with null
                map("role", "assistant", "content", "done", "reasoning_details", null),
                map("role", "assistant", "content", "again", "reasoning_details", null, "codex_reasoning_items", null),
                map("role", "user", "content", "users never show reasoning"),
                // Hermes: if m["tool_calls"]: m["tool_calls"] = json.loads(...) -- "null" is truthy text, loads to None
                map("role", "assistant", "content", "n", "tool_calls", null),
                map("role", "assistant", "content", "x"),
                map("role", "tool", "content", "e")), conversation);
    }

    @Test
    void clearMessagesZeroesCountersButKeepsTokens() throws Exception {
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(List.of(CALL))).build());
        store.appendMessage("s1", NewMessage.of("user", "x"));
        store.updateTokenCounts("s1", TokenUsage.builder().inputTokens(10).estimatedCostUsd(0.5).build());
        store.clearMessages("s1");
        Session session = session();
        assertEquals(0, session.messageCount());
        assertEquals(0, session.toolCallCount());
        assertEquals(10, session.inputTokens());
        assertEquals(0.5, session.estimatedCostUsd());
        assertEquals(List.of(), store.getMessages("s1"));
        // nothing left to find: SQLite's FTS5 rows went with the messages (PostgreSQL's words are their column)
        if (onSqlite()) {
            assertEquals(0, queryLong("SELECT count(*) FROM messages_fts"));
        }
    }

    @Test
    void appendMessagesIsOneTransactionWithIdsInOrder() throws Exception {
        store.appendMessage("s1", NewMessage.of("user", "before"));
        List<Long> ids = store.appendMessages("s1", List.of(
                NewMessage.of("user", "one"),
                NewMessage.builder("assistant").content("two").toolCalls(ToolCalls.json(List.of(CALL, CALL))).build(),
                NewMessage.builder("tool").content("three").toolCalls(ToolCalls.json(List.of(CALL))).build()));
        assertEquals(List.of(2L, 3L, 4L), ids);
        assertEquals(4, session().messageCount());
        assertEquals(2, session().toolCallCount());
        assertEquals(List.of("before", "one", "two", "three"), store.getMessages("s1").stream().map(Message::text).toList());
        assertEquals(List.of(), store.appendMessages("s1", List.of()));
    }

    @Test
    void appendMessagesIsAllOrNothing() throws Exception {
        List<NewMessage> withBadOne = new ArrayList<>(List.of(NewMessage.of("user", "fine"), NewMessage.of("", "bad role")));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessages("s1", withBadOne));
        assertThrows(ConstraintViolationException.class, () -> store.appendMessages("nobody", List.of(NewMessage.of("user", "x"))));
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
        assertEquals(0, session().messageCount());
    }

    @Test
    void messagePagesFollowTimestampThenIdWithoutGapsOrRepeats() throws Exception {
        for (int i = 0; i < 7; i++) {
            store.appendMessage("s1", NewMessage.of("user", "m" + i));
        }
        // two rows with the very same timestamp as m3: ties are broken by id across page borders
        execute(
                "INSERT INTO messages (session_id, role, content, timestamp) SELECT 's1', 'user', 'tie-a', timestamp FROM messages WHERE content = 'm3'",
                "INSERT INTO messages (session_id, role, content, timestamp) SELECT 's1', 'user', 'tie-b', timestamp FROM messages WHERE content = 'm3'");
        List<String> seen = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<Message> page = store.getMessagesPage("s1", cursor.orElse(null), 3);
            page.items().forEach(message -> seen.add(message.text()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor.isPresent());
        assertEquals(List.of("m0", "m1", "m2", "m3", "tie-a", "tie-b", "m4", "m5", "m6"), seen);
        assertEquals(3, pages);
        assertEquals(store.getMessages("s1").stream().map(Message::text).toList(), seen);
        assertThrows(InvalidArgumentException.class, () -> store.getMessagesPage("s1", "garbage!", 3));
        assertThrows(InvalidArgumentException.class, () -> store.getMessagesPage("s1", null, 0));
    }

    @Test
    void pythonFalsyValuesAreStoredAsNull() throws Exception {
        store.appendMessage("s1", NewMessage.builder("assistant").reasoningDetails(JsonValue.of("")).codexReasoningItems(JsonValue.of(false)).build());
        store.appendMessage("s1", NewMessage.builder("assistant").reasoningDetails(JsonValue.of(0)).codexReasoningItems(JsonValue.of(new int[0])).build());
        assertEquals(2, queryLong(
                "SELECT count(*) FROM messages WHERE reasoning_details IS NULL AND codex_reasoning_items IS NULL"));
        assertTrue(store.getMessages("s1").stream().allMatch(message -> message.reasoningDetails() == null));
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
