package dev.hermes.state.it;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.*;
import dev.hermes.state.testsupport.DocExample;
import org.jooq.Record2;
import org.jooq.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.jooq.impl.DSL.count;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The README's library example (the block after {@code <!-- example: library -->}), run as written:
 * {@link #theReadmeShowsTheCodeThisTestRuns} fails when the README's block and the region below differ.
 */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    @Test
    void theReadmeShowsTheCodeThisTestRuns() {
        DocExample.assertMatches("README.md", "library", ReadmeExampleTest.class);
    }

    @Test
    void theReadmeExampleRunsAsWritten() {
        Path file = dir.resolve("state.db");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            // --- example library starts ---
            try (StateRepository store = StateRepository.open(file)) {         // creates, migrates or adopts the file
                store.createSession(NewSession.builder("s1", "cli").model("anthropic/claude-sonnet-4").build());
                store.appendMessage("s1", NewMessage.of("user", "How do I roll back the postgres migration?"));

                List<SearchHit> hits = store.searchMessages(SearchQuery.of("postgres migration"));
                hits.forEach(hit -> System.out.println(hit.sessionId() + "  " + hit.snippet()));

                // your own type-safe query on the generated tables (read-only connection)
                Result<Record2<String, Integer>> perSource = store.dsl()
                        .select(SESSIONS.SOURCE, count())
                        .from(SESSIONS)
                        .groupBy(SESSIONS.SOURCE)
                        .orderBy(count().desc())
                        .fetch();
                perSource.forEach(row -> System.out.println(row.value1() + "  " + row.value2()));
            }
            // --- example library ends ---
        } finally {
            System.setOut(console);
        }

        // one hit, then one row per source. At schema 17 the index holds content, tool name and tool calls
        // joined by spaces: today's agent's snippet of this message ends in those two spaces too
        assertEquals(List.of("s1  How do I roll back the >>>postgres<<< >>>migration<<<?  ", "cli  1"),
                printed.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
