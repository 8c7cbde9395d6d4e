package dev.hermes.state.core.observation;

import dev.hermes.state.BusyException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.TestStores;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.SqliteFiles;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store's observations and meters: names, tags (low cardinality only), one per unit of work. */
class StoreObservationTest {
    private static final String SESSION = "obs-20260310-secret-id";
    private static final String QUERY = "kubernetes rollout";

    @TempDir
    Path dir;

    /** Every observation stopped, with the tags it stopped with. */
    private static final class Recorder implements ObservationHandler<Observation.Context> {
        final List<Map<String, String>> stopped = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final List<String> events = new ArrayList<>();

        @Override
        public void onStop(Observation.Context context) {
            Map<String, String> tags = new TreeMap<>();
            context.getLowCardinalityKeyValues().forEach(kv -> tags.put(kv.getKey(), kv.getValue()));
            assertEquals(0, context.getHighCardinalityKeyValues().stream().count(), "no high-cardinality values");
            stopped.add(tags);
            names.add(context.getName() + " / " + context.getContextualName());
        }

        @Override
        public void onEvent(Observation.Event event, Observation.Context context) {
            events.add(event.getName());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    private static Map<String, String> tags(String operation, String outcome, String errorType) {
        return new TreeMap<>(Map.of("operation", operation, "engine", "sqlite", "outcome", outcome,
                "error.type", errorType, "db.system.name", "sqlite", "db.operation.name", operation,
                "db.namespace", "state.db"));
    }

    @Test
    void aWriteAReadAndASearchAreOneObservationEachWithTheirTagsAndMeters() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Recorder recorder = new Recorder();
        observations.observationConfig().observationHandler(recorder)
                .observationHandler(new DefaultMeterObservationHandler(meters));
        Path file = TestStores.newDatabase(dir, 17);
        try (StateRepository store = StateRepository.builder().path(file).observationRegistry(observations)
                .meterRegistry(meters).build()) {
            store.createSession(SESSION, "cli");
            store.appendMessage(SESSION, NewMessage.of("user", "the kubernetes rollout is stuck"));
            store.getSession(SESSION);
            store.searchMessages(SearchQuery.of(QUERY));

            assertEquals(List.of(tags("createSession", "success", "none"), tags("appendMessage", "success", "none"),
                    tags("getSession", "success", "none"), tags("searchMessages", "success", "none")), recorder.stopped);
            assertEquals(List.of("hermes.state.operation / createSession state.db",
                    "hermes.state.operation / appendMessage state.db", "hermes.state.operation / getSession state.db",
                    "hermes.state.operation / searchMessages state.db"), recorder.names);
            TestObservationRegistryAssert.assertThat(observations)
                    .forAllObservationsWithNameEqualTo(StoreOperationConvention.NAME,
                            observation -> observation.hasLowCardinalityKeyValue("engine", "sqlite"));

            // the meter handler's timers, and the store's own meters
            assertEquals(1, meters.get("hermes.state.operation").tags("operation", "searchMessages", "outcome", "success")
                    .timer().count());
            assertEquals(2, meters.get("hermes.state.lock.wait").timer().count(), "one wait per write");
            assertEquals(4.0, meters.get("hermes.state.readers.max").gauge().value());
            assertEquals(0.0, meters.get("hermes.state.readers.active").gauge().value());
            assertEquals(1.0, meters.get("hermes.state.readers.idle").gauge().value());
            assertTrue(meters.get("hermes.state.wal.size").gauge().value() > 0, "the two writes are in the log");
            assertNoIdOrQueryInAnyTag(meters);
        }
        // the store's own meters leave with it
        assertEquals(List.of(), meters.find("hermes.state.wal.size").meters());
        assertEquals(List.of(), meters.find("hermes.state.readers.max").meters());
    }

