package dev.hermes.state.bootapp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application as it runs: started (twice, on one store), serving HTTP with Actuator, its chat
 * memory through Spring AI's MessageWindowChatMemory, the store's health with its details and its
 * meters in /actuator/metrics; on a file and on PostgreSQL. The same class runs on Boot 4.0.7 +
 * Spring AI 2.0.1 (spring-boot-app) and on Boot 3.5.7 + Spring AI 1.1.2 (spring-boot3-app).
 */
class ApplicationOnBothLinesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Created by the PostgreSQL test only: skipped without the server (fails under CI=true). */
    private final PostgresTestSchema postgres = new PostgresTestSchema();

    @AfterEach
    void dropPostgresSchema() throws SQLException {
        postgres.drop();
    }

    @TempDir
    Path dir;

    private static ConfigurableApplicationContext start(String... store) {
        List<String> properties = new ArrayList<>(List.of("server.port=0",
                "management.endpoints.web.exposure.include=health,metrics",
                "management.endpoint.health.show-details=always"));
        properties.addAll(List.of(store));
        return new SpringApplicationBuilder(TestApplication.class).properties(properties.toArray(String[]::new)).run();
    }

    private static JsonNode get(ConfigurableApplicationContext app, String path) throws IOException, InterruptedException {
        String port = app.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    /** Saves a conversation longer than the window, restarts, and reads exactly the window back. */
    private static void chatMemorySurvivesARestart(String... store) throws Exception {
        List<Message> seen;
        try (ConfigurableApplicationContext app = start(store)) {
            ChatMemory memory = MessageWindowChatMemory.builder().maxMessages(4)
                    .chatMemoryRepository(app.getBean(ChatMemoryRepository.class)).build();
            for (int i = 0; i < 3; i++) {
                memory.add("ticket-7", new UserMessage("question " + i));
                memory.add("ticket-7", new AssistantMessage("answer " + i));
            }
            seen = memory.get("ticket-7");
            assertEquals(List.of(new UserMessage("question 1"), new AssistantMessage("answer 1"),
                    new UserMessage("question 2"), new AssistantMessage("answer 2")), seen);
        }
        try (ConfigurableApplicationContext app = start(store)) {
            ChatMemory memory = MessageWindowChatMemory.builder().maxMessages(4)
                    .chatMemoryRepository(app.getBean(ChatMemoryRepository.class)).build();
            assertEquals(seen, memory.get("ticket-7"));

            JsonNode health = get(app, "/actuator/health").path("components").path("hermesState");
            assertEquals("UP", health.path("status").asText(), health.toString());
            assertEquals(1, health.path("details").path("sessions").asInt());

            Set<String> names = new TreeSet<>();
            get(app, "/actuator/metrics").path("names").forEach(name -> names.add(name.asText()));
            assertTrue(names.containsAll(Set.of("hermes.state.operation", "hermes.state.lock.wait",
                    "hermes.state.readers.active", "hermes.state.readers.idle", "hermes.state.readers.max")), names.toString());
            JsonNode operation = get(app, "/actuator/metrics/hermes.state.operation");
            Map<String, Set<String>> tags = new java.util.TreeMap<>();
            operation.path("availableTags").forEach(tag -> {
                Set<String> values = new TreeSet<>();
                tag.path("values").forEach(value -> values.add(value.asText()));
                tags.put(tag.path("tag").asText(), values);
            });
            // since the restart: the chat memory's load, and the health check's count (the StateRepository methods)
            assertEquals(Set.of("loadConversationWindow", "sessionCount"), tags.get("operation"), tags.toString());
            assertEquals(tags.get("operation"), tags.get("db.operation.name"));
            assertEquals(Set.of("success"), tags.get("outcome"));
            assertEquals(Set.of("none"), tags.get("error.type"));
            assertTrue(tags.values().stream().flatMap(Set::stream).noneMatch(v -> v.contains("ticket-7")), tags.toString());
            if (store[0].contains("postgresql")) {
                assertTrue(names.contains("hikaricp.connections"), names.toString());
                assertEquals(Set.of("postgresql"), tags.get("db.system.name"));
            } else {
                assertTrue(names.contains("hermes.state.wal.size"), names.toString());
                assertEquals(Set.of("sqlite"), tags.get("db.system.name"));
                assertEquals(Set.of("state.db"), tags.get("db.namespace"));
            }
        }
    }

    @Test
    void onAFile() throws Exception {
        chatMemorySurvivesARestart("hermes.state.db=" + dir.resolve("app").resolve("state.db"));
    }

    @Test
    void onPostgresql() throws Exception {
        postgres.create();
        chatMemorySurvivesARestart("hermes.state.db=" + postgres.url(), "hermes.state.schema=" + postgres.schema());
    }
}
