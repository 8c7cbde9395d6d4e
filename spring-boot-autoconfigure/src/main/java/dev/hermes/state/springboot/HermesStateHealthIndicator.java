package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The store's health on Spring Boot 4 ({@code org.springframework.boot.health}); Boot 3.5 gets
 * {@link HermesStateBoot3HealthIndicator}. The check itself: {@link StoreHealth}.
 */
public class HermesStateHealthIndicator extends AbstractHealthIndicator {
    private final StateRepository store;

    public HermesStateHealthIndicator(StateRepository store) {
        super("Hermes store health check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        StoreHealth health = StoreHealth.of(store);
        builder.status(health.status()).withDetails(health.details());
    }
}
