package dev.hermes.state.springai;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.memory.ConversationWindows;
import dev.hermes.state.memory.ReferenceWindows;
import dev.hermes.state.memory.TestStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeTypeUtils;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HermesChatMemoryRepositoryTest {
    @TempDir
    Path dir;

    /** Turn i: the user asks, the assistant calls a tool, the tool answers, the assistant replies. */
    static List<List<Message>> turns(int count) {
        List<List<Message>> turns = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String call = "call_" + i;
            turns.add(List.of(new UserMessage("question " + i + (i == 0 ? " about the kestrel nest" : ""))));
            turns.add(List.of(AssistantMessage.builder().content("").toolCalls(List.of(
                    new AssistantMessage.ToolCall(call, "function", "lookup", "{\"n\": " + i + "}"))).build()));
            turns.add(List.of(ToolResponseMessage.builder().responses(List.of(
                    new ToolResponseMessage.ToolResponse(call, "lookup", "result " + i))).build()));
            // the same short reply every time: equal messages are still distinct messages
            turns.add(List.of(new AssistantMessage("ok")));
        }
        return turns;
    }

    @Test
    void theWindowMemoryStoresEveryMessageOnceAndReturnsExactlyItsWindow() {
        try (StateRepository store = TestStore.open(dir)) {
            ReferenceWindows windows = new ReferenceWindows(store);
            ChatMemory hermes = MessageWindowChatMemory.builder().maxMessages(10)
                    .chatMemoryRepository(HermesChatMemoryRepository.builder(store).windows(windows).build()).build();
            ChatMemory reference = MessageWindowChatMemory.builder().maxMessages(10)
                    .chatMemoryRepository(new InMemoryChatMemoryRepository()).build();
            List<List<Message>> adds = new ArrayList<>();
            adds.add(List.of(new SystemMessage("You are terse.")));
            adds.addAll(turns(8));
            for (List<Message> add : adds) {
                hermes.add("c1", add);
                reference.add("c1", add);
                assertEquals(reference.get("c1"), hermes.get("c1"));
            }

            // 33 messages, each stored once, in order
            assertEquals(33, store.messageCount("c1"));
            assertEquals(33L, (long) store.dsl().selectCount().from(MESSAGES).fetchOne().value1());
            // every save handed the new message only as new, every other one as the stored row it was loaded from
            List<List<ConversationWindows.Entry>> saves = windows.saves();
            assertEquals(adds.size(), saves.size());
            for (List<ConversationWindows.Entry> save : saves) {
                assertEquals(1, save.stream().filter(entry -> entry.storedId() == null).count(), save.toString());
                assertEquals(null, save.get(save.size() - 1).storedId(), "the new message comes last");
            }
            // the first question left the window long ago, but is found
            assertEquals(List.of("c1"), store.searchMessages(SearchQuery.of("kestrel")).stream().map(hit -> hit.sessionId()).toList());
            List<Message> window = hermes.get("c1");
            assertEquals(10, window.size());
            assertEquals(new SystemMessage("You are terse."), window.get(0));
        }
    }

    @Test
    void aSaveOfSeveralMessagesAtOnceAppendsThemAll() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = HermesChatMemoryRepository.builder(store)
                    .windows(new ReferenceWindows(store)).source("billing-bot").build();
            List<Message> batch = turns(2).stream().flatMap(List::stream).toList();
            repository.saveAll("c2", batch);
            assertEquals(batch, repository.findByConversationId("c2"));
            assertEquals("billing-bot", store.getSession("c2").orElseThrow().source());
            assertEquals(List.of("c2"), repository.findConversationIds());
        }
    }

    @Test
    void aRefusedMessageWritesNothing() {
        try (StateRepository store = TestStore.open(dir)) {
            ReferenceWindows windows = new ReferenceWindows(store);
            HermesChatMemoryRepository repository = HermesChatMemoryRepository.builder(store).windows(windows).build();
            Media png = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(new byte[]{1})).build();
            List<Message> withPicture = List.of(new UserMessage("first"),
                    UserMessage.builder().text("look").media(png).build());
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c3", withPicture));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c3", Arrays.asList(new UserMessage("x"), null)));
            assertEquals(List.of(), windows.saves());
            assertEquals(0, store.sessionCount(null));
        }
    }

    @Test
    void conversationsAreListedOnceAndDeletedWithTheirChain() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(store);
            store.createSession("a", HermesChatMemoryRepository.DEFAULT_SOURCE);
            store.endSession("a", "compression");
            store.createSession(NewSession.builder("a2", HermesChatMemoryRepository.DEFAULT_SOURCE).parentSessionId("a").build());
            store.createSession("b", HermesChatMemoryRepository.DEFAULT_SOURCE);
            store.createSession("cli-session", "cli");
            assertEquals(List.of("a", "b"), repository.findConversationIds());

            repository.deleteByConversationId("a");

            assertEquals(List.of("b"), repository.findConversationIds());
            assertEquals(2, store.sessionCount(null));
        }
    }

    @Test
    void argumentsAreCheckedAtTheBoundary() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(store);
            assertThrows(InvalidArgumentException.class, () -> new HermesChatMemoryRepository(null));
            assertThrows(InvalidArgumentException.class, () -> HermesChatMemoryRepository.builder(store).source(" ").build());
            assertThrows(InvalidArgumentException.class, () -> HermesChatMemoryRepository.builder(store).windows(null));
            assertThrows(InvalidArgumentException.class, () -> repository.findByConversationId(" "));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll(null, List.of()));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c", null));
            assertThrows(InvalidArgumentException.class, () -> repository.deleteByConversationId(""));
            assertEquals(0, store.sessionCount(null));
        }
    }
}
