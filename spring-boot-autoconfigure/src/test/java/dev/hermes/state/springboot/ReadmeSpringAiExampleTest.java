package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.springai.HermesChatMemoryRepository;
import dev.hermes.state.testsupport.DocExample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Spring Boot + Spring AI example of docs/chat-memory.md (the block after
 * {@code <!-- example: spring-ai -->}), checked against the region below and run in an application context.
 */
class ReadmeSpringAiExampleTest {
    @TempDir
    Path dir;

    // --- example spring-ai starts ---
    @Configuration
    static class ChatConfiguration {
        @Bean
        ChatMemory chatMemory(ChatMemoryRepository hermes) {   // the starter's HermesChatMemoryRepository
            return MessageWindowChatMemory.builder().chatMemoryRepository(hermes).maxMessages(20).build();
        }

        @Bean
        ChatClient chatClient(ChatModel model, ChatMemory chatMemory) {
            return ChatClient.builder(model)
                    .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build())
                    .build();
        }
    }

    static String ask(ChatClient chatClient, String ticketId, String question) {
        return chatClient.prompt().user(question)
                .advisors(advisor -> advisor.param(ChatMemory.CONVERSATION_ID, ticketId))  // = Hermes session id
                .call().content();
    }
    // --- example spring-ai ends ---

    /** A model that answers "Noted: " and the user's last words, and says how many messages it was shown. */
    static ChatModel scriptedModel() {
        return prompt -> {
            List<Message> shown = prompt.getInstructions();
            String last = shown.get(shown.size() - 1).getText();
            return new ChatResponse(List.of(new Generation(new AssistantMessage("Noted (" + shown.size() + "): " + last))));
        };
    }

    @Test
    void theDocumentationShowsTheCodeThisTestRuns() {
        DocExample.assertMatches("docs/chat-memory.md", "spring-ai", ReadmeSpringAiExampleTest.class);
    }

    @Test
    void theReadmeExampleKeepsTheConversationInTheStore() {
        Path file = dir.resolve("state.db");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HermesStateAutoConfiguration.class))
                .withUserConfiguration(ChatConfiguration.class)
                .withBean(ChatModel.class, ReadmeSpringAiExampleTest::scriptedModel)
                .withPropertyValues("hermes.state.db=" + file, "hermes.state.spring-ai.source=support-bot")
                .run(context -> {
                    ChatClient chatClient = context.getBean(ChatClient.class);
                    assertEquals("Noted (1): The export hangs at 90%.", ask(chatClient, "ticket-4711", "The export hangs at 90%."));
                    assertEquals("Noted (3): Since the upgrade.", ask(chatClient, "ticket-4711", "Since the upgrade."));
                });
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            assertEquals("support-bot", store.getSession("ticket-4711").orElseThrow().source());
            assertEquals(List.of(new UserMessage("The export hangs at 90%."), new AssistantMessage("Noted (1): The export hangs at 90%."),
                            new UserMessage("Since the upgrade."), new AssistantMessage("Noted (3): Since the upgrade.")),
                    new HermesChatMemoryRepository(store).findByConversationId("ticket-4711"));
            assertEquals(List.of("user", "assistant", "user", "assistant"),
                    store.getMessages("ticket-4711").stream().map(dev.hermes.state.core.model.Message::role).toList());
        }
    }
}
