package dev.hermes.state.langchain4j;

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
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private static ChatMemory window(Object id, ChatMemoryStore store, boolean systemFirst) {
        return MessageWindowChatMemory.builder().id(id).maxMessages(10).chatMemoryStore(store)
                .alwaysKeepSystemMessageFirst(systemFirst).build();
    }

    @Test
    void theWindowMemoryStoresEveryMessageOnceAndReturnsExactlyItsWindow() throws SQLException {
        Path file = TestStore.file(dir);
        List<ChatMessage> lastWindow;
        try (StateRepository store = TestStore.open(dir)) {
            RecordingWindows windows = new RecordingWindows(store);
            ChatMemory hermes = window(42, windows.into(HermesChatMemoryStore.builder(store)).build(), false);
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
            List<List<WindowEntry>> saves = windows.saves();
            assertEquals(33, saves.size());
            for (List<WindowEntry> save : saves) {
                assertEquals(1, save.stream().filter(entry -> entry.storedId() == null).count(), save.toString());
                assertNull(save.get(save.size() - 1).storedId(), "the new message comes last");
            }
            lastWindow = reference.messages();
            assertEquals(10, lastWindow.size());
            assertEquals(SystemMessage.from("You are terse."), lastWindow.get(0));
        }

        // plain SQL on the closed file: 33 messages in the session memoryId.toString() names, each stored once
        assertEquals(33, SqliteFiles.number(file, "SELECT count(*) FROM messages WHERE session_id = '42'"));
        assertEquals(33, SqliteFiles.number(file, "SELECT message_count FROM sessions WHERE id = '42'"));
        assertEquals(8, SqliteFiles.number(file, "SELECT tool_call_count FROM sessions WHERE id = '42'"));
        assertEquals(List.of("assistant|ok|8"), SqliteFiles.column(file, "SELECT role || '|' || content || '|' || count(*)"
                + " FROM messages GROUP BY role, content, tool_call_id, tool_calls HAVING count(*) > 1"));
        assertEquals(List.of("langchain4j"), SqliteFiles.column(file, "SELECT source FROM sessions"));
        List<String> found = SqliteFiles.column(file, "SELECT m.id FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid"
                + " WHERE messages_fts MATCH 'kestrel'");
        assertEquals(SqliteFiles.column(file, "SELECT min(id) FROM messages WHERE role = 'user'"), found);
        assertEquals(0, SqliteFiles.number(file, "SELECT count(*) FROM hermes_state_window_message WHERE message_id = ?", found.get(0)));

        try (StateRepository reopened = TestStore.open(dir)) {
            assertEquals(lastWindow, window(42, new HermesChatMemoryStore(reopened), false).messages());
        }
    }

    @Test
    void aNewSystemMessageKeptFirstIsANewRowAtTheHeadOfTheWindow() {
        try (StateRepository store = TestStore.open(dir)) {
            RecordingWindows windows = new RecordingWindows(store);
            ChatMemory hermes = window("m", windows.into(HermesChatMemoryStore.builder(store)).build(), true);
            ChatMemory reference = window("m", new InMemoryChatMemoryStore(), true);
            List<ChatMessage> adds = new ArrayList<>(List.of(SystemMessage.from("Be brief.")));
            adds.addAll(turns(2));
            adds.add(SystemMessage.from("Be thorough."));
            adds.addAll(turns(1));
            for (ChatMessage message : adds) {
                hermes.add(message);
                reference.add(message);
                assertEquals(reference.messages(), hermes.messages());
            }
            assertEquals(SystemMessage.from("Be thorough."), hermes.messages().get(0));
            assertEquals(14, store.messageCount("m"), "the replaced system message stays in the session");
            assertEquals(1, store.sessionCount(), "a system message moved to the head is not a rewrite");
            List<WindowEntry> systemSave = windows.saves().get(9);
            assertNull(systemSave.get(0).storedId(), "the new system message is the only new entry, placed first");
            assertEquals(1, systemSave.stream().filter(entry -> entry.storedId() == null).count());
        }
    }

    @Test
    void aMemoryReadsBackExactlyAfterARestart() {
        ToolExecutionRequest weather = ToolExecutionRequest.builder().id("call_w").name("weather").arguments("{\"city\": \"Porto\"}").build();
        ToolExecutionRequest trains = ToolExecutionRequest.builder().id("call_t").name("trains").arguments("{\"to\": \"Porto\"}").build();
        List<ChatMessage> conversation = List.of(SystemMessage.from("You plan trips."), UserMessage.from("Weather and trains?"),
                AiMessage.from("Checking both.", List.of(weather, trains)),
                ToolExecutionResultMessage.from(weather, "sunny, 24 C"), ToolExecutionResultMessage.from(trains, "hourly"),
                AiMessage.builder().text("Sunny, hourly trains.").thinking("both tools answered").build());
        try (StateRepository store = TestStore.open(dir)) {
            new HermesChatMemoryStore(store).updateMessages("trip", conversation);
        }
        try (StateRepository reopened = TestStore.open(dir)) {
            HermesChatMemoryStore memoryStore = new HermesChatMemoryStore(reopened);
            assertEquals(conversation, memoryStore.getMessages("trip"));
            memoryStore.updateMessages("trip", memoryStore.getMessages("trip"));
            assertEquals(6, reopened.messageCount("trip"));
        }
    }

    @Test
    void twoThreadsAddingToOneMemoryNeverLoseOrDuplicateAMessage() throws Exception {
        int perThread = 25;
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryStore memoryStore = new HermesChatMemoryStore(store);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (String thread : List.of("t0", "t1")) {
                    // a memory per thread: LangChain4j's window memory is not meant to be shared between threads
                    ChatMemory memory = window("shared", memoryStore, false);
                    done.add(threads.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            memory.add(UserMessage.from(thread + " message " + i));
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
            List<ChatMessage> window = window("shared", memoryStore, false).messages();
            assertEquals(10, window.size());
            String last = ((UserMessage) window.get(9)).singleText();
            assertTrue(last.equals("t0 message 24") || last.equals("t1 message 24"), last);
        }
    }

    @Test
    void twoProcessesAddingToOneMemoryNeverLoseOrDuplicateAMessage() throws SQLException {
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
    private static void assertEveryMessageOnce(Path file, int each) throws SQLException {
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

    /** A child process: adds "NAME message i" to memory "shared" through the window memory, after GO. */
    public static final class AddingChild {
        public static void main(String[] args) throws Exception {
            try (StateRepository store = StateRepository.open(Path.of(args[0]))) {
                ChatMemory memory = window("shared", new HermesChatMemoryStore(store), false);
                System.out.println("READY");
                if (!"GO".equals(new BufferedReader(new InputStreamReader(System.in)).readLine())) {
                    System.exit(2);
                }
                for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                    memory.add(UserMessage.from(args[1] + " message " + i));
                }
            }
        }
    }

    @Test
    void aRewriteThroughSetContinuesInACompressionChildListedOnceAndDeletedWithIt() throws SQLException {
        try (StateRepository store = TestStore.open(dir)) {
            HermesChatMemoryStore memoryStore = new HermesChatMemoryStore(store);
            ChatMemory memory = window("c1", memoryStore, false);
            memory.add(UserMessage.from("Book a table for two."));
            memory.add(AiMessage.from("For which evening?"));
            memory.add(UserMessage.from("Friday."));
            List<ChatMessage> loaded = memory.messages();
            List<ChatMessage> edited = List.of(loaded.get(0), AiMessage.from("Which evening, and where?"), loaded.get(2));

            memory.set(edited);

            Session root = store.getSession("c1").orElseThrow();
            assertEquals("compression", root.endReason());
            String child = store.getCompressionTip("c1");
            assertEquals("c1", store.getSession(child).orElseThrow().parentSessionId());
            assertEquals(3, store.messageCount(child));
            assertEquals(List.of("c1"), memoryStore.memoryIds());
            assertEquals(edited, memory.messages());
            memory.add(AiMessage.from("Friday it is."));
            assertEquals(4, store.messageCount(child), "the memory goes on in the child");

            memory.clear();
            assertEquals(0, store.sessionCount());
            assertEquals(0, store.messageCount(null));
            assertEquals(List.of(), memoryStore.memoryIds());
            assertEquals(0, SqliteFiles.number(TestStore.file(dir), "SELECT count(*) FROM hermes_state_window"));
        }
    }

    @Test
    void aSessionThePythonAgentWroteReadsWithAllItsMessagesAndGoesOn() {
        Path copy = Fixtures.copy("state-v6.db", dir);
        String session = "20260311_080000_2133b2";
        try (StateRepository store = StateRepository.open(copy)) {
            HermesChatMemoryStore memoryStore = HermesChatMemoryStore.builder(store).source("cli").build();
            assertEquals(LangChain4jMessages.fromRows(store.getMessages(session)), memoryStore.getMessages(session));
            ChatMemory memory = window(session, memoryStore, false);
            memory.add(UserMessage.from("and the staging database?"));
            assertEquals(7, store.messageCount(session), "the agent's rows were kept, only the new one appended");
            assertEquals(30, store.sessionCount());
            assertEquals(7, memory.messages().size());
        }
    }

    @Test
    void onAStoreAtSeventeenAPictureIsKeptAndHandedBackAsStored() {
        UserMessage picture = UserMessage.from(TextContent.from("look"), ImageContent.from("https://example.invalid/a.png"));
        List<ChatMessage> conversation = List.of(picture, AiMessage.from("A lighthouse."));
        try (StateRepository store = TestStore.open(dir, 17)) {
            HermesChatMemoryStore memoryStore = new HermesChatMemoryStore(store);
            memoryStore.updateMessages("m", conversation);
            assertEquals(conversation, memoryStore.getMessages("m"));
            List<ChatMessage> next = new java.util.ArrayList<>(memoryStore.getMessages("m"));
            next.add(UserMessage.from("and now?"));
            memoryStore.updateMessages("m", next);
            assertEquals(next, memoryStore.getMessages("m"));
            assertEquals(3, store.messageCount("m"), "the handed-out picture is kept, not stored again");
            assertEquals(1, store.sessionCount());
        }
    }

    @Test
    void aRefusedMessageWritesNothing() {
        // kept at 6, a store cannot hold a picture (at 17 it can: onAStoreAtSeventeenAPictureIsKeptAndHandedBackAsStored)
        try (StateRepository store = TestStore.open(dir, 6)) {
            RecordingWindows windows = new RecordingWindows(store);
            HermesChatMemoryStore memoryStore = windows.into(HermesChatMemoryStore.builder(store)).build();
            UserMessage picture = UserMessage.from(TextContent.from("look"), ImageContent.from("https://example.invalid/a.png"));
            assertThrows(InvalidArgumentException.class,
                    () -> memoryStore.updateMessages("m", List.of(UserMessage.from("first"), picture)));
            assertEquals(List.of(), windows.saves());
            assertEquals(0, store.sessionCount());
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
            assertEquals(2, store.sessionCount());
            assertFalse(store.getSession("a2").isPresent());
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
            assertEquals(0, store.sessionCount());
        }
    }
}
