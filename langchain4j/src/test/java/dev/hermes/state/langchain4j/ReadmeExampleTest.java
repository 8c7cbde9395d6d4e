package dev.hermes.state.langchain4j;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.hermes.state.testsupport.DocExample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's LangChain4j example (the block after {@code <!-- example: langchain4j -->}), checked against
 * the region below and run with a scripted model.
 */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    // --- example langchain4j starts ---
    interface Assistant {
        String chat(@MemoryId String ticketId, @UserMessage String question);
    }

    static Assistant assistant(StateRepository store, ChatModel model) {
        ChatMemoryStore memories = new HermesChatMemoryStore(store);   // memory id = Hermes session id
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(ticketId -> MessageWindowChatMemory.builder()
                        .id(ticketId).maxMessages(20).chatMemoryStore(memories).build())
                .tools(new HermesSearchTool(store))                    // the model may search past conversations
                .build();
    }
    // --- example langchain4j ends ---

    /** A model that searches past conversations for "export" first, then answers with what the tool gave. */
    static ChatModel scriptedModel() {
        return new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                ChatMessage last = request.messages().get(request.messages().size() - 1);
                AiMessage answer = last instanceof ToolExecutionResultMessage result
                        ? AiMessage.from(result.text().contains("20260301_090000_aaaaaa") ? "Seen before, in 20260301_090000_aaaaaa." : "New to me.")
                        : AiMessage.from(ToolExecutionRequest.builder().id("call_1").name("search_past_conversations")
                        .arguments("{\"query\": \"export hangs\"}").build());
                return ChatResponse.builder().aiMessage(answer).build();
            }
        };
    }

    @Test
    void theDocumentationShowsTheCodeThisTestRuns() {
        DocExample.assertMatches("README.md", "langchain4j", ReadmeExampleTest.class);
    }

    @Test
    void theReadmeExampleKeepsEveryMessageOfTheToolRoundInTheStore() {
        Path file = dir.resolve("state.db");
        try (StateRepository store = StateRepository.open(file)) {
            store.createSession("20260301_090000_aaaaaa", "cli");
            store.appendMessage("20260301_090000_aaaaaa", NewMessage.of("user", "The nightly export hangs again."));

            assertEquals("Seen before, in 20260301_090000_aaaaaa.",
                    assistant(store, scriptedModel()).chat("ticket-4711", "Why does the export hang?"));
        }
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            assertEquals("langchain4j", store.getSession("ticket-4711").orElseThrow().source());
            List<Message> rows = store.getMessages("ticket-4711");
            assertEquals(List.of("user", "assistant", "tool", "assistant"), rows.stream().map(Message::role).toList());
            assertEquals("Why does the export hang?", rows.get(0).text());
            assertEquals("call_1", rows.get(2).toolCallId());
            assertEquals("search_past_conversations", rows.get(2).toolName());
            assertTrue(rows.get(2).text().contains(">>>export<<< >>>hangs<<<"), rows.get(2).text());
            assertEquals("Seen before, in 20260301_090000_aaaaaa.", rows.get(3).text());
            assertEquals(1, store.getSession("ticket-4711").orElseThrow().toolCallCount());
            // what the memory returns after the restart is the conversation as said
            List<ChatMessage> window = new HermesChatMemoryStore(store).getMessages("ticket-4711");
            assertEquals(4, window.size());
            assertEquals(dev.langchain4j.data.message.UserMessage.from("Why does the export hang?"), window.get(0));
            assertEquals(AiMessage.from("Seen before, in 20260301_090000_aaaaaa."), window.get(3));
        }
    }
}
