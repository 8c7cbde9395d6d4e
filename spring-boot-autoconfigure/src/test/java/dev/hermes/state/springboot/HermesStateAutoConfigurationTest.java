package dev.hermes.state.springboot;

import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.SchemaTooNewException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.springai.HermesChatMemoryRepository;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.sqlite.SQLiteDataSource;

import javax.sql.DataSource;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HermesStateAutoConfigurationTest {
    /** Created only by the PostgreSQL tests; dropped after each. */
    private final PostgresTestSchema postgres = new PostgresTestSchema();
    @TempDir
    Path dir;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HermesStateAutoConfiguration.class));

    @AfterEach
    void dropPostgresSchema() throws SQLException {
        postgres.drop();
    }

    @Test
    void theStoreIsOpenedOnTheConfiguredFileMigratedAndClosedWithTheContext() {
        Path file = dir.resolve("app").resolve("state.db");
        AtomicReference<StateRepository> opened = new AtomicReference<>();
        runner.withPropertyValues("hermes.state.db=" + file).run(context -> {
            assertThat(context).hasSingleBean(StateRepository.class);
            StateRepository store = context.getBean(StateRepository.class);
            assertEquals(file, store.path().orElseThrow());
            store.createSession("s1", "spring-ai");
            store.appendMessage("s1", NewMessage.of("user", "hello from Boot"));
            assertEquals(1, store.messageCount("s1"));
            opened.set(store);
        });
        StateIOException closed = assertThrows(StateIOException.class, () -> opened.get().sessionCount());
        assertEquals("The store is closed", closed.getMessage());
        try (StateRepository again = StateRepository.openReadOnly(file)) {
            assertEquals(1, again.messageCount("s1"));
        }
    }

    @Test
    void withoutDbTheHermesDefaultLocationIsUsed() {
        assertEquals(StateRepository.defaultPath(), StoreLocation.file(null));
        assertEquals(StateRepository.defaultPath(), StoreLocation.file("  "));
        assertEquals(Path.of(System.getProperty("user.home"), ".hermes", "state.db"), StoreLocation.file("~/.hermes/state.db"));
        assertEquals(Path.of("/var/lib/app/state.db"), StoreLocation.file("jdbc:sqlite:/var/lib/app/state.db"));
    }

    @Test
    void theApplicationsOwnStoreWins() {
        Path file = dir.resolve("own.db");
        try (StateRepository own = StateRepository.open(file)) {
            runner.withBean(StateRepository.class, () -> own)
                    .withPropertyValues("hermes.state.db=" + dir.resolve("never.db"))
                    .run(context -> {
                        assertThat(context).hasSingleBean(StateRepository.class);
                        assertSame(own, context.getBean(StateRepository.class));
                    });
            assertTrue(Files.notExists(dir.resolve("never.db")));
        }
    }

    @Test
    void theApplicationsDataSourceAndDslContextAreLeftAlone() {
        SQLiteDataSource appData = new SQLiteDataSource();
        appData.setUrl("jdbc:sqlite:" + dir.resolve("app.db"));
        DSLContext appDsl = DSL.using(SQLDialect.SQLITE);
        runner.withBean(DataSource.class, () -> appData).withBean(DSLContext.class, () -> appDsl)
                .withPropertyValues("hermes.state.db=" + dir.resolve("state.db"))
                .run(context -> {
                    assertThat(context).hasSingleBean(StateRepository.class);
                    assertSame(appData, context.getBean(DataSource.class));
                    assertSame(appDsl, context.getBean(DSLContext.class));
                });
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("state.db")).run(context -> {
            assertThat(context).doesNotHaveBean(DataSource.class);
            assertThat(context).doesNotHaveBean(DSLContext.class);
            assertThat(context).doesNotHaveBean(liquibase.integration.spring.SpringLiquibase.class);
            assertEquals(List.of("hermesStateRepository"), List.of(context.getBeanNamesForType(StateRepository.class)));
        });
    }

    @Test
    void readOnlyNeverWrites() {
        Path file = dir.resolve("state.db");
        StateRepository.open(file).close();
        runner.withPropertyValues("hermes.state.db=" + file, "hermes.state.read-only=true").run(context -> {
            StateRepository store = context.getBean(StateRepository.class);
            assertTrue(store.isReadOnly());
            assertThrows(HermesStateException.class, () -> store.createSession("s", "cli"));
        });
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("missing.db"), "hermes.state.read-only=true")
                .run(context -> assertThat(context).hasFailed());
        assertTrue(Files.notExists(dir.resolve("missing.db")));
    }

    @Test
    void aFileOfThePythonAgentIsMigratedOrWithMigrateFalseRefused() {
        Path copy = Fixtures.copy("state-v4.db", dir);
        String sha = Fixtures.sha256(copy);
        runner.withPropertyValues("hermes.state.db=" + copy, "hermes.state.migrate=false").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(StateIOException.class)
                    .hasMessageContaining("schema version 4");
        });
        assertEquals(sha, Fixtures.sha256(copy), "a refused file is left as it was");
        runner.withPropertyValues("hermes.state.db=" + copy).run(context ->
                assertEquals(17, ((Map<?, ?>) context.getBean(HealthIndicator.class).health().getDetails()).get("schemaVersion")));
    }

    @Test
    void aPostgresqlUrlOpensTheStoreInItsSchemaAndTheHealthReportNeverShowsThePassword() {
        postgres.create();
        runner.withPropertyValues("hermes.state.db=" + postgres.url(), "hermes.state.schema=" + postgres.schema())
                .run(context -> {
                    StateRepository store = context.getBean(StateRepository.class);
                    store.createSession("s1", "spring-ai");
                    store.appendMessage("s1", NewMessage.of("user", "stored on the server"));
                    Health health = context.getBean("hermesStateHealthIndicator", HealthIndicator.class).health();
                    assertEquals(Status.UP, health.getStatus());
                    assertEquals(1L, health.getDetails().get("sessions"));
                    String described = (String) health.getDetails().get("store");
                    assertThat(described).contains(postgres.schema()).doesNotContain(postgres.password());
                });
        runner.withPropertyValues("hermes.state.db=" + postgres.url(), "hermes.state.schema=" + postgres.schema(),
                "hermes.state.read-only=true").run(context ->
                assertEquals(1, context.getBean(StateRepository.class).messageCount("s1")));
    }

    @Test
    void aRefusedLoginStopsTheApplicationWithoutRepeatingThePassword() {
        postgres.create();
        String wrong = postgres.url().replace(":" + postgres.password() + "@", ":n0t-th3-pw@");
        runner.withPropertyValues("hermes.state.db=" + wrong, "hermes.state.schema=" + postgres.schema()).run(context -> {
            assertThat(context).hasFailed();
            StateIOException typed = null;
            for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
                assertThat(String.valueOf(cause.getMessage())).doesNotContain("n0t-th3-pw");
                if (typed == null && cause instanceof StateIOException io) {
                    typed = io;
                }
            }
            assertThat(typed).as("a typed StateIOException in %s", context.getStartupFailure()).isNotNull();
            assertThat(typed.getMessage()).contains("hermes_test").doesNotContain("\n");
        });
    }

    @Test
    void aSchemaForAFileAndOtherSchemesAreRefused() {
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("state.db"), "hermes.state.schema=team_a").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("hermes.state.schema");
        });
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.file("jdbc:postgresql://db/hermes?password=x"));
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.file("mysql://db/hermes"));
        assertThrows(InvalidArgumentException.class, () -> StoreLocation.file("jdbc:sqlite::memory:"));
    }

    @Test
    void schemaVersion6KeepsTheFileAtSixAndRefusesOneAlreadyNewer() {
        Path file = dir.resolve("kept").resolve("state.db");
        runner.withPropertyValues("hermes.state.db=" + file, "hermes.state.schema-version=6").run(context -> {
            StateRepository store = context.getBean(StateRepository.class);
            assertEquals(SchemaRules.V6, store.schemaRules());
            store.createSession("s1", "spring-ai");
            Health health = context.getBean("hermesStateHealthIndicator", HealthIndicator.class).health();
            assertEquals(Status.UP, health.getStatus(), health.getDetails().toString());
            assertEquals(6, health.getDetails().get("schemaVersion"));
        });
        Path newer = Fixtures.copy("state-v17.db", dir);
        String sha = Fixtures.sha256(newer);
        runner.withPropertyValues("hermes.state.db=" + newer, "hermes.state.schema-version=6").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(SchemaTooNewException.class)
                    .hasMessageContaining("Schema version 17 is newer than version 6, the version this store keeps files at");
        });
        assertEquals(sha, Fixtures.sha256(newer), "a refused file is left as it was");
    }

    @Test
    void theHealthIndicatorReportsTheFile() {
        Path file = dir.resolve("state.db");
        runner.withPropertyValues("hermes.state.db=" + file).run(context -> {
            StateRepository store = context.getBean(StateRepository.class);
            store.createSession("s1", "spring-ai");
            Health health = context.getBean("hermesStateHealthIndicator", HealthIndicator.class).health();
            assertEquals(Status.UP, health.getStatus());
            assertEquals(file.toString(), health.getDetails().get("file"));
            assertEquals(17, health.getDetails().get("schemaVersion"));
            assertEquals("wal", health.getDetails().get("journalMode"));
            assertTrue((Long) health.getDetails().get("fileBytes") > 0, health.getDetails().toString());
            assertTrue((Long) health.getDetails().get("walBytes") > 0, "the write is in the WAL: " + health.getDetails());
            assertEquals(1L, health.getDetails().get("sessions"));
            assertEquals(false, health.getDetails().get("readOnly"));
        });
    }

    @Test
    void theHealthIndicatorNeedsActuatorAndCanBeSwitchedOff() {
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("state.db"), "management.health.hermes-state.enabled=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(StateRepository.class);
                    assertThat(context).doesNotHaveBean(HermesStateHealthIndicator.class);
                });
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .withPropertyValues("hermes.state.db=" + dir.resolve("state.db"))
                .run(context -> {
                    assertThat(context).hasSingleBean(StateRepository.class);
                    assertThat(context).doesNotHaveBean("hermesStateHealthIndicator");
                });
    }

    @Test
    void withSpringAiTheChatMemoryRepositoryIsTheStoreWithTheConfiguredSource() {
        Path file = dir.resolve("memory.db");
        List<Message> said = List.of(new UserMessage("Is the kestrel back?"), new AssistantMessage("Yes, since Monday."));
        runner.withPropertyValues("hermes.state.db=" + file, "hermes.state.spring-ai.source=bird-bot").run(context -> {
            assertThat(context).hasSingleBean(ChatMemoryRepository.class);
            ChatMemoryRepository repository = context.getBean(ChatMemoryRepository.class);
            assertEquals(HermesChatMemoryRepository.class, repository.getClass());
            ChatMemory memory = MessageWindowChatMemory.builder().maxMessages(10).chatMemoryRepository(repository).build();
            memory.add("c1", said.get(0));
            memory.add("c1", said.get(1));
            assertEquals(List.of("c1"), repository.findConversationIds());
        });
        try (StateRepository again = StateRepository.openReadOnly(file)) {
            assertEquals("bird-bot", again.getSession("c1").orElseThrow().source());
            assertEquals(2, again.messageCount("c1"));
            assertEquals(said, new HermesChatMemoryRepository(again).findByConversationId("c1"));
        }
    }

    @Test
    void theApplicationsOwnChatMemoryRepositoryWinsAndWithoutSpringAiThereIsNone() {
        InMemoryChatMemoryRepository own = new InMemoryChatMemoryRepository();
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("own-memory.db"))
                .withBean(ChatMemoryRepository.class, () -> own)
                .run(context -> assertSame(own, context.getBean(ChatMemoryRepository.class)));
        runner.withPropertyValues("hermes.state.db=" + dir.resolve("no-spring-ai.db"))
                .withClassLoader(new FilteredClassLoader(ChatMemoryRepository.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(StateRepository.class);
                    assertThat(context).doesNotHaveBean("hermesChatMemoryRepository");
                });
    }

    @Test
    void theAutoConfigurationIsRegisteredAndItsPropertiesDescribedForIdes() throws Exception {
        assertTrue(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates()
                .contains(HermesStateAutoConfiguration.class.getName()));
        JsonNode metadata;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        Map<String, JsonNode> properties = new java.util.TreeMap<>();
        metadata.get("properties").forEach(property -> properties.put(property.get("name").asText(), property));
        assertEquals(List.of("hermes.state.db", "hermes.state.langchain4j.source", "hermes.state.migrate",
                "hermes.state.read-only", "hermes.state.schema", "hermes.state.schema-version", "hermes.state.spring-ai.source"),
                List.copyOf(properties.keySet()));
        assertEquals("spring-ai", properties.get("hermes.state.spring-ai.source").get("defaultValue").asText());
        assertEquals("langchain4j", properties.get("hermes.state.langchain4j.source").get("defaultValue").asText());
        assertTrue(properties.get("hermes.state.migrate").get("defaultValue").asBoolean());
        assertTrue(properties.get("hermes.state.db").get("description").asText().contains("~/.hermes/state.db"));
    }
}
