package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Search across the whole store and the usage analytics, on the agent's files of three versions: the
 * sums are those of the fixtures' {@code sessions} rows (summed independently with sqlite3), a column an
 * older file lacks sums as 0.
 */
class SearchAndUsageTest {
    @TempDir
    Path dir;

    @Test
    void searchFindsMessagesAnywhereInTheStoreWithMarkedSnippets() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            JsonNode answer = served.json("/api/search?q=Lisbon");
            JsonNode results = answer.get("results");
            assertTrue(results.size() >= 1, answer::toString);
            for (JsonNode hit : results) {
                assertEquals("20260402_140000_e4c22c", hit.get("session_id").asText());
                assertTrue(hit.get("snippet").asText().contains(">>>Lisbon<<<"), hit::toString);
                assertTrue(hit.get("snippet_html").asText().contains("<mark>Lisbon</mark>"), hit::toString);
                assertEquals("cli", hit.get("source").asText());
            }
            assertEquals(139, results.get(0).get("id").asLong());
            assertFalse(answer.get("has_more").asBoolean());
            assertEquals(0, served.json("/api/search?q=Lisbon&source=discord").get("results").size());
            assertEquals(1, served.json("/api/search?q=Lisbon&role=user").get("results").size());
            assertEquals(0, served.json("/api/search?q=").get("results").size());

