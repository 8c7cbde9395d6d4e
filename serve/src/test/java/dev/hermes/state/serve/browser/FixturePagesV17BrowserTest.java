package dev.hermes.state.serve.browser;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four pages in a real browser on a copy of today's agent's file (state-v17.db, MANIFEST-v7-v17.md):
 * what each shows, the filters, keyset paging, the search and its jump to the message, the toggle for
 * rewound and compacted turns, tool calls with their results, the lineage, and the charts. The server's
 * clock stands two minutes after the file's last write, so the sessions that never ended are live.
 */
@ExtendWith(Chromium.class)
class FixturePagesV17BrowserTest extends BrowserPages {
    /** Two minutes after the newest session of state-v17.db started (1796159101.23797). */
    static final Instant NOW = Instant.ofEpochSecond(1_796_159_221L);

    /** list_sessions_rich(limit=100) of the agent on this file (MANIFEST-v7-v17.md), newest first. */
    static final List<String> LISTED = List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b",
            "20260402_120000_e4c20a", "20260402_110000_e4c1f9", "20260402_100000_e4c1e8", "20260402_091000_e4c1d7",
            "20260402_090000_e4c1d6", "20260401_094500_e4c1b3", "20260401_091500_e4c1b2", "20260401_083000_e4c1a0",
            "20260315_124812_eeef83", "20260314_114159_49276f", "20260314_103446_3e72c1", "20260314_092733_a67437",
            "20260314_082020_73b220", "20260314_171307_59ec25", "20260314_160654_7acb75", "20260313_155941_d69e91",
            "20260313_145228_df7cfa", "20260313_134515_754d10", "20260313_123802_415804", "20260313_113149_7a0ee5",
            "20260313_102436_7763e8", "20260312_091723_9a58a3", "20260312_081010_6f2f51", "20260312_170357_a2aa49",
            "20260312_165644_c7084c", "20260312_154931_9d7f08", "20260312_144218_15c4f9", "20260311_133505_e8449c",
            "20260311_122852_b6ebb0", "20260311_112139_dc5519", "20260311_101426_eb04fb", "20260311_090713_315582",
            "20260311_080000_2133b2", "20260310_135900_0957cb");

    @TempDir
    static Path dir;
    static PageServer server;

    @BeforeAll
    static void serve() {
        Path file = Fixtures.copy("state-v17.db", dir);
        server = PageServer.serve(StateRepository.builder().path(file).readOnly(true).build(), NOW);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theSessionsPageListsTheStoreNewestFirstAndPagesByKeyset() {
        open(server.url("/"));
        assertEquals("/sessions", location());
        assertEquals("36 sessions", text("#sessions-summary"));
        assertEquals(LISTED.subList(0, 20), listedIds());
        screenshot("sessions");
        // titles where the session has one, else the first user words (the preview)
        assertEquals("Telescope mount notes #2", text("tr[data-session-id='20260402_091000_e4c1d7'] td.title a"));
        assertEquals("slack", text("tr[data-session-id='20260402_100000_e4c1e8'] td.source"));
        assertEquals("deepseek/deepseek-v3.2", text("tr[data-session-id='20260402_100000_e4c1e8'] td.model"));
        assertEquals("6", text("tr[data-session-id='20260401_091500_e4c1b2'] td.messages"));
        assertEquals("1", text("tr[data-session-id='20260401_083000_e4c1a0'] td.tool-calls"));
        // live: not ended and active in the five minutes before the server's clock
        List<String> live = attributes("#sessions-table tr.live", "data-session-id");
        assertEquals(List.of("20260402_140000_e4c22c", "20260402_130000_e4c21b", "20260402_120000_e4c20a",
                "20260402_110000_e4c1f9", "20260402_100000_e4c1e8", "20260402_091000_e4c1d7", "20260401_094500_e4c1b3",
                "20260315_124812_eeef83", "20260314_103446_3e72c1", "20260314_082020_73b220", "20260314_160654_7acb75",
                "20260313_134515_754d10"), live);
        assertEquals(12, driver.findElements(By.cssSelector("#sessions-table .badge.live")).size());

        assertFalse(driver.findElement(By.id("page-prev")).isEnabled());
        clickAndWait(driver.findElement(By.id("page-next")));
        assertTrue(location().startsWith("/sessions?cursor="), location());
        assertEquals(LISTED.subList(20, 36), listedIds());
        assertFalse(driver.findElement(By.id("page-next")).isEnabled());
        clickAndWait(driver.findElement(By.id("page-prev")));
        assertEquals(LISTED.subList(0, 20), listedIds());
        driver.navigate().back(); // the browser's own back button returns to the second page
        waitReady();
        assertEquals(LISTED.subList(20, 36), listedIds());
    }

    @Test
    void theFiltersNarrowTheListAndStayInTheAddress() {
        open(server.url("/sessions"));
        choose("#filter-source", "telegram");
        assertEquals("/sessions?source=telegram", location());
        assertEquals(List.of("20260402_120000_e4c20a", "20260401_094500_e4c1b3", "20260314_092733_a67437",
                "20260313_155941_d69e91", "20260313_113149_7a0ee5", "20260312_170357_a2aa49", "20260311_133505_e8449c",
                "20260311_090713_315582"), listedIds());
        assertEquals("8 sessions", text("#sessions-summary"));

        open(server.url("/sessions"));
        choose("#filter-model", "moonshotai/kimi-k2.5"); // the delegate child has the model too, but children are not listed
        assertEquals(List.of("20260401_083000_e4c1a0"), listedIds());
        assertEquals("Comet Encke ephemeris", text("#sessions-table td.title a"));

        open(server.url("/sessions"));
        choose("#filter-archived", "only");
        assertEquals(List.of("20260402_081500_e4c1c5"), listedIds());
        assertEquals("archived", text("#sessions-table .badge.archived"));
        choose("#filter-archived", "include");
        assertEquals(37, Integer.parseInt(text("#sessions-summary").split(" ")[0]));

        open(server.url("/sessions?order=recent"));
        assertEquals("recent", driver.findElement(By.id("filter-order")).getAttribute("value"));
        assertEquals(20, listedIds().size());

        // the file's sessions all started on 2026-12-01 (UTC)
        open(server.url("/sessions?from=2026-12-01&to=2026-12-01"));
        assertEquals("36 sessions", text("#sessions-summary"));
        open(server.url("/sessions?to=2026-11-30"));
        assertEquals("No sessions match these filters.", text(".sessions-body .empty"));

        open(server.url("/sessions?kind=automation"));
        assertEquals("No sessions match these filters.", text(".sessions-body .empty")); // no cron sessions
        open(server.url("/sessions?kind=chats"));
        assertEquals("36 sessions", text("#sessions-summary"));
    }

    @Test
    void theSearchBoxSearchesTheWholeStore() {
        open(server.url("/sessions"));
        WebElement box = driver.findElement(By.id("session-search"));
        box.sendKeys("nebula");
        clickAndWait(driver.findElement(By.cssSelector(".search-box button")));
        assertEquals("/sessions?q=nebula", location());
        assertEquals(List.of("20260402_130000_e4c21b"), attributes("#session-hits .hit", "data-session-id"));
        assertEquals("nebula", text("#session-hits .snippet mark").toLowerCase());
    }

    @Test
    void aSessionShowsItsConversationAndTheToggleShowsRewoundTurns() {
        open(server.url("/sessions/20260401_091500_e4c1b2"));
        assertEquals("all", driver.findElement(By.id("conversation")).getAttribute("data-rendered"));
        assertEquals(List.of("104", "105", "108", "109"), visibleMessageIds());
        assertEquals("2", text("#inactive-count"));
        driver.findElement(By.id("show-inactive")).click();
        assertEquals(List.of("104", "105", "106", "107", "108", "109"), visibleMessageIds());
        assertEquals(List.of("rewound", "rewound"), texts(".message.inactive .inactive-mark"));
        assertTrue(text("#message-106").contains("magnetar"), text("#message-106"));
        driver.findElement(By.id("show-inactive")).click();
        assertEquals(List.of("104", "105", "108", "109"), visibleMessageIds());
        assertEquals(List.of("user", "assistant", "user", "assistant"),
                driver.findElements(By.cssSelector(".message:not([hidden])")).stream().map(e -> e.getAttribute("data-role")).toList());

        open(server.url("/sessions/20260402_110000_e4c1f9"));
        assertEquals(List.of("130", "131"), visibleMessageIds());
        driver.findElement(By.id("show-inactive")).click();
        assertEquals(List.of("compacted", "compacted", "compacted"), texts(".message.inactive .inactive-mark"));
        // the compacted tool row (128) is shown inside the compacted call (127) it answers
        assertEquals(List.of("128"), attributes("#message-127 .result-body", "data-message-id"));
        assertTrue(text("#message-129").contains("meteorite"), text("#message-129"));
    }

    @Test
    void aSessionShowsToolCallsWithTheirResultsReasoningTokensAndLineage() {
        open(server.url("/sessions/20260401_083000_e4c1a0"));
        assertEquals("Comet Encke ephemeris", text("#session-title .title-text"));
        WebElement call = driver.findElement(By.cssSelector("details.tool-call"));
        assertEquals("Tool call orrery_lookup", call.findElement(By.tagName("summary")).getText());
        assertFalse(call.getDomProperty("open").equals("true"));
        call.findElement(By.tagName("summary")).click();
        assertTrue(call.findElement(By.cssSelector(".tool-arguments pre")).getText().contains("{"));
        script("window.scrollTo(0, 0)");
        screenshot("session");
        assertEquals(List.of("102"), attributes("details.tool-call .result-body", "data-message-id"));
        assertEquals(1, driver.findElements(By.cssSelector("#message-99 details.reasoning")).size());
        assertEquals("4", text("[data-fact='messages']"));
        assertEquals("1", text("[data-fact='tool-calls']"));
        assertEquals("/api/sessions/20260401_083000_e4c1a0/export", java.net.URI.create(
                driver.findElement(By.id("export-json")).getAttribute("href")).getPath());
        // its subagent is a link of the lineage
        assertEquals(List.of("root", "delegate"), attributes("#lineage-tree li", "data-relation"));
        clickAndWait(driver.findElement(By.cssSelector("#lineage-tree li[data-relation='delegate'] a")));
        assertEquals("/sessions/20260401_083500_e4c1a1", location());

        // the compression chain L1 -> L4 with L1's subagent
        open(server.url("/sessions/20260310_090000_8520da"));
        assertEquals(List.of("20260310_090000_8520da", "20260310_090500_53bef4", "20260310_113000_6c0e5a",
                "20260310_125900_7d739b", "20260310_135900_0957cb"), attributes("#lineage-tree li", "data-session-id"));
        assertEquals(List.of("root", "delegate", "compression", "compression", "compression"),
                attributes("#lineage-tree li", "data-relation"));
        assertEquals("20260310_135900_0957cb", text("#compression-tip"));
        open(server.url("/sessions/20260402_091000_e4c1d7"));
        assertEquals(List.of("root", "branch"), attributes("#lineage-tree li", "data-relation"));
    }

    @Test
    void aSearchHitOpensItsSessionScrolledToTheMessage() {
        open(server.url("/search"));
        driver.findElement(By.id("search-q")).sendKeys("nebula");
        clickAndWait(driver.findElement(By.cssSelector("#search-form button[type='submit']")));
        assertEquals("/search?q=nebula", location());
        assertEquals(List.of("138", "136", "135"), attributes("#search-hits .hit", "data-message-id"));
        screenshot("search");
        assertTrue(texts("#search-hits .snippet mark").stream().allMatch(m -> m.equalsIgnoreCase("nebula")));
        clickAndWait(driver.findElement(By.cssSelector("#search-hits .hit[data-message-id='136'] a.hit-title")));
        assertEquals("/sessions/20260402_130000_e4c21b#message-136", location());
        assertEquals("yes", driver.findElement(By.id("message-136")).getAttribute("data-scrolled-to"));
        assertEquals(Boolean.TRUE, script("const r = document.getElementById('message-136').getBoundingClientRect();"
                + " return r.top >= 0 && r.bottom <= window.innerHeight;"));

        // compacted rows stay searchable (the agent's search_messages('meteorite') -> [126, 129]); the hit
        // opens the session with the toggle on, so that the folded message is there to scroll to
        open(server.url("/search?q=meteorite"));
        assertEquals(List.of("126", "129"), attributes("#search-hits .hit", "data-message-id").stream().sorted().toList());
        clickAndWait(driver.findElement(By.cssSelector("#search-hits .hit[data-message-id='126'] a.hit-title")));
        assertTrue(driver.findElement(By.id("show-inactive")).isSelected());
        assertTrue(driver.findElement(By.id("message-126")).isDisplayed());
        // rewound rows only with the box ticked (the agent: search_messages('magnetar') -> [])
        open(server.url("/search?q=magnetar"));
        assertEquals("No message matches.", text("#search-summary"));
        open(server.url("/search?q=magnetar&include_inactive=1"));
        assertTrue(driver.findElement(By.id("search-include_inactive")).isSelected());
        assertEquals(List.of("106", "107"), attributes("#search-hits .hit", "data-message-id").stream().sorted().toList());

        open(server.url("/search?q=nebula&role=assistant"));
        assertEquals(List.of("138", "136"), attributes("#search-hits .hit", "data-message-id"));
    }

    @Test
    void analyticsShowsTotalsTablesAndStackedDailyCharts() {
        open(server.url("/analytics?days=7"));
        screenshot("analytics");
        Map<String, String> totals = Map.of(
                "sessions", "43", "messages", "136", "input", "94,593", "output", "25,052", "cache_read", "16,230",
                "cache_write", "1,913", "estimated_cost", "$0.6521", "actual_cost", "$0.1437");
        totals.forEach((key, value) -> assertEquals(value, text("[data-total='" + key + "'] .card-value"), key));
        // cache reads over all prompt tokens: 16,230 / (94,593 + 16,230 + 1,913)
        assertEquals("14.4 %", text("[data-total='cache_hit'] .card-value"));
        assertEquals(List.of("anthropic/claude-opus-4.6", "deepseek/deepseek-v3.2", "google/gemini-3-pro",
                "openai/gpt-5.4", "anthropic/claude-sonnet-4.6", "moonshotai/kimi-k2.5"), attributes("#by-model tbody tr", "data-key"));
        assertEquals(List.of("cli", "telegram", "discord", "slack"), attributes("#by-source tbody tr", "data-key"));
        List<Map<String, Object>> charts = charts();
        assertEquals(List.of("chart-sessions", "chart-messages", "chart-tokens"), charts.stream().map(c -> c.get("id")).toList());
        assertEquals(List.of(4L, 4L, 3L), charts.stream().map(c -> ((Number) c.get("series")).longValue()).toList());
        assertEquals(List.of(43L, 136L, 94_593L + 25_052L + 16_230L),
                charts.stream().map(c -> ((Number) c.get("total")).longValue()).toList());
        for (Map<String, Object> chart : charts) {
            assertTrue(((Number) chart.get("width")).longValue() > 300 && ((Number) chart.get("height")).longValue() > 100, chart::toString);
            assertTrue(((Number) chart.get("painted")).longValue() > 1000, chart::toString);
        }

        clickAndWait(driver.findElement(By.id("period-30")));
        assertEquals("/analytics?days=30", location());
        assertEquals("true", driver.findElement(By.id("period-30")).getAttribute("aria-pressed"));
        assertEquals("false", driver.findElement(By.id("period-7")).getAttribute("aria-pressed"));
        assertEquals("43", text("[data-total='sessions'] .card-value"));
        clickAndWait(driver.findElement(By.id("period-90")));
        assertEquals("90", driver.findElement(By.id("analytics")).getAttribute("data-days"));
        assertEquals(3, charts().size());
    }

    private static List<String> visibleMessageIds() {
        return driver.findElements(By.cssSelector("#conversation > .message")).stream()
                .filter(WebElement::isDisplayed).map(e -> e.getAttribute("data-message-id")).toList();
    }
}
