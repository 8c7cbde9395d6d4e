package dev.hermes.state.bootapp;

import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The library in an application built on Spring Boot's dependency management (this module's parent is
 * spring-boot-starter-parent, 4.0.7 here and 3.5.7 in spring-boot3-app, which runs these same tests):
 * jOOQ, sqlite-jdbc and Liquibase are the versions Boot pins, not hermes-state's own (Boot 4 brings
 * Liquibase 5, Boot 3.5 Liquibase 4.31: the changelogs name dbchangelog-latest.xsd, which both carry).
 */
@SpringBootTest(classes = TestApplication.class)
class BootManagedVersionsTest {
    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry properties) {
        properties.add("hermes.state.db", () -> dir.resolve("fresh").resolve("state.db").toString());
    }

    @Autowired
    StateRepository store;

    @Test
    void theLibrariesAreTheVersionsBootPins() {
        // the module's pom names them: spring-boot-app Boot 4.0.7's, spring-boot3-app Boot 3.5.7's
        assertEquals(System.getProperty("expected.spring-boot"), org.springframework.boot.SpringBootVersion.getVersion());
        assertEquals(System.getProperty("expected.jooq"), org.jooq.Constants.VERSION);
        assertEquals(System.getProperty("expected.sqlite-jdbc"), org.sqlite.SQLiteJDBCLoader.getVersion());
        assertEquals(System.getProperty("expected.liquibase"), liquibase.util.LiquibaseUtil.getBuildVersion(),
                "Boot's own Liquibase reads the changelogs");
    }

    @Test
    void aFreshFileIsCreatedMigratedWrittenAndSearched() {
        assertEquals(dir.resolve("fresh").resolve("state.db"), store.path().orElseThrow());
        store.createSession("boot-1", "spring-ai");
        store.appendMessages("boot-1", List.of(NewMessage.of("user", "How do I roll back the postgres migration?"),
                NewMessage.of("assistant", "Run the down script, then check the schema version.")));
        List<SearchHit> hits = store.searchMessages(SearchQuery.of("postgres migration"));
        // the schema-17 index holds content, tool name and tool calls joined by spaces: so does the agent's snippet
        assertEquals(List.of("How do I roll back the >>>postgres<<< >>>migration<<<?  "), hits.stream().map(SearchHit::snippet).toList());
        assertEquals(2, store.messageCount("boot-1"));
    }

    @Test
    void theOldestPythonFileIsMigratedAndReads() {
        Path copy = Fixtures.copy("state-v1.db", dir);
        try (StateRepository python = StateRepository.open(copy)) {
            assertEquals(30, python.sessionCount());
            assertEquals(95, python.messageCount(null));
            assertEquals("20260310_135900_0957cb", python.getCompressionTip("20260310_090000_8520da"));
            assertEquals(1, python.searchMessages(SearchQuery.of("ENDMARKER_7f3a")).size());
            long id = python.appendMessage("20260310_135900_0957cb", NewMessage.of("user", "a Boot application wrote this"));
            assertEquals(98, id);
            assertEquals(List.of("20260310_135900_0957cb"),
                    python.searchMessages(SearchQuery.of("Boot application")).stream().map(SearchHit::sessionId).toList());
        }
    }
}
