package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.springai.HermesChatMemoryRepository;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link StateRepository} bean on {@code hermes.state.db} (the Hermes default file when absent),
 * unless the application defines one; closed with the context; with Spring AI (and
 * hermes-state-spring-ai) on the class path, the {@link ChatMemoryRepository} on it. It exposes nothing
 * else: the application's own DataSource, DSLContext and SpringLiquibase are never replaced or joined.
 * It runs before Spring AI's chat memory auto-configuration, whose in-memory repository backs off then.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass(StateRepository.class)
@EnableConfigurationProperties(HermesStateProperties.class)
public class HermesStateAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public StateRepository hermesStateRepository(HermesStateProperties properties) {
        return StoreLocation.of(properties.getDb(), properties.getSchema())
                .readOnly(properties.isReadOnly())
                .migrate(properties.isMigrate())
                .schemaVersion(properties.getSchemaVersion())
                .build();
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

    /** With Actuator: the store's health ({@code management.health.hermes-state.enabled} to switch it off). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("hermes-state")
    static class Health {
        @Bean
        @ConditionalOnMissingBean(name = "hermesStateHealthIndicator")
        HermesStateHealthIndicator hermesStateHealthIndicator(StateRepository store) {
            return new HermesStateHealthIndicator(store);
        }
    }
}
