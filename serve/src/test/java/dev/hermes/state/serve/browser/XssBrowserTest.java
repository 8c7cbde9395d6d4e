package dev.hermes.state.serve.browser;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.TokenUsage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The content is hostile: a store whose titles, model names, sources, message texts, reasoning,
 * tool-call JSON and tool results carry script payloads (script elements, event handlers, javascript:
 * links, SVG, Markdown links and pictures, HTML inside JSON). Every page is opened, every fold opened,
 * and none of them runs a script: no alert, the sentinel {@code window.__xss} never set, no element
 * with an event-handler attribute or a javascript: URL, no script element but the app's; and the
 * payloads are on screen as the text they are.
 */
@ExtendWith(Chromium.class)
class XssBrowserTest extends BrowserPages {
    static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");

    /** Each payload sets window.__xss (or raises an alert) if it ever runs. */
    static final List<String> PAYLOADS = List.of(
            "<script>window.__xss = 1</script>",
            "<img src=x onerror=\"window.__xss = 2\">",
            "[click me](javascript:window.__xss=3)",
            "![picture](javascript:window.__xss=4)",
            "<svg onload=\"window.__xss = 5\"><script>window.__xss = 6</script></svg>",
            "<a href=\"javascript:window.__xss=7\">a link</a>",
            "\"><iframe src=\"javascript:window.__xss=8\"></iframe>",
            "<details open ontoggle=\"window.__xss = 9\">x</details>",
            "[encoded](&#106;avascript:window.__xss=10)",
            "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=11></style></mglyph></table></mtext></math>",
            "<div style=\"background:url(javascript:window.__xss=12)\" onclick=\"alert(12)\">styled</div>",
            "`<b onmouseover=alert(13)>code</b>` and <b onmouseover=alert(14)>bold</b>",
            "![x](x\" onerror=\"window.__xss=15)",
            "<<script>script>window.__xss = 16<</script>/script>",
            "[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTc8L3NjcmlwdD4=)");
    static final String TITLE = "<img src=x onerror=\"window.__xss = 20\"> title";
    static final String MODEL = "<script>window.__xss = 21</script>model";
    static final String SOURCE = "<svg onload=alert(22)>";
    static final String TOOL = "<img src=x onerror=alert(23)>";
    static final String ARGUMENTS = "{\"html\": \"<script>window.__xss = 24</script>\", \"img\": \"<img src=x onerror=alert(25)>\"}";
    static final String RESULT = "{\"out\": \"<svg><script>window.__xss = 26</script></svg>\", \"link\": \"javascript:alert(27)\"}";
    static final String REASONING = "<script>window.__xss = 28</script> thinking **hard** <img src=x onerror=alert(29)>";

    @TempDir
    static Path dir;
    static PageServer server;

    @BeforeAll
    static void serve() {
        Path file = dir.resolve("hostile.db");
        try (StateRepository store = StateRepository.builder().path(file)
                .clock(Clock.fixed(NOW.minusSeconds(60), ZoneOffset.UTC)).build()) {
            store.createSession(NewSession.builder("hostile_1", SOURCE).model(MODEL).build());
            store.setSessionTitle("hostile_1", TITLE);
            for (String payload : PAYLOADS) {
                store.appendMessage("hostile_1", NewMessage.of("user", payload));
                store.appendMessage("hostile_1", NewMessage.builder("assistant").content("Echo: " + payload)
                        .reasoning(REASONING).build());
            }
            store.appendMessage("hostile_1", NewMessage.builder("assistant").content("")
                    .toolCalls(ToolCalls.json(List.of(Map.of("id", "call_x", "type", "function",
                            "function", Map.of("name", TOOL, "arguments", ARGUMENTS))))).build());
            store.appendMessage("hostile_1", NewMessage.builder("tool").content(RESULT).toolCallId("call_x")
                    .toolName(TOOL).build());
            store.appendMessage("hostile_1", NewMessage.of("system", PAYLOADS.get(0) + " " + PAYLOADS.get(1)));
            store.updateTokenCounts("hostile_1", TokenUsage.builder().inputTokens(10).outputTokens(5).build());
        }
        server = PageServer.serve(StateRepository.builder().path(file).readOnly(true).build(), NOW);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void noPageRunsAScriptFromTheStore() {
        open(server.url("/sessions"));
        assertNoScriptRan();
        assertEquals(TITLE, text("tr[data-session-id='hostile_1'] td.title a"));
        assertEquals(MODEL, text("tr[data-session-id='hostile_1'] td.model"));
        assertEquals(SOURCE, text("tr[data-session-id='hostile_1'] td.source"));
        // the filters' choices are stored strings too
        new org.openqa.selenium.support.ui.WebDriverWait(driver, java.time.Duration.ofSeconds(10))
                .until(d -> d.findElements(By.cssSelector("#filter-model option")).size() == 2);
        assertEquals(List.of("", MODEL), attributes("#filter-model option", "value"));
        assertNoScriptRan();

        open(server.url("/sessions/hostile_1"));
        for (WebElement details : driver.findElements(By.cssSelector("details"))) {
            details.findElement(By.tagName("summary")).click(); // reasoning and tool calls opened
        }
        assertNoScriptRan();
        assertEquals(TITLE, text("#session-title .title-text"));
        String page = text("#conversation");
        for (String visible : List.of("window.__xss = 1", "onerror=\"window.__xss = 2\"", "<svg onload=\"window.__xss = 5\">",
                "ontoggle=\"window.__xss = 9\"", "<b onmouseover=alert(13)>code</b>")) {
            assertTrue(page.contains(visible), () -> "not shown as text: " + visible);
        }
        assertEquals("Tool call " + TOOL, text("details.tool-call summary"));
        assertTrue(text("details.tool-call .tool-arguments").contains("<script>window.__xss = 24</script>"));
        assertTrue(text("details.tool-call .result-body").contains("<svg><script>window.__xss = 26</script></svg>"));
        assertTrue(text("#conversation details.reasoning").contains("<script>window.__xss = 28</script>"));
        // Markdown links keep only safe schemes: no javascript: or data: link survives
        assertEquals(List.of(), driver.findElements(By.cssSelector("#conversation a[href]")).stream()
                .map(a -> a.getAttribute("href")).filter(h -> !h.startsWith(server.url("/sessions/hostile_1#message-"))).toList());
        assertEquals(List.of(), driver.findElements(By.cssSelector("#conversation img")).stream()
                .map(i -> i.getAttribute("src")).toList());

        open(server.url("/search?q=xss"));
        assertNoScriptRan();
        assertTrue(driver.findElements(By.cssSelector("#search-hits .hit")).size() >= 10);
        assertTrue(texts("#search-hits .snippet").stream().anyMatch(s -> s.contains("<script>window.")),
                () -> texts("#search-hits .snippet").toString());

        open(server.url("/sessions?q=script"));
        assertNoScriptRan();

        open(server.url("/analytics?days=7"));
        assertNoScriptRan();
        assertEquals(List.of(MODEL), attributes("#by-model tbody tr", "data-key"));
        assertEquals(MODEL, text("#by-model tbody th"));
        assertEquals(SOURCE, text("#by-source tbody th"));
        // the chart legend names the source: as text
        assertTrue(texts("#chart-sessions .u-legend .u-label").contains(SOURCE), () -> texts("#chart-sessions .u-legend .u-label").toString());
        assertNoScriptRan();
    }
}