    @Test
    void aBusyDatabaseCountsEachRetryAndTheOperationEndsTypedAsBusy() throws Exception {
        TestObservationRegistry observations = TestObservationRegistry.create();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Recorder recorder = new Recorder();
        observations.observationConfig().observationHandler(recorder)
                .observationHandler(new DefaultMeterObservationHandler(meters));
        Path file = TestStores.newDatabase(dir, 17);
        try (StateRepository store = StateRepository.builder().path(file).observationRegistry(observations)
                .meterRegistry(meters).busyTimeout(Duration.ofMillis(20)).maxAttempts(3)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(2)).build();
             Connection other = SqliteFiles.readWrite(file);
             Statement lock = other.createStatement()) {
            // another process's write transaction holds the file's lock for the whole test
            lock.execute("BEGIN IMMEDIATE");
            assertThrows(BusyException.class, () -> store.createSession(SESSION, "cli"));
            lock.execute("ROLLBACK");

            assertEquals(List.of(tags("createSession", "error", "busy")), recorder.stopped);
            assertEquals(List.of("busy.retry", "busy.retry"), recorder.events, "3 attempts: 2 retries");
            assertEquals(2.0, meters.get("hermes.state.busy.retries")
                    .tags("operation", "createSession", "engine", "sqlite", "db.namespace", "state.db").counter().count());
            assertEquals(1, meters.get("hermes.state.operation").tags("outcome", "error", "error.type", "busy")
                    .timer().count());
            // the meter handler's counter of the span's events
            assertEquals(2.0, meters.get("hermes.state.operation.busy.retry").tags("operation", "createSession")
                    .counter().count());
            assertNoIdOrQueryInAnyTag(meters);
        }
    }

    /**
     * The name is remembered per call site after the first operation (W1's and W4's here, the second
     * call of each taking the remembered name); a site outside StateRepository is read from the stack
     * each time.
     */
    @Test
    void repeatedOperationsKeepTheirNamesWhetherRememberedOrReadFromTheStack() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        Recorder recorder = new Recorder();
        observations.observationConfig().observationHandler(recorder);
        Path file = TestStores.newDatabase(dir, 17);
        try (StateRepository store = StateRepository.builder().path(file).observationRegistry(observations).build()) {
            store.createSession(SESSION, "cli");
            for (int i = 0; i < 2; i++) {
                store.appendMessage(SESSION, NewMessage.of("user", "message " + i));
                store.getMessagesAsConversation(SESSION);
                store.telegramTopics().isEnabled("chat-1", "user-1");
                store.sessionCount(); // sessionCount(SessionCountQuery)'s unit of work, named by the method called
            }
            List<String> operations = recorder.stopped.stream().map(tags -> tags.get("operation")).collect(Collectors.toList());
            assertEquals(List.of("createSession", "appendMessage", "getMessagesAsConversation", "isEnabled", "sessionCount",
                    "appendMessage", "getMessagesAsConversation", "isEnabled", "sessionCount"), operations);
            assertEquals(tags("getMessagesAsConversation", "success", "none"), recorder.stopped.get(6));
            // read from the class file: a method another store method calls is never remembered by name
            Set<String> delegated = MicrometerStoreObserver.delegated(StateRepository.class).orElseThrow();
            assertTrue(delegated.contains("defaultPath"), delegated.toString()); // open() calls it
            // sessionCount's overloads call one another: one name, so the name remembered is right either way
            assertTrue(!delegated.contains("sessionCount"), delegated.toString());
            assertTrue(!delegated.contains("appendMessage") && !delegated.contains("getMessagesAsConversation"),
                    delegated.toString());
        }
    }

    @Test
    void aStoreWithoutRegistriesHasNoObserver() {
        Path file = TestStores.newDatabase(dir, 17);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (StateRepository store = StateRepository.builder().path(file).build()) {
            store.createSession(SESSION, "cli");
            assertEquals(List.of(), meters.getMeters());
            assertEquals(1, store.sessionCount());
        }
    }

    private static void assertNoIdOrQueryInAnyTag(SimpleMeterRegistry meters) {
        List<String> values = meters.getMeters().stream().map(Meter::getId)
                .flatMap(id -> id.getTags().stream()).map(Tag::getValue).distinct().sorted().collect(Collectors.toList());
        assertTrue(values.stream().noneMatch(v -> v.contains("obs-") || v.contains("kubernetes") || v.contains("/")),
                values.toString());
    }
}
