package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
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
 * unless the application defines one; closed with the context. It exposes nothing else: the
 * application's own DataSource, DSLContext and SpringLiquibase are never replaced or joined.
 */
@AutoConfiguration
@ConditionalOnClass(StateRepository.class)
@EnableConfigurationProperties(HermesStateProperties.class)
public class HermesStateAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public StateRepository hermesStateRepository(HermesStateProperties properties) {
        return StateRepository.builder()
                .path(StoreLocation.file(properties.getDb()))
                .readOnly(properties.isReadOnly())
                .migrate(properties.isMigrate())
                .build();
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