            // a prefix finds the word (the dashboard's rule), across sessions: one page, then the next
            List<Long> ids = new ArrayList<>();
            served.json("/api/search?q=meteor&include_inactive=true&limit=1").get("results").forEach(h -> ids.add(h.get("id").asLong()));
            served.json("/api/search?q=meteor&include_inactive=true&limit=1&offset=1").get("results").forEach(h -> ids.add(h.get("id").asLong()));
            assertEquals(2, ids.size());
            assertFalse(ids.get(0).equals(ids.get(1)));
        }
    }

    @Test
    void theDashboardsSearchPutsIdMatchesFirstAndCountsAConversationOnce() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            JsonNode byId = served.json("/api/sessions/search?q=20260402_140000").get("results");
            assertEquals("20260402_140000_e4c22c", byId.get(0).get("session_id").asText());
            assertEquals("When does the ISS pass over Lisbon tonight?", byId.get(0).get("snippet").asText());
            assertTrue(byId.get(0).get("role").isNull());

            JsonNode byText = served.json("/api/sessions/search?q=Lisbon").get("results");
            assertEquals(1, byText.size(), byText::toString); // several hits, one conversation
            assertEquals("20260402_140000_e4c22c", byText.get(0).get("session_id").asText());
            assertEquals("20260402_140000_e4c22c", byText.get(0).get("lineage_root").asText());
            assertTrue(byText.get(0).get("snippet_html").asText().contains("<mark>"));
            assertEquals(0, served.json("/api/sessions/search?q=%20").get("results").size());
        }
    }

    @Test
    void usageOfTheLastDaysSummedPerDayModelAndSource() throws java.io.IOException {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir)), Served.V17_NOW)) {
            JsonNode usage = served.json("/api/analytics/usage?days=7");
            assertEquals(7, usage.get("period_days").asInt());
            JsonNode totals = usage.get("totals");
            assertEquals(43, totals.get("total_sessions").asLong());
            assertEquals(94593, totals.get("total_input").asLong());
            assertEquals(25052, totals.get("total_output").asLong());
            assertEquals(16230, totals.get("total_cache_read").asLong());
            assertEquals(1913, totals.get("total_cache_write").asLong());
            assertEquals(4990, totals.get("total_reasoning").asLong());
            assertEquals(0.652138, totals.get("total_estimated_cost").asDouble(), 1e-9);
            assertEquals(0.14373, totals.get("total_actual_cost").asDouble(), 1e-9);
            assertEquals(7, totals.get("total_api_calls").asLong());
            assertEquals(136, totals.get("total_messages").asLong());
            assertEquals(19, totals.get("total_tool_calls").asLong());
            assertEquals(100.0 * 16230 / (94593 + 16230 + 1913), totals.get("cache_hit_percent").asDouble(), 1e-9);

            JsonNode daily = usage.get("daily");
            assertEquals(1, daily.size());
            assertEquals("2026-12-01", daily.get(0).get("day").asText());
            assertEquals(43, daily.get(0).get("sessions").asLong());
            assertEquals(94593, daily.get(0).get("input_tokens").asLong());

            List<String> models = new ArrayList<>();
            usage.get("by_model").forEach(m -> models.add(m.get("model").asText()));
            assertEquals(List.of("anthropic/claude-opus-4.6", "deepseek/deepseek-v3.2", "google/gemini-3-pro",
                    "openai/gpt-5.4", "anthropic/claude-sonnet-4.6", "moonshotai/kimi-k2.5"), models);
            JsonNode opus = usage.get("by_model").get(0);
            assertEquals(11, opus.get("sessions").asLong());
            assertEquals(21741, opus.get("input_tokens").asLong());
            assertEquals(5613, opus.get("output_tokens").asLong());

            List<String> sources = new ArrayList<>();
            usage.get("by_source").forEach(s -> sources.add(s.get("source").asText() + "=" + s.get("sessions").asLong()));
            assertEquals(List.of("cli=21", "telegram=8", "discord=7", "slack=7"), sources);
            long stacked = 0;
            for (JsonNode row : usage.get("daily_by_source")) {
                assertEquals("2026-12-01", row.get("day").asText());
                stacked += row.get("sessions").asLong();
            }
            assertEquals(43, stacked);
        }
        Instant monthLater = Served.V17_NOW.plus(Duration.ofDays(30));
        java.nio.file.Files.createDirectories(dir.resolve("later"));
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir.resolve("later"))), monthLater)) {
            assertEquals(0, served.json("/api/analytics/usage?days=7").get("totals").get("total_sessions").asLong());
            assertEquals(0, served.json("/api/analytics/usage?days=7").get("daily").size());
            assertEquals(43, served.json("/api/analytics/usage?days=90").get("totals").get("total_sessions").asLong());
        }
    }

    @Test
    void aVersion6FileLacksTheLaterColumnsWhichSumAsZero() {
        Instant now = Instant.ofEpochSecond(1_796_040_400L);
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v6.db", dir)), now)) {
            JsonNode totals = served.json("/api/analytics/usage?days=30").get("totals");
            assertEquals(30, totals.get("total_sessions").asLong());
            assertEquals(95, totals.get("total_messages").asLong());
            assertEquals(17, totals.get("total_tool_calls").asLong());
            assertEquals(92431, totals.get("total_input").asLong());
            assertEquals(24783, totals.get("total_output").asLong());
            assertEquals(4950, totals.get("total_reasoning").asLong());
            assertEquals(0.649038, totals.get("total_estimated_cost").asDouble(), 1e-9);
            assertEquals(0, totals.get("total_api_calls").asLong()); // no api_call_count before 8

            JsonNode stats = served.json("/api/sessions/stats");
            assertEquals(30, stats.get("total").asLong());
            assertEquals(30, stats.get("active_store").asLong());
            assertEquals(0, stats.get("archived").asLong()); // no archived column before 14
            assertEquals(95, stats.get("messages").asLong());
            JsonNode first = served.json("/api/sessions?limit=1").get("sessions").get(0);
            assertFalse(first.has("api_call_count"), "a v6 row has the v6 columns only");
            assertFalse(first.get("archived").asBoolean());
            assertEquals(0, served.json("/api/sessions?archived=only").get("total").asLong());
            assertEquals(17, served.json("/api/store").get("rules_version").asInt()); // read with today's rules
        }
    }

    @Test
    void aVersion10FileIsServedToo() {
        try (Served served = Served.start(StateRepository.openReadOnly(Fixtures.copy("state-v10.db", dir)), Served.V17_NOW)) {
            JsonNode stats = served.json("/api/sessions/stats");
            assertEquals(42, stats.get("total").asLong());
            assertEquals(134, stats.get("messages").asLong());
            assertEquals(42, served.json("/api/analytics/usage?days=7").get("totals").get("total_sessions").asLong());
            assertEquals(17, served.json("/api/store").get("rules_version").asInt());
            JsonNode page = served.json("/api/sessions?limit=100");
            assertEquals(page.get("sessions").size(), page.get("total").asInt());
        }
    }
}
