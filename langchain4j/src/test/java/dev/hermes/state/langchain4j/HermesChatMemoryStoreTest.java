package dev.hermes.state.langchain4j;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.memory.ConversationWindows;
import dev.hermes.state.memory.ReferenceWindows;
import dev.hermes.state.memory.TestStore;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HermesChatMemoryStoreTest {
    @TempDir
    Path dir;

    /** Turn i: the user asks, the assistant calls a tool, the tool answers, the assistant replies. */
    static List<ChatMessage> turns(int count) {
        List<ChatMessage> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ToolExecutionRequest request = ToolExecutionRequest.builder().id("call_" + i).name("lookup")
                    .arguments("{\"n\": " + i + "}").build();
            messages.add(UserMessage.from("question " + i + (i == 0 ? " about the kestrel nest" : "")));
            messages.add(AiMessage.from(request));
            messages.add(ToolExecutionResultMessage.from(request, "result " + i));
            // the same short reply every time: equal messages are still distinct messages
            messages.add(AiMessage.from("ok"));
        }
        return messages;
    }

    private static ChatMemory window(Object id, dev.langchain4j.store.memory.chat.ChatMemoryStore store, boolean systemFirst) {
        return MessageWindowChatMemory.builder().id(id).maxMessages(10).chatMemoryStore(store)
                .alwaysKeepSystemMessageFirst(systemFirst).build();
    }

    @Test
    void theWindowMemoryStoresEveryMessageOnceAndReturnsExactlyItsWindow() {
        try (StateRepository store = TestStore.open(dir)) {
            ReferenceWindows windows = new ReferenceWindows(store);
            ChatMemory hermes = window(42, HermesChatMemoryStore.builder(store).windows(windows).build(), false);
            ChatMemory reference = window(42, new InMemoryChatMemoryStore(), false);
            List<ChatMessage> adds = new ArrayList<>();
            adds.add(SystemMessage.from("You are terse."));
            adds.addAll(turns(8));
            adds.add(SystemMessage.from("You are terse."));   // the same system message again: no save at all
            for (ChatMessage message : adds) {
                hermes.add(message);
                reference.add(message);
                assertEquals(reference.messages(), hermes.messages());
            }

            // 33 messages, each stored once, in the session named by memoryId.toString()
            assertEquals(33, store.messageCount("42"));
            assertEquals(33L, (long) store.dsl().selectCount().from(MESSAGES).fetchOne().value1());
            List<List<ConversationWindows.Entry>> saves = windows.saves();
            assertEquals(33, saves.size());
            for (List<ConversationWindows.Entry> save : saves) {
                assertEquals(1, save.stream().filter(entry -> entry.storedId() == null).count(), save.toString());
                assertNull(save.get(save.size() - 1).storedId(), "the new message comes last");
            }
            assertEquals(List.of("42"), store.searchMessages(SearchQuery.of("kestrel")).stream().map(hit -> hit.sessionId()).toList());
            assertEquals(SystemMessage.from("You are terse."), hermes.messages().get(0));
        }
    }

    @Test
    void aNewSystemMessageKeptFirstIsANewRowAtTheHeadOfTheWindow() {
        try (StateRepository store = TestStore.open(dir)) {
            ReferenceWindows windows = new ReferenceWindows(store);
            ChatMemory hermes = window("m", HermesChatMemoryStore.builder(store).windows(windows).build(), true);
            ChatMemory reference = window("m", new InMemoryChatMemoryStore(), true);
            List<ChatMessage> adds = new ArrayList<>(List.of(SystemMessage.from("Be brief.")));
            adds.addAll(turns(2));
            adds.add(SystemMessage.from("Be thorough."));
            for (ChatMessage message : adds) {
                hermes.add(message);
                reference.add(message);
            }
            assertEquals(reference.messages(), hermes.messages());
            assertEquals(SystemMessage.from("Be thorough."), hermes.messages().get(0));
            assertEquals(10, store.messageCount("m"), "the replaced system message stays in the session");
            List<ConversationWindows.Entry> last = windows.saves().get(windows.saves().size() - 1);
            assertNull(last.get(0).storedId(), "the new system message is the only new entry, placed first");
            assertEquals(1, last.stream().filter(entry -> entry.storedId() == null).count());
        }
    }

    @Test
    void aRefusedMessageWritesNothing() {
        try (StateRepository store = TestStore.open(dir)) {
            ReferenceWindows windows = new ReferenceWindows(store);
            HermesChatMemoryStore memoryStore = HermesChatMemoryStore.builder(store).windows(windows).build();
            UserMessage picture = UserMessage.from(TextContent.from("look"), ImageContent.from("https://example.invalid/a.png"));
            assertThrows(InvalidArgumentException.class,
                    () -> memoryStore.updateMessages("m", List.of(UserMessage.from("first"), picture)));
            assertEquals(List.of(), windows.saves());
            assertEquals(0, store.sessionCount(null));
        }
    }

    @Test
    void memoriesAreListedOnceAndDeletedWithTheirChain() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryStore memoryStore = HermesChatMemoryStore.builder(store).source("support-bot").build();
            store.createSession("a", "support-bot");
            store.endSession("a", "compression");
            store.createSession(NewSession.builder("a2", "support-bot").parentSessionId("a").build());
            store.createSession("b", "support-bot");
            store.createSession("other", HermesChatMemoryStore.DEFAULT_SOURCE);
            assertEquals(List.of("a", "b"), memoryStore.memoryIds());

            memoryStore.deleteMessages("a");

            assertEquals(List.of("b"), memoryStore.memoryIds());
            assertEquals(2, store.sessionCount(null));
        }
    }

    @Test
    void argumentsAreCheckedAtTheBoundary() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryStore memoryStore = new HermesChatMemoryStore(store);
            assertThrows(InvalidArgumentException.class, () -> new HermesChatMemoryStore(null));
            assertThrows(InvalidArgumentException.class, () -> HermesChatMemoryStore.builder(store).source("").build());
            assertThrows(InvalidArgumentException.class, () -> memoryStore.getMessages(null));
            assertThrows(InvalidArgumentException.class, () -> memoryStore.getMessages(" "));
            assertThrows(InvalidArgumentException.class, () -> memoryStore.updateMessages("m", null));
            assertThrows(InvalidArgumentException.class, () -> memoryStore.deleteMessages(null));
            assertEquals(0, store.sessionCount(null));
        }
    }
}
