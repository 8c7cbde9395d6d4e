package dev.hermes.state.it;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import org.jooq.Record2;
import org.jooq.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.hermes.state.db.Tables.SESSIONS;
import static org.jooq.impl.DSL.count;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The README's "use core from your own build" example, verbatim, so the README stays true. */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    @Test
    void theReadmeExampleRunsAsWritten() {
        Path file = dir.resolve("state.db");
        // --- README example starts ---
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
            // --- README example ends ---

            assertEquals(1, hits.size());
            // at schema 17 the index holds content, tool name and tool calls joined by spaces: today's agent's
            // snippet of this message ends in those two spaces too
            assertEquals("How do I roll back the >>>postgres<<< >>>migration<<<?  ", hits.get(0).snippet());
            assertEquals(1, perSource.size());
            assertEquals("cli", perSource.get(0).value1());
            assertEquals(1, perSource.get(0).value2());
        }
    }
}
