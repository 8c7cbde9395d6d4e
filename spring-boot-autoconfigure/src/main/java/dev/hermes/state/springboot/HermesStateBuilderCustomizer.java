package dev.hermes.state.springboot;

import dev.hermes.state.core.StateRepository;

/**
 * Adjusts the auto-configured store's builder before it is built (the store's own observation wiring
 * is one): an application's beans of this type run after the properties are applied, in their order.
 */
@FunctionalInterface
public interface HermesStateBuilderCustomizer {
    void customize(StateRepository.Builder builder);
}
