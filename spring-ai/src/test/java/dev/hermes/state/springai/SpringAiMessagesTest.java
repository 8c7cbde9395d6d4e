package dev.hermes.state.springai;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.memory.TestStore;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeTypeUtils;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpringAiMessagesTest {
    @TempDir
    Path dir;

    static final AssistantMessage CALLS_TWO_TOOLS = AssistantMessage.builder().content("")
            .toolCalls(List.of(
                    new AssistantMessage.ToolCall("call_1", "function", "read_file", "{\"path\": \"README.md\"}"),
                    new AssistantMessage.ToolCall("call_2", "function", "terminal", "{\"command\": \"git status\"}")))
            .build();
    static final ToolResponseMessage TWO_RESPONSES = ToolResponseMessage.builder().responses(List.of(
            new ToolResponseMessage.ToolResponse("call_1", "read_file", "{\"content\": \"# Project\"}"),
            new ToolResponseMessage.ToolResponse("call_2", "terminal", "{\"exit_code\": 0}"))).build();

    /** Saved through appendMessages, read back through getMessages: the path every adapter's window uses. */
    private List<Message> roundTrip(StateRepository store, List<Message> messages) {
        store.createSession("s", "spring-ai");
        store.appendMessages("s", SpringAiMessages.toRows(messages));
        return SpringAiMessages.fromRows(store.getMessages("s"));
    }

    @Test
    void everyTypeReadsBackEqualInOrder() {
        List<Message> conversation = List.of(
                new SystemMessage("You are a careful assistant."),
                new UserMessage("What does the README say? 数据库迁移 🙏"),
                CALLS_TWO_TOOLS,
                TWO_RESPONSES,
                new AssistantMessage("It says: # Project, and the tree is clean."),
                AssistantMessage.builder().content(null).toolCalls(List.of(
                        new AssistantMessage.ToolCall("call_3", "function", "terminal", "{}"))).build(),
                ToolResponseMessage.builder().responses(List.of(
                        new ToolResponseMessage.ToolResponse("call_3", "terminal", "done"))).build(),
                new UserMessage("  thanks\n"));
        try (StateRepository store = TestStore.open(dir)) {
            assertEquals(conversation, roundTrip(store, conversation));

            // one tool row per response, with its call id and tool name; the counters of append_message
            List<dev.hermes.state.core.model.Message> rows = store.getMessages("s");
            assertEquals(List.of("system", "user", "assistant", "tool", "tool", "assistant", "assistant", "tool", "user"),
                    rows.stream().map(dev.hermes.state.core.model.Message::role).toList());
            assertEquals(List.of("call_1", "read_file"), List.of(rows.get(3).toolCallId(), rows.get(3).toolName()));
            assertEquals(List.of("call_2", "terminal"), List.of(rows.get(4).toolCallId(), rows.get(4).toolName()));
            assertNull(rows.get(6).content());
            assertEquals(9, store.getSession("s").orElseThrow().messageCount());
            assertEquals(3, store.getSession("s").orElseThrow().toolCallCount());
        }
    }

    @Test
    void aToolCallWithoutTypeIsStoredAsAFunctionCall() {
        AssistantMessage untyped = AssistantMessage.builder().content("x")
                .toolCalls(List.of(new AssistantMessage.ToolCall("c", null, "f", "{}"))).build();
        try (StateRepository store = TestStore.open(dir)) {
            AssistantMessage read = (AssistantMessage) roundTrip(store, List.of(untyped)).get(0);
            assertEquals(List.of(new AssistantMessage.ToolCall("c", "function", "f", "{}")), read.getToolCalls());
        }
    }

    @Test
    void metadataIsNotKeptOnlyTheMessageType() {
        UserMessage withMetadata = UserMessage.builder().text("hello").metadata(Map.of("traceId", "abc")).build();
        try (StateRepository store = TestStore.open(dir)) {
            Message read = roundTrip(store, List.of(withMetadata)).get(0);
            assertEquals("hello", read.getText());
            assertEquals(Map.of("messageType", MessageType.USER), read.getMetadata());
        }
    }

    @Test
    void consecutiveToolResponseMessagesReadBackAsOne() {
        List<Message> split = List.of(CALLS_TWO_TOOLS,
                ToolResponseMessage.builder().responses(List.of(TWO_RESPONSES.getResponses().get(0))).build(),
                ToolResponseMessage.builder().responses(List.of(TWO_RESPONSES.getResponses().get(1))).build());
        try (StateRepository store = TestStore.open(dir)) {
            assertEquals(List.of(CALLS_TWO_TOOLS, TWO_RESPONSES), roundTrip(store, split));
        }
    }

    @Test
    void mediaIsRefusedNotDropped() {
        Media png = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(new byte[]{1, 2})).build();
        UserMessage picture = UserMessage.builder().text("what is this?").media(png).build();
        AssistantMessage drawn = AssistantMessage.builder().content("here").media(List.of(png)).build();
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
                () -> SpringAiMessages.toRows(List.of(new UserMessage("fine"), picture)));
        assertTrue(refused.getMessage().contains("media"), refused.getMessage());
        assertThrows(InvalidArgumentException.class, () -> SpringAiMessages.toRows(drawn));
    }

    @Test
    void onAStoreAtSeventeenAUsersImagesAreStoredAsTheAgentsPartsAndReadBack() {
        Media png = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(new byte[]{1, 2})).build();
        Media byUrl = new Media(MimeTypeUtils.IMAGE_JPEG, java.net.URI.create("https://example.invalid/m42.jpg"));
        UserMessage picture = UserMessage.builder().text("what is this?").media(List.of(png, byUrl)).build();
        UserMessage onlyAnImage = UserMessage.builder().text("").media(List.of(png)).build();
        try (StateRepository store = TestStore.open(dir, 17)) {
            store.createSession("s", "spring-ai");
            store.appendMessages("s", SpringAiMessages.toRows(List.of(picture, new AssistantMessage("M42."), onlyAnImage), true));
            List<dev.hermes.state.core.model.Message> rows = store.getMessages("s");
            assertEquals(List.of(Map.of("type", "text", "text", "what is this?"),
                    Map.of("type", "image_url", "image_url", Map.of("url", "data:image/png;base64,AQI=")),
                    Map.of("type", "image_url", "image_url", Map.of("url", "https://example.invalid/m42.jpg"))),
                    rows.get(0).content().value());
            List<Message> read = SpringAiMessages.fromRows(rows);
            UserMessage back = assertInstanceOf(UserMessage.class, read.get(0));
            assertEquals("what is this?", back.getText());
            assertEquals(List.of(MimeTypeUtils.IMAGE_PNG, MimeTypeUtils.IMAGE_JPEG),
                    back.getMedia().stream().map(Media::getMimeType).toList());
            assertTrue(java.util.Arrays.equals(new byte[]{1, 2}, back.getMedia().get(0).getDataAsByteArray()));
            assertEquals("https://example.invalid/m42.jpg", back.getMedia().get(1).getData());
            assertEquals(new AssistantMessage("M42."), read.get(1));
            UserMessage image = assertInstanceOf(UserMessage.class, read.get(2));
            assertEquals(List.of("", 1), List.of(image.getText(), image.getMedia().size()));
        }
        Media pdf = Media.builder().mimeType(MimeTypeUtils.parseMimeType("application/pdf")).data(new ByteArrayResource(new byte[]{1})).build();
        assertThrows(InvalidArgumentException.class,
                () -> SpringAiMessages.toRows(UserMessage.builder().text("read").media(List.of(pdf)).build(), true));
        assertThrows(InvalidArgumentException.class,
                () -> SpringAiMessages.toRows(AssistantMessage.builder().content("here").media(List.of(png)).build(), true));
    }

    @Test
    void whatHermesCannotHoldIsRefused() {
        assertThrows(InvalidArgumentException.class,
                () -> SpringAiMessages.toRows(ToolResponseMessage.builder().responses(List.of()).build()));
        assertThrows(InvalidArgumentException.class, () -> SpringAiMessages.toRows((Message) null));
        assertThrows(InvalidArgumentException.class, () -> SpringAiMessages.toRows((List<Message>) null));
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s", "cli");
            store.appendMessage("s", NewMessage.of("session_meta", "{}"));
            InvalidArgumentException unknown = assertThrows(InvalidArgumentException.class,
                    () -> SpringAiMessages.fromRows(store.getMessages("s")));
            assertTrue(unknown.getMessage().contains("'session_meta'"), unknown.getMessage());
        }
    }

    @Test
    void aConversationThePythonAgentWroteReads() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        try (StateRepository store = StateRepository.open(copy)) {
            String session = store.dsl().select(MESSAGES.SESSION_ID).from(MESSAGES)
                    .where(MESSAGES.TOOL_CALLS.like("%call_0002%")).fetchOne(MESSAGES.SESSION_ID);
            List<Message> messages = SpringAiMessages.fromRows(store.getMessages(session));
            int calls = 0;
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i) instanceof AssistantMessage assistant && assistant.hasToolCalls()) {
                    calls++;
                    // every call is answered by the next message, response for response
                    ToolResponseMessage answer = assertInstanceOf(ToolResponseMessage.class, messages.get(i + 1));
                    assertEquals(assistant.getToolCalls().stream().map(AssistantMessage.ToolCall::id).toList(),
                            answer.getResponses().stream().map(ToolResponseMessage.ToolResponse::id).toList());
                    assertEquals(assistant.getToolCalls().stream().map(AssistantMessage.ToolCall::name).toList(),
                            answer.getResponses().stream().map(ToolResponseMessage.ToolResponse::name).toList());
                }
            }
            assertEquals(1, calls, "the session has one assistant message with tool calls: " + messages);
        }
    }
}
