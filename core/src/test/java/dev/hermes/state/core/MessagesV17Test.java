package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session's messages under the rules of schema 17: what an append stores, what the reads return. Every
 * expected value is what the agent at 7e8f50a stores or returns for the same calls (measured on its own
 * SessionDB), the marker of structured content being the engine's.
 */
class MessagesV17Test extends FreshStoreTest {
    static final Map<String, Object> CALL = ordered("id", "c1", "type", "function",
            "function", ordered("name", "web_search", "arguments", "{\"q\": \"ü\"}"));
    static final List<Object> PARTS = List.of(ordered("type", "text", "text", "what is this? 🚀"),
            ordered("type", "image_url", "image_url", Map.of("url", "data:image/png;base64,AAA")));

    /** A map in the order given, as a Python dict keeps it (the order decides the stored JSON text). */
    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Override
    int schemaVersion() {
        return 17;
    }

    @BeforeEach
    void createSessionS1() {
        store.createSession("s1", "cli");
    }

    private Session session() {
        return store.getSession("s1").orElseThrow();
    }

    private static Instant at(double seconds) {
        long whole = (long) Math.floor(seconds);
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
    }

    /** The agent's four messages: text, an assistant tool call with every v17 column, multimodal content, a tool row with calls. */
    private void appendTheFour() {
        store.appendMessage("s1", NewMessage.builder("user").content("Hello").timestamp(at(1777383653.0)).build());
        store.appendMessage("s1", NewMessage.builder("assistant").content("").toolCalls(ToolCalls.json(List.of(CALL))).reasoning("r")
                .reasoningContent("").reasoningDetails(JsonValue.of(List.of(ordered("type", "reasoning.text", "text", "ünï"))))
                .codexReasoningItems(JsonValue.of(List.of(Map.of("id", "rs_1"))))
                .codexMessageItems(JsonValue.of(List.of(ordered("type", "message", "id", "m1"))))
                .platformMessageId("4101").observed(true).finishReason("tool_calls").tokenCount(7L)
                .timestamp(at(1777383654.25)).build());
        store.appendMessage("s1", NewMessage.builder("user").parts(PARTS).timestamp(at(1777383655.5)).build());
        store.appendMessage("s1", NewMessage.builder("tool").content("ok").toolCalls(ToolCalls.json(List.of(CALL, CALL)))
                .toolName("web_search").toolCallId("c1").timestamp(at(1777383656.0)).build());
    }

    @Test
    void appendsStoreTheAgentsTextForEveryColumn() throws Exception {
        appendTheFour();
        String marker = onSqlite() ? "\u0000json:" : "\u0001json:";
        String call = "{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"web_search\","
                + " \"arguments\": \"{\\\"q\\\": \\\"\\u00fc\\\"}\"}}";
        assertEquals("[" + call + "]", queryString("SELECT tool_calls FROM messages WHERE id = 2"));
        assertEquals("[" + call + ", " + call + "]", queryString("SELECT tool_calls FROM messages WHERE id = 4"));
        assertEquals("[{\"type\": \"reasoning.text\", \"text\": \"\\u00fcn\\u00ef\"}]",
                queryString("SELECT reasoning_details FROM messages WHERE id = 2"));
        assertEquals("[{\"id\": \"rs_1\"}]", queryString("SELECT codex_reasoning_items FROM messages WHERE id = 2"));
        assertEquals("[{\"type\": \"message\", \"id\": \"m1\"}]", queryString("SELECT codex_message_items FROM messages WHERE id = 2"));
        assertEquals("", queryString("SELECT reasoning_content FROM messages WHERE id = 2"));
        assertNull(queryString("SELECT reasoning_content FROM messages WHERE id = 1"));
        assertEquals("4101", queryString("SELECT platform_message_id FROM messages WHERE id = 2"));
        assertEquals(marker + "[{\"type\": \"text\", \"text\": \"what is this? \\ud83d\\ude80\"}, {\"type\": \"image_url\","
                + " \"image_url\": {\"url\": \"data:image/png;base64,AAA\"}}]", queryString("SELECT content FROM messages WHERE id = 3"));
        assertEquals("Hello", queryString("SELECT content FROM messages WHERE id = 1"));
        assertEquals(2, queryLong("SELECT id FROM messages WHERE observed = 1"));
        assertEquals(3, queryLong("SELECT count(*) FROM messages WHERE observed = 0"));
        assertEquals(4, queryLong("SELECT count(*) FROM messages WHERE active = 1 AND compacted = 0"));
        assertEquals(1777383654.25, Double.parseDouble(queryString("SELECT CAST(timestamp AS text) FROM messages WHERE id = 2")));
        // the agent counts every row's tool calls, a tool row's too
        assertEquals(4, session().messageCount());
        assertEquals(3, session().toolCallCount());
    }

