package dev.hermes.state.springai;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.memory.RecordingWindows;
import dev.hermes.state.memory.TestStore;
import dev.hermes.state.testsupport.ChildProcess;
import dev.hermes.state.testsupport.Command;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.SqliteFiles;
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
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private static ChatMemory window(StateRepository store) {
        return MessageWindowChatMemory.builder().maxMessages(10).chatMemoryRepository(new HermesChatMemoryRepository(store)).build();
    }

    @Test
    void theWindowMemoryStoresEveryMessageOnceAndReturnsExactlyItsWindow() throws SQLException {
        Path file = TestStore.file(dir);
        List<Message> lastWindow;
        try (StateRepository store = TestStore.open(dir)) {
            RecordingWindows windows = new RecordingWindows(store);
            ChatMemory hermes = MessageWindowChatMemory.builder().maxMessages(10)
                    .chatMemoryRepository(windows.into(HermesChatMemoryRepository.builder(store)).build()).build();
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
            // every save handed the new message only as new, every other one as the stored row it was loaded from
            List<List<WindowEntry>> saves = windows.saves();
            assertEquals(adds.size(), saves.size());
            for (List<WindowEntry> save : saves) {
                assertEquals(1, save.stream().filter(entry -> entry.storedId() == null).count(), save.toString());
                assertNull(save.get(save.size() - 1).storedId(), "the new message comes last");
            }
            lastWindow = reference.get("c1");
            // Spring AI 2.0's window of 10 keeps the system message and starts the rest at a user message: the
            // reply that would be tenth (turn 5's "ok") is dropped with its turn (Spring AI 1.1 kept it: 10)
            assertEquals(9, lastWindow.size());
            assertEquals(new SystemMessage("You are terse."), lastWindow.get(0));
            assertEquals(new UserMessage("question 6"), lastWindow.get(1));
        }

        // plain SQL on the closed file: 33 messages, each stored once (only the eight equal "ok" replies repeat)
        assertEquals(33, SqliteFiles.number(file, "SELECT count(*) FROM messages WHERE session_id = 'c1'"));
        assertEquals(33, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = 'c1'"));
        assertEquals(8, SqliteFiles.number(file, "SELECT tool_call_count FROM sessions WHERE id = 'c1'"));
        assertEquals(List.of("assistant|ok|8"), SqliteFiles.column(file, "SELECT role || '|' || content || '|' || count(*)"
                + " FROM messages GROUP BY role, content, tool_call_id, tool_calls HAVING count(*) > 1"));
        assertEquals(List.of("spring-ai"), SqliteFiles.column(file, "SELECT source FROM sessions"));
        // the search index finds the first question, which left the window long ago
        List<String> found = SqliteFiles.column(file, "SELECT m.id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid"
                + " WHERE messages_fts MATCH 'kestrel'");
        assertEquals(SqliteFiles.column(file, "SELECT min(id) FROM messages WHERE role = 'user'"), found);
        assertEquals(0, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message WHERE message_id = ?", found.get(0)));

        // a new memory on the reopened store returns exactly the last window
        try (StateRepository reopened = TestStore.open(dir)) {
            assertEquals(lastWindow, window(reopened).get("c1"));
        }
    }

    @Test
    void aConversationReadsBackExactlyAfterARestartWithAToolResponseOfTwoResponses() {
        List<Message> conversation = List.of(new SystemMessage("You plan trips."), new UserMessage("Weather and trains to Porto?"),
                AssistantMessage.builder().content("Let me check both.").toolCalls(List.of(
                        new AssistantMessage.ToolCall("call_w", "function", "weather", "{\"city\": \"Porto\"}"),
                        new AssistantMessage.ToolCall("call_t", "function", "trains", "{\"to\": \"Porto\"}"))).build(),
                ToolResponseMessage.builder().responses(List.of(
                        new ToolResponseMessage.ToolResponse("call_w", "weather", "sunny, 24 C"),
                        new ToolResponseMessage.ToolResponse("call_t", "trains", "every hour from 07:00"))).build(),
                new AssistantMessage("Sunny, and a train every hour."));
        try (StateRepository store = TestStore.open(dir)) {
            new HermesChatMemoryRepository(store).saveAll("trip", conversation);
        }
        try (StateRepository reopened = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(reopened);
            assertEquals(conversation, repository.findByConversationId("trip"));
            assertEquals(6, reopened.messageCount("trip"), "one row per tool response");
            // saved back as loaded: the two responses are the two stored rows, kept
            repository.saveAll("trip", repository.findByConversationId("trip"));
            assertEquals(6, reopened.messageCount("trip"));
            assertEquals(conversation, repository.findByConversationId("trip"));
        }
    }

    @Test
    void twoThreadsAddingToOneConversationNeverLoseOrDuplicateAMessage() throws Exception {
        int perThread = 25;
        try (StateRepository store = TestStore.open(dir)) {
            ChatMemory memory = window(store);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (String thread : List.of("t0", "t1")) {
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            memory.add("shared", new UserMessage(thread + " message " + i));
                        }
                    }));
                }
                for (Future<?> future : done) {
                    future.get();
                }
            } finally {
                threads.shutdown();
            }
            assertEveryMessageOnce(TestStore.file(dir), perThread);
            List<Message> window = memory.get("shared");
            assertEquals(10, window.size());
            String last = window.get(9).getText();
            assertTrue(last.equals("t0 message 24") || last.equals("t1 message 24"), last);
        }
    }

    @Test
    void twoProcessesAddingToOneConversationNeverLoseOrDuplicateAMessage() throws SQLException {
        int perProcess = 40;
        Path file = TestStore.file(dir);
        TestStore.open(dir).close();
        List<ChildProcess> children = new ArrayList<>();
        try {
            for (String process : List.of("t0", "t1")) {
                ChildProcess child = Command.java(AddingChild.class, file.toString(), process, String.valueOf(perProcess)).start();
                children.add(child);
                assertEquals("READY", child.nextLine(Duration.ofMinutes(1)));
            }
            children.forEach(child -> child.send("GO"));
            for (ChildProcess child : children) {
                assertEquals(0, child.finish(Duration.ofMinutes(2)).exitCode(), child.transcript());
            }
        } finally {
            children.forEach(ChildProcess::close);
        }
        assertEveryMessageOnce(file, perProcess);
    }

    /** Two writers, "t0" and "t1", each added "tN message i" for i below {@code each}: all of them, each once. */
    static void assertEveryMessageOnce(Path file, int each) throws SQLException {
        List<String> expected = new ArrayList<>();
        for (String writer : List.of("t0", "t1")) {
            for (int i = 0; i < each; i++) {
                expected.add(writer + " message " + i);
            }
        }
        expected.sort(null);
        assertEquals(expected, SqliteFiles.column(file, "SELECT content FROM messages WHERE session_id = 'shared' ORDER BY content"));
        assertEquals(2L * each, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = 'shared'"));
    }

    /** A child process: adds "NAME message i" to conversation "shared" through the window memory, after GO. */
    public static final class AddingChild {
        public static void main(String[] args) throws Exception {
            try (StateRepository store = StateRepository.open(Path.of(args[0]))) {
                ChatMemory memory = window(store);
                System.out.println("READY");
                if (!"GO".equals(new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine())) {
                    System.exit(2);
                }
                for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                    memory.add("shared", new UserMessage(args[1] + " message " + i));
                }
            }
        }
    }

    @Test
    void aRewriteThroughSaveAllContinuesInACompressionChildListedOnceAndDeletedWithIt() throws SQLException {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(store);
            ChatMemory memory = MessageWindowChatMemory.builder().maxMessages(10).chatMemoryRepository(repository).build();
            memory.add("c1", new UserMessage("Book a table for two."));
            memory.add("c1", new AssistantMessage("For which evening?"));
            memory.add("c1", new UserMessage("Friday."));
            List<Message> loaded = repository.findByConversationId("c1");
            List<Message> edited = List.of(loaded.get(0), new AssistantMessage("Which evening, and where?"), loaded.get(2));

            repository.saveAll("c1", edited);

            Session root = store.getSession("c1").orElseThrow();
            assertEquals("compression", root.endReason());
            String child = store.getCompressionTip("c1");
            assertEquals("c1", store.getSession(child).orElseThrow().parentSessionId());
            assertEquals(3, store.messageCount("c1"));
            assertEquals(3, store.messageCount(child));
            assertEquals(List.of("c1"), repository.findConversationIds());
            assertEquals(edited, repository.findByConversationId("c1"));
            memory.add("c1", new AssistantMessage("Friday it is."));
            assertEquals(4, store.messageCount(child), "the conversation goes on in the child");

            repository.deleteByConversationId("c1");
            assertEquals(0, store.sessionCount());
            assertEquals(0, store.messageCount(null));
            assertEquals(List.of(), repository.findConversationIds());
            assertEquals(0, SqliteFiles.number(TestStore.file(dir), "SELECT count(*) FROM hermes_state_window_message"));
        }
    }

    @Test
    void aSessionThePythonAgentWroteReadsWithAllItsMessagesAndGoesOn() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        String session = "20260311_080000_2133b2";
        try (StateRepository store = StateRepository.open(copy)) {
            HermesChatMemoryRepository repository = HermesChatMemoryRepository.builder(store).source("cli").build();
            List<Message> read = repository.findByConversationId(session);
            assertEquals(SpringAiMessages.fromRows(store.getMessages(session)), read);
            assertEquals(6, store.messageCount(session));
            ChatMemory memory = MessageWindowChatMemory.builder().maxMessages(10).chatMemoryRepository(repository).build();
            memory.add(session, new UserMessage("and the staging database?"));
            assertEquals(7, store.messageCount(session), "the agent's rows were kept, only the new one appended");
            assertEquals(30, store.sessionCount());
            assertEquals(read.size() + 1, repository.findByConversationId(session).size());
        }
    }

    @Test
    void aSaveOfSeveralMessagesAtOnceAppendsThemAll() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = HermesChatMemoryRepository.builder(store).source("billing-bot").build();
            List<Message> batch = turns(2).stream().flatMap(List::stream).toList();
            repository.saveAll("c2", batch);
            assertEquals(batch, repository.findByConversationId("c2"));
            assertEquals("billing-bot", store.getSession("c2").orElseThrow().source());
            assertEquals(List.of("c2"), repository.findConversationIds());
            assertEquals(List.of(), repository.findByConversationId("unknown"));
        }
    }

    @Test
    void onAStoreAtSeventeenAPictureIsKeptAndHandedBackAsStored() {
        try (StateRepository store = TestStore.open(dir, 17)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(store);
            Media png = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(new byte[]{7})).build();
            repository.saveAll("c4", List.of(UserMessage.builder().text("look").media(png).build(), new AssistantMessage("A dot.")));
            List<Message> read = repository.findByConversationId("c4");
            UserMessage picture = (UserMessage) read.get(0);
            assertEquals("look", picture.getText());
            assertEquals(MimeTypeUtils.IMAGE_PNG, picture.getMedia().get(0).getMimeType());
            List<Message> next = new ArrayList<>(read);
            next.add(new UserMessage("and now?"));
            repository.saveAll("c4", next);
            assertEquals(3, store.messageCount("c4"), "the handed-out picture is kept, not stored again");
            assertEquals(List.of("look", "A dot.", "and now?"),
                    repository.findByConversationId("c4").stream().map(Message::getText).toList());
        }
    }

    @Test
    void aRefusedMessageWritesNothing() {
        // kept at 6, a store cannot hold a picture (at 17 it can: onAStoreAtSeventeenAPictureIsKeptAndHandedBackAsStored)
        try (StateRepository store = TestStore.open(dir, 6)) {
            RecordingWindows windows = new RecordingWindows(store);
            HermesChatMemoryRepository repository = windows.into(HermesChatMemoryRepository.builder(store)).build();
            Media png = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(new byte[]{1})).build();
            List<Message> withPicture = List.of(new UserMessage("first"),
                    UserMessage.builder().text("look").media(png).build());
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c3", withPicture));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c3", Arrays.asList(new UserMessage("x"), null)));
            assertEquals(List.of(), windows.saves());
            assertEquals(0, store.sessionCount());
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
            assertEquals(2, store.sessionCount());
            assertFalse(store.getSession("a2").isPresent());
        }
    }

    @Test
    void argumentsAreCheckedAtTheBoundary() {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryRepository repository = new HermesChatMemoryRepository(store);
            assertThrows(InvalidArgumentException.class, () -> new HermesChatMemoryRepository(null));
            assertThrows(InvalidArgumentException.class, () -> HermesChatMemoryRepository.builder(store).source(" ").build());
            assertThrows(InvalidArgumentException.class, () -> repository.findByConversationId(" "));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll(null, List.of()));
            assertThrows(InvalidArgumentException.class, () -> repository.saveAll("c", null));
            assertThrows(InvalidArgumentException.class, () -> repository.deleteByConversationId(""));
            assertEquals(0, store.sessionCount());
        }
    }
}
