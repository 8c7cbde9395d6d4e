package dev.hermes.state.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sessions API on a copy of today's agent's file (state-v17.db): the answers the agent's own
 * {@code list_sessions_rich}, {@code session_count} and {@code get_messages} give on it (taken by running
 * the agent on the fixture), in the dashboard's shapes, plus keyset pages, filters and lineage.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionsApiTest {
    private Served served;

    @BeforeAll
    void serve(@TempDir Path dir) {
        Path file = Fixtures.copy("state-v17.db", dir);
        served = Served.start(StateRepository.openReadOnly(file), Served.V17_NOW);
    }

    @AfterAll
    void stop() {
        served.close();
    }

    @Test
    void theFirstPageIsTheAgentsWithItsCountAndTheDashboardsFields() {
        JsonNode page = served.json("/api/sessions?limit=5");
        assertEquals(List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b", "20260402_120000_e4c20a",
                "20260402_110000_e4c1f9", "20260402_100000_e4c1e8"), ids(page));
        assertEquals(36, page.get("total").asInt()); // session_count(exclude_children=True)
        assertEquals(5, page.get("limit").asInt());
        assertEquals(0, page.get("offset").asInt());
        JsonNode first = page.get("sessions").get(0);
        for (String field : List.of("id", "source", "model", "title", "started_at", "ended_at", "last_active",
                "is_active", "message_count", "tool_call_count", "input_tokens", "output_tokens", "preview",
                "parent_session_id")) {
            assertTrue(first.has(field), field);
        }
        assertEquals("When does the ISS pass over Lisbon tonight?", first.get("preview").asText());
        assertEquals(4, first.get("message_count").asInt());
        assertEquals(1796159101.237967, first.get("started_at").asDouble(), 1e-6);
        assertTrue(first.get("is_active").asBoolean(), "not ended, active a minute ago: live");
        assertFalse(first.get("archived").asBoolean());
    }

    @Test
    void keysetPagesWalkTheWholeListingOnceInOrder() {
        List<String> walked = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = served.json("/api/sessions?limit=7" + (cursor == null ? "" : "&cursor=" + cursor));
            walked.addAll(ids(page));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
            pages++;
        } while (cursor != null);
        assertEquals(36, walked.size());
        assertEquals(36, new LinkedHashSet<>(walked).size());
        assertEquals(6, pages);
        List<String> byOffset = new ArrayList<>();
        for (int offset = 0; offset < 36; offset += 12) {
            byOffset.addAll(ids(served.json("/api/sessions?limit=12&offset=" + offset)));
        }
        assertEquals(byOffset, walked);
    }

    @Test
    void filtersBySourceModelDateArchivedAndKind() {
        JsonNode discord = served.json("/api/sessions?source=discord&limit=100");
        assertEquals(7, ids(discord).size()); // list_sessions_rich(source="discord")
        discord.get("sessions").forEach(s -> assertEquals("discord", s.get("source").asText()));
        assertEquals(ids(discord).size(), discord.get("total").asInt());

        JsonNode gemini = served.json("/api/sessions?model=google/gemini-3-pro&limit=100");
        gemini.get("sessions").forEach(s -> assertEquals("google/gemini-3-pro", s.get("model").asText()));
        assertEquals(gemini.get("sessions").size(), gemini.get("total").asInt());

        JsonNode archived = served.json("/api/sessions?archived=only&limit=100");
        assertEquals(1, archived.get("total").asInt()); // session_count(archived_only=True, exclude_children=True)
        assertEquals(1, archived.get("sessions").size());
        archived.get("sessions").forEach(s -> assertTrue(s.get("archived").asBoolean()));
        assertEquals(37, served.json("/api/sessions?archived=include").get("total").asInt());

        assertEquals(36, served.json("/api/sessions?from=2026-12-01&to=2026-12-01").get("total").asInt());
        assertEquals(0, served.json("/api/sessions?from=2026-12-02").get("total").asInt());
        assertEquals(0, served.json("/api/sessions?kind=automation").get("total").asInt()); // no cron sessions
        assertEquals(36, served.json("/api/sessions?kind=chats").get("total").asInt());
    }

    @Test
    void orderRecentAndTheIdOrTitleSearch() {
        assertEquals(List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b", "20260402_120000_e4c20a",
                "20260402_110000_e4c1f9", "20260402_100000_e4c1e8"), ids(served.json("/api/sessions?order=recent&limit=5")));
        JsonNode found = served.json("/api/sessions?q=e4c22c");
        assertEquals(List.of("20260402_140000_e4c22c"), ids(found));
    }

    @Test
    void aSessionItsMessagesToolCallsAndResults() {
        JsonNode session = served.json("/api/sessions/20260402_140000_e4c22c");
        assertEquals("google/gemini-3-pro", session.get("model").asText());
        assertEquals(4, session.get("message_count").asInt());
        assertEquals(session, served.json("/api/sessions/20260402_140000_e4")); // a unique prefix resolves

        JsonNode answer = served.json("/api/sessions/20260402_140000_e4c22c/messages");
        assertEquals("20260402_140000_e4c22c", answer.get("session_id").asText());
        JsonNode messages = answer.get("messages");
        assertEquals(List.of("user", "assistant", "tool", "assistant"), roles(messages));
        JsonNode call = messages.get(1).get("tool_calls").get(0);
        assertEquals("call_t001", call.get("id").asText());
        assertEquals("pass_predictor", call.get("function").get("name").asText());
        assertEquals("{\"city\": \"Lisbon\", \"min_elevation_deg\": 10}", call.get("function").get("arguments").asText());
        assertEquals("call_t001", messages.get(2).get("tool_call_id").asText());
        assertEquals("pass_predictor", messages.get(2).get("tool_name").asText());
        assertEquals("<p>When does the ISS pass over Lisbon tonight?</p>\n", messages.get(0).get("content_html").asText());
        assertEquals("<pre><code>{&quot;rise&quot;: &quot;21:42&quot;, &quot;max_elevation_deg&quot;: 61}</code></pre>\n",
                messages.get(2).get("content_html").asText());

        JsonNode after = served.json("/api/sessions/20260402_140000_e4c22c/messages?after_id="
                + messages.get(1).get("id").asLong()).get("messages");
        assertEquals(2, after.size());
        JsonNode chunk = served.json("/api/sessions/20260402_140000_e4c22c/messages?limit=3");
        assertEquals(3, chunk.get("messages").size());
        assertTrue(chunk.get("has_more").asBoolean());
        JsonNode rest = served.json("/api/sessions/20260402_140000_e4c22c/messages?limit=3&after_id="
                + chunk.get("messages").get(2).get("id").asLong());
        assertEquals(1, rest.get("messages").size());
        assertFalse(rest.get("has_more").asBoolean());
        assertEquals(messages.get(3), rest.get("messages").get(0));
    }

    @Test
    void rewoundAndCompactedTurnsOnlyWhenAskedFor() {
        // 20260402_110000_e4c1f9: 6 rows, 4 of them compacted out of the transcript (active = 0)
        JsonNode live = served.json("/api/sessions/20260402_110000_e4c1f9/messages").get("messages");
        JsonNode all = served.json("/api/sessions/20260402_110000_e4c1f9/messages?include_inactive=true").get("messages");
        assertEquals(2, live.size());
        assertEquals(6, all.size());
        int compacted = 0;
        for (JsonNode m : all) {
            if (m.get("compacted").asBoolean()) {
                compacted++;
                assertFalse(m.get("active").asBoolean());
            }
        }
        assertEquals(4, compacted);
        // 20260401_091500_e4c1b2: 2 of 6 rewound (inactive, not compacted)
        assertEquals(4, served.json("/api/sessions/20260401_091500_e4c1b2/messages").get("messages").size());
        assertEquals(6, served.json("/api/sessions/20260401_091500_e4c1b2/messages?include_inactive=1").get("messages").size());
    }

    @Test
    void lineageNamesCompressionBranchesAndDelegates() {
        JsonNode chain = served.json("/api/sessions/20260310_125900_7d739b/lineage");
        assertEquals("20260310_090000_8520da", chain.get("root_id").asText());
        assertEquals("20260310_135900_0957cb", chain.get("compression_tip").asText());
        Map<String, String> relations = new TreeMap<>();
        chain.get("tree").forEach(n -> relations.put(n.get("id").asText(), n.get("relation").isNull() ? "root"
                : n.get("relation").asText()));
        // 53bef4: L1's subagent, begun while L1 was live and ended delegate_complete (no marker at 17's file)
        assertEquals(Map.of("20260310_090000_8520da", "root", "20260310_090500_53bef4", "delegate",
                "20260310_113000_6c0e5a", "compression", "20260310_125900_7d739b", "compression",
                "20260310_135900_0957cb", "compression"), relations);
        assertEquals(List.of("20260310_125900_7d739b", "20260310_113000_6c0e5a", "20260310_090000_8520da"),
                chain.get("ancestors").findValuesAsText("id"));

        JsonNode delegate = served.json("/api/sessions/20260401_083500_e4c1a1/lineage");
        assertEquals("delegate", delegate.get("tree").get(1).get("relation").asText());
        JsonNode branch = served.json("/api/sessions/20260402_090000_e4c1d6/lineage");
        assertEquals("branch", branch.get("tree").get(1).get("relation").asText());
        assertEquals("20260402_091000_e4c1d7", branch.get("tree").get(1).get("id").asText());
    }

    @Test
    void theDashboardsMessagesEndpointFollowsACompressedConversationToItsTip() {
        assertEquals("20260310_135900_0957cb",
                served.json("/api/sessions/20260310_090000_8520da/messages").get("session_id").asText());
        JsonNode own = served.json("/api/sessions/20260310_090000_8520da/messages?follow=false");
        assertEquals("20260310_090000_8520da", own.get("session_id").asText());
        assertEquals(5, own.get("messages").size());
    }

    @Test
    void exportIsADownloadOfTheSessionWithItsMessages() {
        HttpResponse<String> response = served.get("/api/sessions/20260402_140000_e4c22c/export");
        assertEquals(200, response.statusCode());
        assertEquals("attachment; filename=\"20260402_140000_e4c22c.json\"",
                response.headers().firstValue("Content-Disposition").orElseThrow());
        JsonNode export = Served.parse(response.body());
        assertEquals("20260402_140000_e4c22c", export.get("id").asText());
        assertEquals(4, export.get("messages").size());
        assertFalse(export.get("messages").get(0).has("content_html"));
    }

    @Test
    void statsAreTheAgentsSessionsStats() {
        JsonNode stats = served.json("/api/sessions/stats");
        assertEquals(43, stats.get("total").asInt());
        assertEquals(41, stats.get("active_store").asInt());
        assertEquals(2, stats.get("archived").asInt());
        assertEquals(140, stats.get("messages").asInt());
        Map<String, Integer> bySource = new TreeMap<>();
        stats.get("by_source").properties().forEach(e -> bySource.put(e.getKey(), e.getValue().asInt()));
        assertEquals(Map.of("cli", 15, "discord", 7, "telegram", 8, "slack", 7), bySource);
        assertEquals(Set.of("anthropic/claude-opus-4.6", "deepseek/deepseek-v3.2", "google/gemini-3-pro",
                "openai/gpt-5.4", "anthropic/claude-sonnet-4.6", "moonshotai/kimi-k2.5"), fieldNames(stats.get("by_model")));
    }

    static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("sessions").forEach(s -> ids.add(s.get("id").asText()));
        return ids;
    }

    private static List<String> roles(JsonNode messages) {
        List<String> roles = new ArrayList<>();
        messages.forEach(m -> roles.add(m.get("role").asText()));
        return roles;
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new java.util.TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
