package dev.hermes.state.serve.browser;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pages on a store kept at schema 6 (state-v6.db, MANIFEST.md): no archive, no rewound rows, no
 * API call counts; the same pages work on what that file has.
 */
@ExtendWith(Chromium.class)
class FixturePagesV6BrowserTest extends BrowserPages {
    /** Two minutes after the newest session of state-v6.db started (1796040268.98747). */
    static final Instant NOW = Instant.ofEpochSecond(1_796_040_389L);

    @TempDir
    static Path dir;
    static PageServer server;

    @BeforeAll
    static void serve() {
        Path file = Fixtures.copy("state-v6.db", dir);
        server = PageServer.serve(StateRepository.builder().path(file).schemaVersion(6).readOnly(true).build(), NOW);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyPageShowsTheVersion6File() {
        // list_sessions_rich(limit=50) has 26 rows: the v6 data set's part of the v17 file's list
        List<String> listed = FixturePagesV17BrowserTest.LISTED.subList(10, 36);
        open(server.url("/sessions"));
        assertEquals("26 sessions", text("#sessions-summary"));
        assertEquals(listed.subList(0, 20), listedIds());
        assertEquals("my project notes", text("tr[data-session-id='20260315_124812_eeef83'] td.title a"));
        assertEquals("What's the status of the 🐛 bug #12?", text("tr[data-session-id='20260314_114159_49276f'] td.title a"));
        assertEquals(List.of("20260315_124812_eeef83", "20260314_103446_3e72c1", "20260314_082020_73b220",
                "20260314_160654_7acb75", "20260313_134515_754d10", "20260313_113149_7a0ee5", "20260312_081010_6f2f51",
                "20260312_154931_9d7f08", "20260311_133505_e8449c"), attributes("#sessions-table tr.live", "data-session-id"));
        clickAndWait(driver.findElement(By.id("page-next")));
        assertEquals(listed.subList(20, 26), listedIds());
        choose("#filter-source", "slack");
        assertEquals(6, listedIds().size());

        open(server.url("/sessions/20260311_080000_2133b2"));
        assertEquals("Debugging Auth", text("#session-title .title-text"));
        assertEquals("0", text("#inactive-count"));
        assertEquals(6, driver.findElements(By.cssSelector("#conversation > .message, #conversation .result-body")).size());
        assertEquals(2, driver.findElements(By.cssSelector("details.tool-call")).size());
        assertEquals("$", text("#cost-estimated").substring(0, 1));

        open(server.url("/search?q=docker"));
        assertEquals(List.of("30", "31", "79", "80"), attributes("#search-hits .hit", "data-message-id").stream().sorted().toList());
        clickAndWait(driver.findElement(By.cssSelector("#search-hits .hit[data-message-id='80'] a.hit-title")));
        assertEquals("/sessions/20260314_160654_7acb75#message-80", location());
        assertEquals("yes", driver.findElement(By.id("message-80")).getAttribute("data-scrolled-to"));

        open(server.url("/analytics?days=7"));
        assertEquals("30", text("[data-total='sessions'] .card-value"));
        assertEquals("95", text("[data-total='messages'] .card-value"));
        assertEquals("92,431", text("[data-total='input'] .card-value"));
        assertEquals("24,783", text("[data-total='output'] .card-value"));
        assertEquals("$0.6490", text("[data-total='estimated_cost'] .card-value"));
        assertEquals("$0.1437", text("[data-total='actual_cost'] .card-value"));
        assertEquals(5, attributes("#by-model tbody tr", "data-key").size());
        assertEquals(List.of(4L, 4L, 3L), charts().stream().map(c -> ((Number) c.get("series")).longValue()).toList());
        assertFalse(charts().stream().anyMatch(c -> ((Number) c.get("width")).longValue() == 0));
        assertTrue(charts().stream().allMatch(c -> ((Number) c.get("painted")).longValue() > 1000));
    }
}
