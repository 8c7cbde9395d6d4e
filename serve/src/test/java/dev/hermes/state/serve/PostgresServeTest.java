package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same store on PostgreSQL (today's agent's file copied into a schema of the test server), opened
 * read-only: the answers are the SQLite file's, and what a writer adds meanwhile is seen.
 */
class PostgresServeTest {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @TempDir
    Path dir;

    @Test
    void aStoreOnPostgresqlServesTheSameAnswersReadOnly() {
        Path file = Fixtures.copy("state-v17.db", dir);
        try (StateRepository source = StateRepository.openReadOnly(file);
             StateRepository target = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            source.copyTo(target, CopyOptions.intoEmpty(), null);
        }
        StateRepository readOnly = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).readOnly(true).build();
        try (Served sqlite = Served.start(StateRepository.openReadOnly(file), Served.V17_NOW);
             Served served = Served.start(readOnly, Served.V17_NOW)) {
            assertTrue(served.store.isReadOnly());
            for (String path : new String[] {"/api/sessions/stats", "/api/analytics/usage?days=7",
                    "/api/sessions?limit=50", "/api/sessions?order=recent&limit=10&archived=include",
                    "/api/sessions?model=openai/gpt-5.4", "/api/sessions/20260402_140000_e4c22c",
                    "/api/sessions/20260310_125900_7d739b/lineage"}) {
                JsonNode expected = sqlite.json(path);
                JsonNode actual = served.json(path);
                if (expected.has("next_cursor")) { // cursors are opaque; equal pages are what matters
                    ((com.fasterxml.jackson.databind.node.ObjectNode) expected).remove("next_cursor");
                    ((com.fasterxml.jackson.databind.node.ObjectNode) actual).remove("next_cursor");
                }
                assertEquals(expected, actual, path);
            }
            assertEquals("20260402_140000_e4c22c", served.json("/api/search?q=Lisbon").get("results").get(0)
                    .get("session_id").asText());
            assertEquals(405, served.send(HttpRequest.newBuilder(served.uri("/api/sessions/20260402_140000_e4c22c"))
                    .DELETE()).statusCode());

            try (StateRepository agent = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
                agent.appendMessage("20260402_140000_e4c22c", NewMessage.of("user", "And on Friday?"));
            }
            assertEquals(5, served.json("/api/sessions/20260402_140000_e4c22c").get("message_count").asInt());
            assertFalse(served.json("/api/store").get("store").asText().contains(postgres.password()));
        }
    }
}
