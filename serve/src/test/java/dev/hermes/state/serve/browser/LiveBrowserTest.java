package dev.hermes.state.serve.browser;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages see what the agent writes while it runs: another process's writes (here another repository
 * on the same file, as the agent is) appear on an open Session page and on the Sessions page within
 * their 5-second refresh, without a reload; the server holds no lock between the pages' requests, so
 * the writer is never blocked.
 */
@ExtendWith(Chromium.class)
class LiveBrowserTest extends BrowserPages {
    @TempDir
    Path dir;

    @Test
    void writesOfTheRunningAgentAppearWithoutAReload() {
        Path file = dir.resolve("live.db");
        try (StateRepository agent = StateRepository.builder().path(file).build()) {
            agent.createSession(NewSession.builder("live_1", "cli").model("openai/gpt-5.4").build());
            agent.appendMessage("live_1", NewMessage.of("user", "Start the build"));
            try (PageServer server = PageServer.serve(StateRepository.builder().path(file).readOnly(true).build(),
                    Instant.now())) {
                open(server.url("/sessions/live_1"));
                assertEquals(List.of("user"), attributes("#conversation > .message", "data-role"));
                assertEquals("live", text("#session-title .badge.live"));
                long answer = agent.appendMessage("live_1", NewMessage.of("assistant", "Build **started**."));
                new WebDriverWait(driver, Duration.ofSeconds(12)).until(d -> !d.findElements(By.id("message-" + answer)).isEmpty());
                assertEquals("Build started.", text("#message-" + answer + " .content"));
                assertEquals("2", text("[data-fact='messages']"));
                assertTrue(location().endsWith("/sessions/live_1"), location()); // the same document: no reload
                assertEquals("all", driver.findElement(By.id("conversation")).getAttribute("data-rendered"));

                open(server.url("/sessions"));
                assertEquals(List.of("live_1"), listedIds());
                agent.createSession(NewSession.builder("live_2", "telegram").build());
                agent.appendMessage("live_2", NewMessage.of("user", "A new chat"));
                new WebDriverWait(driver, Duration.ofSeconds(12)).until(d -> listedIds().size() == 2);
                assertEquals(List.of("live_2", "live_1"), listedIds());
                assertEquals("2 sessions", text("#sessions-summary"));
            }
        }
    }
}
