package dev.hermes.state.bench.engine;

import dev.hermes.state.core.StateRepository;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * The run's stores with metrics on ({@code -Dhermes.bench.metrics=true}): every operation an observation
 * timed by Micrometer's meter handler, plus the store's own meters, in one registry per process, as an
 * application with Actuator would have them; off (the default), the stores are built as before.
 */
final class BenchObservation {
    static final boolean ON = Boolean.getBoolean("hermes.bench.metrics");

    private BenchObservation() {
    }

    static StateRepository.Builder apply(StateRepository.Builder builder) {
        return ON ? builder.observationRegistry(Registries.OBSERVATIONS).meterRegistry(Registries.METERS) : builder;
    }

    /** Loaded only with metrics on. */
    private static final class Registries {
        static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();
        static final ObservationRegistry OBSERVATIONS = ObservationRegistry.create();

        static {
            OBSERVATIONS.observationConfig().observationHandler(new DefaultMeterObservationHandler(METERS));
        }
    }
}