    @Test
    void getMessagesDecodesContentAndReadsEveryColumn() {
        appendTheFour();
        List<Message> messages = store.getMessages("s1");
        assertEquals(List.of(1L, 2L, 3L, 4L), messages.stream().map(Message::id).toList());
        Message assistant = messages.get(1);
        assertEquals(new MessageContent.Text(""), assistant.content());
        assertEquals(List.of(CALL), assistant.toolCalls().value());
        assertEquals("", assistant.reasoningContent());
        assertEquals("[{\"type\": \"reasoning.text\", \"text\": \"\\u00fcn\\u00ef\"}]", assistant.reasoningDetails().json());
        assertEquals("[{\"type\": \"message\", \"id\": \"m1\"}]", assistant.codexMessageItems().json());
        assertEquals("4101", assistant.platformMessageId());
        assertTrue(assistant.observed());
        assertTrue(assistant.active());
        assertFalse(assistant.compacted());
        assertEquals(7L, assistant.tokenCount());
        assertEquals(at(1777383654.25), assistant.timestamp());
        assertEquals(new MessageContent.Structured(PARTS), messages.get(2).content());
        assertEquals("what is this? 🚀", messages.get(2).text());
        assertFalse(messages.get(0).observed());
        assertNull(messages.get(0).reasoningContent());
    }

    @Test
    void theConversationHasTheAgentsKeysInTheAgentsOrder() {
        appendTheFour();
        List<Map<String, Object>> conversation = store.getMessagesAsConversation("s1").stream().map(ChatMessage::toMap).toList();
        assertEquals(List.of("role", "content", "timestamp"), List.copyOf(conversation.get(0).keySet()));
        assertEquals(List.of("role", "content", "timestamp", "tool_calls", "message_id", "observed", "finish_reason",
                "reasoning", "reasoning_content", "reasoning_details", "codex_reasoning_items", "codex_message_items"),
                List.copyOf(conversation.get(1).keySet()));
        Map<String, Object> assistant = new LinkedHashMap<>();
        assistant.put("role", "assistant");
        assistant.put("content", "");
        assistant.put("timestamp", at(1777383654.25));
        assistant.put("tool_calls", List.of(CALL));
        assistant.put("message_id", "4101");
        assistant.put("observed", true);
        assistant.put("finish_reason", "tool_calls");
        assistant.put("reasoning", "r");
        assistant.put("reasoning_content", "");
        assistant.put("reasoning_details", List.of(Map.of("type", "reasoning.text", "text", "ünï")));
        assistant.put("codex_reasoning_items", List.of(Map.of("id", "rs_1")));
        assistant.put("codex_message_items", List.of(Map.of("type", "message", "id", "m1")));
        assertEquals(assistant, conversation.get(1));
        assertEquals(Map.of("role", "user", "content", PARTS, "timestamp", at(1777383655.5)), conversation.get(2));
        assertEquals(List.of("role", "content", "timestamp", "tool_call_id", "tool_name", "tool_calls"),
                List.copyOf(conversation.get(3).keySet()));
        assertEquals(List.of(CALL, CALL), conversation.get(3).get("tool_calls"));
    }

    @Test
    void readsFollowIdsNotTimestampsAndHideInactiveRowsUnlessAsked() throws Exception {
        // the agent's explicit timestamps may run backwards (the tool row stamped before its call)
        store.appendMessage("s1", NewMessage.builder("assistant").toolCalls(ToolCalls.json(List.of(CALL))).timestamp(at(1000.0)).build());
        store.appendMessage("s1", NewMessage.builder("tool").content("result").toolCallId("c1").timestamp(at(999.0)).build());
        store.appendMessage("s1", NewMessage.builder("user").content("thanks").timestamp(at(998.0)).build());
        assertEquals(List.of("assistant", "tool", "user"),
                store.getMessagesAsConversation("s1").stream().map(ChatMessage::role).toList());
        assertEquals(List.of(1L, 2L, 3L), store.getMessages("s1").stream().map(Message::id).toList());
        execute("UPDATE messages SET active = 0 WHERE id = 2");
        assertEquals(List.of(1L, 3L), store.getMessages("s1").stream().map(Message::id).toList());
        assertEquals(List.of(1L, 2L, 3L), store.getMessages("s1", true).stream().map(Message::id).toList());
        assertFalse(store.getMessages("s1", true).get(1).active());
        assertEquals(List.of("assistant", "user"), store.getMessagesAsConversation("s1").stream().map(ChatMessage::role).toList());
        assertEquals(List.of("assistant", "tool", "user"), store.getMessagesAsConversation("s1",
                ConversationOptions.DEFAULT.withInactive(true)).stream().map(ChatMessage::role).toList());
        // export inherits get_messages' live rows; message_count counts every row
        assertEquals(List.of(1L, 3L), store.exportSession("s1").orElseThrow().messages().stream().map(Message::id).toList());
        assertEquals(3, store.messageCount("s1"));
    }

    @Test
    void toolCallsThatAreNotJsonReadAsAnEmptyListInBothReads() throws Exception {
        store.appendMessage("s1", NewMessage.of("assistant", "x"));
        execute("UPDATE messages SET tool_calls = 'not json' WHERE id = 1");
        assertEquals(List.of(), store.getMessages("s1").get(0).toolCalls().value());
        Map<String, Object> replayed = store.getMessagesAsConversation("s1").get(0).toMap();
        assertEquals(List.of(), replayed.get("tool_calls"));
    }

