package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.langchain4j.HermesChatMemoryStore;
import dev.hermes.state.langchain4j.HermesSearchTool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The starter with LangChain4j and with Micrometer on the class path: the beans it offers, and when it backs off. */
class HermesStateIntegrationsTest {
    @TempDir
    Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HermesStateAutoConfiguration.class));

    @Test
    void withLangChain4jTheChatMemoryStoreAndTheSearchToolAreTheStore() {
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("lc4j.db"), "hermes.state.langchain4j.source=lc-bot")
                .run(context -> {
                    ChatMemoryStore store = context.getBean(ChatMemoryStore.class);
                    assertEquals(HermesChatMemoryStore.class, store.getClass());
                    assertThat(context).hasSingleBean(HermesSearchTool.class);
                    MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("m1").maxMessages(10)
                            .chatMemoryStore(store).build();
                    memory.add(UserMessage.from("Where is the kestrel nest?"));
                    memory.add(AiMessage.from("On the church tower."));
                    StateRepository repository = context.getBean(StateRepository.class);
                    assertEquals("lc-bot", repository.getSession("m1").orElseThrow().source());
                    assertEquals(2, repository.messageCount("m1"));
                    assertEquals(1, context.getBean(HermesSearchTool.class)
                            .searchPastConversations("kestrel", null).size());
                });
    }

    @Test
    void theApplicationsOwnChatMemoryStoreWinsAndWithoutLangChain4jThereIsNone() {
        InMemoryChatMemoryStore own = new InMemoryChatMemoryStore();
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("own.db"))
                .withBean(ChatMemoryStore.class, () -> own)
                .run(context -> assertSame(own, context.getBean(ChatMemoryStore.class)));
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("none.db"))
                .withClassLoader(new FilteredClassLoader(ChatMemoryStore.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(StateRepository.class);
                    assertThat(context).doesNotHaveBean("hermesChatMemoryStore");
                    assertThat(context).doesNotHaveBean(HermesSearchTool.class);
                });
    }

    @Test
    void withTheApplicationsRegistriesTheStoreReportsItsOperationsAndMeters() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("observed.db"))
                .withBean(MeterRegistry.class, () -> meters)
                .withBean(ObservationRegistry.class, () -> observations)
                .run(context -> {
                    StateRepository store = context.getBean(StateRepository.class);
                    store.createSession("s1", "cli");
                    assertEquals(1, meters.get("hermes.state.operation").tags("operation", "createSession",
                            "engine", "sqlite", "outcome", "success", "db.namespace", "observed.db").timer().count());
                    assertEquals(1, meters.get("hermes.state.lock.wait").timer().count());
                    assertEquals(4.0, meters.get("hermes.state.readers.max").gauge().value());
                });
        // no registry beans (Micrometer on the class path but no Actuator): nothing is observed, nothing fails
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("unobserved.db"))
                .run(context -> assertEquals(List.of(), List.of(context.getBeanNamesForType(MeterRegistry.class))));
    }
}
