package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store kept at schema 6 answers as the agent of schema 6: content as stored (a marker row another writer
 * left is not decoded), rows by (timestamp, id), no conversation keys of 17; what schema 6 cannot hold
 * (structured content, the later columns, the soft-delete flags) is refused before anything is written.
 */
class MessagesKeptAtSixTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 6;
    }

    @BeforeEach
    void oneSession() {
        store.createSession("s1", "cli");
    }

    @Test
    void theStoreSaysItFollowsSchemaSix() {
        assertEquals(SchemaRules.V6, store.schemaRules());
    }

    @Test
    void whatSchemaSixCannotHoldIsRefusedAndNothingIsWritten() throws Exception {
        store.appendMessage("s1", NewMessage.of("user", "kept"));
        List<Executable> refused = List.of(
                () -> store.appendMessage("s1", NewMessage.builder("user").parts(List.of(Map.of("type", "text", "text", "x"))).build()),
                () -> store.appendMessage("s1", NewMessage.builder("assistant").reasoningContent("").build()),
                () -> store.appendMessage("s1", NewMessage.builder("user").content("x").observed(true).build()),
                () -> store.appendMessage("s1", NewMessage.builder("user").content("x").platformMessageId("1").build()),
                () -> store.appendMessage("s1", NewMessage.builder("assistant").codexMessageItems(JsonValue.of(List.of(Map.of("id", "m")))).build()),
                () -> store.rewindToMessage("s1", 1),
                () -> store.restoreRewound("s1", 1),
                () -> store.archiveAndCompact("s1", List.of(NewMessage.of("user", "summary"))),
                () -> store.replaceMessages("s1", List.of(NewMessage.of("user", "y")), true));
        for (Executable call : refused) {
            assertThrows(InvalidArgumentException.class, call);
        }
        assertEquals(List.of("kept"), store.getMessages("s1").stream().map(Message::text).toList());
        assertEquals(1, store.getSession("s1").orElseThrow().messageCount());
    }

    @Test
    void storedTextIsReturnedAsItIsAndRowsGoByTimestamp() throws Exception {
        store.appendMessage("s1", NewMessage.builder("user").content("second").timestamp(Instant.ofEpochSecond(20)).build());
        store.appendMessage("s1", NewMessage.builder("user").content("first").timestamp(Instant.ofEpochSecond(10)).build());
        String marker = onSqlite() ? "\u0000json:[1]" : "\u0001json:[1]";
        execute("UPDATE messages SET content = '" + (onSqlite() ? "' || char(0) || 'json:[1]" : "' || chr(1) || 'json:[1]")
                + "' WHERE id = 1");
        List<Message> messages = store.getMessages("s1");
        assertEquals(List.of(2L, 1L), messages.stream().map(Message::id).toList());
        assertEquals(new MessageContent.Text(marker), messages.get(1).content());
        ChatMessage replayed = store.getMessagesAsConversation("s1", ConversationOptions.DEFAULT.withAncestors(true)).get(1);
        assertEquals(Map.of("role", "user", "content", marker), replayed.toMap());
        assertTrue(messages.get(0).active(), "a file without the flag has every row live");
    }

    @Test
    void theReadsOfSchemaSeventeenWorkOnWhatTheFileHas() {
        store.appendMessage("s1", NewMessage.of("user", "question"));
        store.appendMessage("s1", NewMessage.of("assistant", "answer"));
        assertFalse(store.hasArchivedMessages("s1"));
        assertFalse(store.hasPlatformMessageId("s1", "1"));
        assertEquals(List.of(1L, 2L), store.getMessagesAround("s1", 1, 1).window().stream().map(Message::id).toList());
        assertEquals(List.of("question"), store.listRecentUserMessages("s1", 20, false).stream().map(m -> m.preview()).toList());
        store.replaceMessages("s1", List.of(NewMessage.builder("assistant").content("only").toolCalls(ToolCalls.json(List.of(Map.of("id", "c")))).build()),
                false);
        assertEquals(List.of("only"), store.getMessages("s1").stream().map(Message::text).toList());
        assertEquals(1, store.getSession("s1").orElseThrow().toolCallCount());
    }
}
