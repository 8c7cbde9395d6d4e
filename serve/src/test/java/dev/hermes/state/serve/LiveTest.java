package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages see what the agent writes while the server runs: another writer (a read-write store on the
 * same file, as the agent is) appends, and the next request shows it; no lock is held in between, or
 * the writer would block.
 */
class LiveTest {
    @TempDir
    Path dir;

    @Test
    void theNextRequestSeesWhatAnotherWriterAppended() {
        Path file = Fixtures.copy("state-v17.db", dir);
        try (StateRepository agent = StateRepository.open(file);
             Served served = Served.start(StateRepository.openReadOnly(file), Instant.now())) {
            long before = served.json("/api/sessions/stats").get("messages").asLong();
            JsonNode session = served.json("/api/sessions/20260402_140000_e4c22c");
            assertEquals(4, session.get("message_count").asInt());

            agent.appendMessage("20260402_140000_e4c22c", NewMessage.of("user", "And on Friday?"));
            assertEquals(5, served.json("/api/sessions/20260402_140000_e4c22c").get("message_count").asInt());
            JsonNode messages = served.json("/api/sessions/20260402_140000_e4c22c/messages").get("messages");
            assertEquals("And on Friday?", messages.get(messages.size() - 1).get("content").asText());
            assertEquals(before + 1, served.json("/api/sessions/stats").get("messages").asLong());

            agent.createSession(NewSession.builder("live_session_1", "telegram").model("openai/gpt-5.4").build());
            agent.appendMessage("live_session_1", NewMessage.of("user", "hello from the agent"));
            JsonNode first = served.json("/api/sessions?order=recent&limit=1").get("sessions").get(0);
            assertEquals("live_session_1", first.get("id").asText());
            assertTrue(first.get("is_active").asBoolean(), "just written, not ended: live");
            assertEquals("live_session_1", served.json("/api/search?q=agent").get("results").get(0).get("session_id").asText());
        }
    }
}