    @Test
    void theConversationCleansTextDropsReviewTurnsAndWithAncestorsReplayedPrompts() {
        store.createSession("root", "tui");
        store.appendMessage("root", at("user", "same prompt", 100.0));
        store.appendMessage("root", at("user", "same prompt", 101.0));
        store.appendMessage("root", at("assistant", "", 102.0));
        store.appendMessage("root", at("user", "  same prompt \n", 103.0));
        store.appendMessage("root", at("assistant", "answer", 104.0));
        store.createSession(dev.hermes.state.core.model.NewSession.builder("child", "tui").parentSessionId("root").build());
        store.appendMessage("child", at("user", "same prompt", 105.0));
        store.appendMessage("child", at("user", "Review the conversation above and consider saving to memory.", 106.0));
        store.appendMessage("child", at("assistant", "Saved.", 107.0));
        store.appendMessage("child", at("system", "\n Review the conversation above and update the skill library", 108.0));
        store.appendMessage("child", at("tool", "not dropped: not an assistant", 109.0));
        store.appendMessage("child", at("user", "next <memory-context>recalled</memory-context> question  ", 110.0));
        store.appendMessage("root", at("assistant", "late root answer", 111.0));

        assertEquals(List.of(
                        turn("user", "same prompt", 100.0), turn("assistant", "", 102.0), turn("assistant", "answer", 104.0),
                        turn("user", "same prompt", 105.0), turn("tool", "not dropped: not an assistant", 109.0),
                        turn("user", "next  question", 110.0), turn("assistant", "late root answer", 111.0)),
                maps(store.getMessagesAsConversation("child", ConversationOptions.DEFAULT.withAncestors(true))));
        assertEquals(List.of(turn("user", "same prompt", 105.0), turn("tool", "not dropped: not an assistant", 109.0),
                turn("user", "next  question", 110.0)), maps(store.getMessagesAsConversation("child")));
        assertEquals(List.of(turn("user", "same prompt", 100.0), turn("assistant", "", 102.0), turn("assistant", "answer", 104.0),
                        turn("assistant", "late root answer", 111.0)),
                maps(store.getMessagesAsConversation("root", ConversationOptions.DEFAULT.withAncestors(true))));
        assertEquals(List.of(), store.getMessagesAsConversation("unknown", ConversationOptions.DEFAULT.withAncestors(true)));
    }

    private static NewMessage at(String role, String content, double timestamp) {
        return NewMessage.builder(role).content(content).timestamp(at(timestamp)).build();
    }

    private static Map<String, Object> turn(String role, String content, double timestamp) {
        return Map.of("role", role, "content", content, "timestamp", at(timestamp));
    }

    private static List<Map<String, Object>> maps(List<ChatMessage> conversation) {
        return conversation.stream().map(ChatMessage::toMap).toList();
    }

    @Test
    void pagesGoByIdOverLiveRows() throws Exception {
        for (int i = 0; i < 7; i++) {
            store.appendMessage("s1", NewMessage.builder("user").content("m" + i).timestamp(at(2000.0 - i)).build());
        }
        execute("UPDATE messages SET active = 0 WHERE id IN (2, 5)");
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Page<Message> page = store.getMessagesPage("s1", cursor, 2);
            page.items().forEach(message -> seen.add(message.text()));
            cursor = page.nextCursor().orElse(null);
            pages++;
        } while (cursor != null);
        assertEquals(List.of("m0", "m2", "m3", "m5", "m6"), seen);
        assertEquals(3, pages);
        assertEquals(7, store.getMessagesPage("s1", null, 100, true).items().size());
        assertThrows(InvalidArgumentException.class, () -> store.getMessagesPage("s1", "bm90LWEtY3Vyc29y", 2));
    }

    @Test
    void batchesKeepEachMessagesOwnTimestampAndStampTheOthersNow() {
        List<Long> ids = store.appendMessages("s1", List.of(NewMessage.builder("user").content("a").timestamp(at(5.5)).build(),
                NewMessage.of("assistant", "b")));
        assertEquals(List.of(1L, 2L), ids);
        List<Message> messages = store.getMessages("s1");
        assertEquals(at(5.5), messages.get(0).timestamp());
        assertTrue(messages.get(1).timestamp().isAfter(TestStores.EPOCH), messages.get(1).timestamp().toString());
    }

    @Test
    void badAppendsWriteNothing() throws Exception {
        assertThrows(ConstraintViolationException.class, () -> store.appendMessage("nope", NewMessage.of("user", "x")));
        assertThrows(InvalidArgumentException.class, () -> store.appendMessage("s1",
                NewMessage.builder("user").parts(List.of(Map.of("type", "text", "text", "x"), new Object())).build()));
        assertThrows(InvalidArgumentException.class, () -> NewMessage.builder("user").parts(null));
        assertEquals(0, queryLong("SELECT count(*) FROM messages"));
        assertEquals(0, session().messageCount());
    }
}
