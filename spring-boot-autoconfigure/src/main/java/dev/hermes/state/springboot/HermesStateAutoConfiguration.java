package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.langchain4j.HermesChatMemoryStore;
import dev.hermes.state.springai.HermesChatMemoryRepository;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link StateRepository} bean on {@code hermes.state.db} (the Hermes default file when absent),
 * unless the application defines one; closed with the context. With Spring AI (and
 * hermes-state-spring-ai) on the class path, the {@link ChatMemoryRepository} on it; with LangChain4j
 * (and hermes-state-langchain4j), a {@link ChatMemoryStore} and the search tool; with Micrometer, the
 * store's observations and meters in the application's registries; with Actuator, its health, on
 * Spring Boot 4 and on Boot 3.5 (each line's health classes live in their own package: each has its
 * nested configuration, named by class name so that the other line's absent types are never loaded).
 * The application's own DataSource, DSLContext and SpringLiquibase are never replaced or joined. It
 * runs before Spring AI's chat memory auto-configuration, whose in-memory repository backs off then.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration",
        afterName = {
                // the registries the store reports to, on either line
                "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
                "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
                "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(StateRepository.class)
@EnableConfigurationProperties(HermesStateProperties.class)
public class HermesStateAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public StateRepository hermesStateRepository(HermesStateProperties properties,
                                                 ObjectProvider<HermesStateBuilderCustomizer> customizers) {
        StateRepository.Builder builder = StoreLocation.of(properties.getDb(), properties.getSchema())
                .readOnly(properties.isReadOnly())
                .migrate(properties.isMigrate())
                .schemaVersion(properties.getSchemaVersion());
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    /** With Spring AI: its chat memory in the store, unless the application has a ChatMemoryRepository of its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ChatMemoryRepository.class, HermesChatMemoryRepository.class})
    static class SpringAi {
        @Bean
        @ConditionalOnMissingBean(ChatMemoryRepository.class)
        HermesChatMemoryRepository hermesChatMemoryRepository(StateRepository store, HermesStateProperties properties) {
            return HermesChatMemoryRepository.builder(store).source(properties.getSpringAi().getSource()).build();
        }
    }

    /** With LangChain4j: its chat memory store and the search tool on the store, unless the application has its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ChatMemoryStore.class, HermesChatMemoryStore.class})
    static class LangChain4j {
        @Bean
        @ConditionalOnMissingBean(ChatMemoryStore.class)
        HermesChatMemoryStore hermesChatMemoryStore(StateRepository store, HermesStateProperties properties) {
            return HermesChatMemoryStore.builder(store).source(properties.getLangchain4j().getSource()).build();
        }

        @Bean
        @ConditionalOnMissingBean
        dev.hermes.state.langchain4j.HermesSearchTool hermesLangChain4jSearchTool(StateRepository store) {
            return new dev.hermes.state.langchain4j.HermesSearchTool(store);
        }
    }

    /** With Micrometer's Observation API: every store operation an observation of the application's registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    static class Observations {
        @Bean
        HermesStateBuilderCustomizer hermesStateObservations(ObjectProvider<ObservationRegistry> registry) {
            return builder -> builder.observationRegistry(registry.getIfAvailable());
        }
    }

    /** With Micrometer's meters: the store's own meters (retries, lock wait, WAL, readers, Hikari pools). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Meters {
        @Bean
        HermesStateBuilderCustomizer hermesStateMeters(ObjectProvider<MeterRegistry> registry) {
            return builder -> builder.meterRegistry(registry.getIfAvailable());
        }
    }

    /** Spring Boot 4's Actuator: the store's health ({@code management.health.hermes-state.enabled} to switch it off). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("hermes-state")
    static class Health {
        @Bean
        @ConditionalOnMissingBean(name = "hermesStateHealthIndicator")
        HermesStateHealthIndicator hermesStateHealthIndicator(StateRepository store) {
            return new HermesStateHealthIndicator(store);
        }
    }

    /** Spring Boot 3.5's Actuator: the same health, in the package Boot 3 keeps it in. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator("hermes-state")
    static class Boot3Health {
        @Bean
        @ConditionalOnMissingBean(name = "hermesStateHealthIndicator")
        HermesStateBoot3HealthIndicator hermesStateHealthIndicator(StateRepository store) {
            return new HermesStateBoot3HealthIndicator(store);
        }
    }
}
