package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The store's health on Spring Boot 3.5 ({@code org.springframework.boot.actuate.health}, which Boot 4
 * moved): the same check and details as {@link HermesStateHealthIndicator}.
 */
public class HermesStateBoot3HealthIndicator extends AbstractHealthIndicator {
    private final StateRepository store;

    public HermesStateBoot3HealthIndicator(StateRepository store) {
        super("Hermes store health check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        StoreHealth health = StoreHealth.of(store);
        builder.status(health.status()).withDetails(health.details());
    }
}
