package dev.hermes.state.langchain4j;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.TestStore;
import dev.hermes.state.testsupport.Fixtures;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LangChain4jMessagesTest {
    @TempDir
    Path dir;

    static final ToolExecutionRequest READ = ToolExecutionRequest.builder().id("call_1").name("read_file")
            .arguments("{\"path\": \"README.md\"}").build();
    static final ToolExecutionRequest STATUS = ToolExecutionRequest.builder().id("call_2").name("terminal")
            .arguments("{\"command\": \"git status\"}").build();

    /** Saved through appendMessages, read back through getMessages: the path every adapter's window uses. */
    private List<ChatMessage> roundTrip(StateRepository store, List<ChatMessage> messages) {
        store.createSession("s", "langchain4j");
        store.appendMessages("s", LangChain4jMessages.toRows(messages));
        return LangChain4jMessages.fromRows(store.getMessages("s"));
    }

    @Test
    void everyTypeReadsBackEqualInOrder() {
        List<ChatMessage> conversation = List.of(
                SystemMessage.from("You are a careful assistant."),
                UserMessage.from("What does the README say? 数据库迁移 🙏"),
                AiMessage.builder().thinking("Read it, and check the tree.").toolExecutionRequests(List.of(READ, STATUS)).build(),
                ToolExecutionResultMessage.from(READ, "{\"content\": \"# Project\"}"),
                ToolExecutionResultMessage.from(STATUS, "{\"exit_code\": 0}"),
                AiMessage.from("It says: # Project, and the tree is clean."),
                AiMessage.from("Also this.", List.of(ToolExecutionRequest.builder().id("call_3").name("t").arguments("{}").build())),
                ToolExecutionResultMessage.from("call_3", "t", ""),
                UserMessage.from("  thanks\n"));
        try (StateRepository store = TestStore.open(dir)) {
            assertEquals(conversation, roundTrip(store, conversation));

            List<Message> rows = store.getMessages("s");
            assertEquals(List.of("system", "user", "assistant", "tool", "tool", "assistant", "assistant", "tool", "user"),
                    rows.stream().map(Message::role).toList());
            assertEquals(List.of("call_2", "terminal"), List.of(rows.get(4).toolCallId(), rows.get(4).toolName()));
            assertNull(rows.get(2).content(), "an AiMessage with only tool calls has no text");
            assertEquals("Read it, and check the tree.", rows.get(2).reasoning());
            assertEquals(3, store.getSession("s").orElseThrow().toolCallCount());
        }
    }

    @Test
    void attributesAndTheErrorFlagAreNotKept() {
        AiMessage withAttributes = AiMessage.builder().text("hi").attributes(Map.of("k", "v")).build();
        ToolExecutionResultMessage failed = ToolExecutionResultMessage.builder().id("c").toolName("t").text("boom")
                .isError(true).build();
        try (StateRepository store = TestStore.open(dir)) {
            List<ChatMessage> read = roundTrip(store, List.of(withAttributes, failed));
            assertEquals(AiMessage.from("hi"), read.get(0));
            assertEquals(Map.of(), ((AiMessage) read.get(0)).attributes());
            assertEquals(ToolExecutionResultMessage.from("c", "t", "boom"), read.get(1));
            assertNull(((ToolExecutionResultMessage) read.get(1)).isError());
        }
    }

    @Test
    void contentHermesCannotHoldIsRefusedNotDropped() {
        UserMessage picture = UserMessage.from(TextContent.from("what is this?"), ImageContent.from("https://example.invalid/a.png"));
        UserMessage twoParts = UserMessage.from(TextContent.from("a"), TextContent.from("b"));
        UserMessage named = UserMessage.from("klaus", "hello");
        ToolExecutionResultMessage imageResult = ToolExecutionResultMessage.builder().id("c").toolName("t")
                .contents(ImageContent.from("https://example.invalid/a.png")).build();
        for (ChatMessage message : List.of(picture, twoParts, named, imageResult, CustomMessage.from(Map.of("a", "b")))) {
            assertThrows(InvalidArgumentException.class,
                    () -> LangChain4jMessages.toRows(List.of(UserMessage.from("fine"), message)), message.toString());
        }
        assertThrows(InvalidArgumentException.class, () -> LangChain4jMessages.toRow(null));
        assertThrows(InvalidArgumentException.class, () -> LangChain4jMessages.toRows(null));
    }

    @Test
    void onAStoreAtSeventeenTextsAndImagesAreStoredAsTheAgentsPartsAndReadBackEqual() {
        UserMessage picture = UserMessage.from(TextContent.from("what is this?"), ImageContent.from("https://example.invalid/a.png"));
        UserMessage inline = UserMessage.from(ImageContent.from("iVBORw0KGgo=", "image/png", ImageContent.DetailLevel.HIGH),
                TextContent.from("and this?"));
        UserMessage twoParts = UserMessage.from(TextContent.from("a"), TextContent.from("b"));
        List<ChatMessage> conversation = List.of(picture, AiMessage.from("A cat."), inline, twoParts);
        try (StateRepository store = TestStore.open(dir, 17)) {
            store.createSession("s", "langchain4j");
            store.appendMessages("s", LangChain4jMessages.toRows(conversation, true));
            List<Message> rows = store.getMessages("s");
            assertEquals(conversation, LangChain4jMessages.fromRows(rows));
            assertEquals(List.of(Map.of("type", "text", "text", "what is this?"), Map.of("type", "image_url",
                    "image_url", Map.of("url", "https://example.invalid/a.png", "detail", "low"))), rows.get(0).content().value());
            assertEquals(List.of(Map.of("type", "image_url", "image_url", Map.of("url", "data:image/png;base64,iVBORw0KGgo=",
                    "detail", "high")), Map.of("type", "text", "text", "and this?")), rows.get(2).content().value());
            assertEquals("what is this?", rows.get(0).text());
        }
        UserMessage audio = UserMessage.from(TextContent.from("listen"), AudioContent.from("AAAA", "audio/wav"));
        assertThrows(InvalidArgumentException.class, () -> LangChain4jMessages.toRow(audio, true));
    }

    @Test
    void rowsLangChain4jCannotHoldAreRefused() {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "cli");
            store.appendMessage("s", NewMessage.of("system", "  "));
            store.appendMessage("s", NewMessage.of("session_meta", "{}"));
            List<Message> rows = store.getMessages("s");
            assertTrue(assertThrows(InvalidArgumentException.class, () -> LangChain4jMessages.fromRow(rows.get(0)))
                    .getMessage().contains("system message without text"));
            assertTrue(assertThrows(InvalidArgumentException.class, () -> LangChain4jMessages.fromRow(rows.get(1)))
                    .getMessage().contains("'session_meta'"));
        }
    }

    @Test
    void aConversationThePythonAgentWroteReads() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        try (StateRepository store = StateRepository.open(copy)) {
            String session = store.dsl().select(MESSAGES.SESSION_ID).from(MESSAGES)
                    .where(MESSAGES.TOOL_CALLS.like("%call_0002%")).fetchOne(MESSAGES.SESSION_ID);
            List<ChatMessage> messages = LangChain4jMessages.fromRows(store.getMessages(session));
            int answered = 0;
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i) instanceof AiMessage ai && ai.hasToolExecutionRequests()) {
                    // every request is answered by the next messages, in order
                    for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
                        ToolExecutionResultMessage result = assertInstanceOf(ToolExecutionResultMessage.class, messages.get(++i));
                        assertEquals(List.of(request.id(), request.name()), List.of(result.id(), result.toolName()));
                        answered++;
                    }
                }
            }
            assertEquals(2, answered, "the session has two answered tool calls: " + messages);
        }
    }
}
