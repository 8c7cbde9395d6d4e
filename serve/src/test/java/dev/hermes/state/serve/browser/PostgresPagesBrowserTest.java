package dev.hermes.state.serve.browser;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.testsupport.Fixtures;
import dev.hermes.state.testsupport.PostgresTestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The pages on a PostgreSQL store: state-v17.db copied into a schema of its own with the repository's
 * copy (as {@code hermes-state copy} does), served read-only; the pages show what they show on the file.
 */
class PostgresPagesBrowserTest extends BrowserPages {
    @RegisterExtension
    final PostgresTestSchema postgres = new PostgresTestSchema();

    @TempDir
    Path dir;

    @Test
    void thePagesShowTheSameStoreOnPostgresql() {
        Path file = Fixtures.copy("state-v17.db", dir);
        try (StateRepository source = StateRepository.builder().path(file).readOnly(true).build();
             StateRepository target = StateRepository.builder().url(postgres.url()).schema(postgres.schema()).build()) {
            source.copyTo(target, CopyOptions.intoEmpty(), null);
        }
        try (PageServer server = PageServer.serve(StateRepository.builder().url(postgres.url()).schema(postgres.schema())
                .readOnly(true).build(), FixturePagesV17BrowserTest.NOW)) {
            open(server.url("/sessions"));
            assertEquals("36 sessions", text("#sessions-summary"));
            assertEquals(FixturePagesV17BrowserTest.LISTED.subList(0, 20), listedIds());
            assertEquals(12, driver.findElements(By.cssSelector("#sessions-table tr.live")).size());
            clickAndWait(driver.findElement(By.id("page-next")));
            assertEquals(FixturePagesV17BrowserTest.LISTED.subList(20, 36), listedIds());
            choose("#filter-source", "telegram");
            assertEquals(8, listedIds().size());

            open(server.url("/sessions/20260401_091500_e4c1b2"));
            assertEquals(4, driver.findElements(By.cssSelector("#conversation > .message:not([hidden])")).size());
            driver.findElement(By.id("show-inactive")).click();
            assertEquals(6, driver.findElements(By.cssSelector("#conversation > .message:not([hidden])")).size());

            open(server.url("/search?q=nebula"));
            assertEquals(List.of("135", "136", "138"), attributes("#search-hits .hit", "data-message-id").stream().sorted().toList());
            clickAndWait(driver.findElement(By.cssSelector("#search-hits .hit[data-message-id='135'] a.hit-title")));
            assertEquals("yes", driver.findElement(By.id("message-135")).getAttribute("data-scrolled-to"));

            open(server.url("/analytics?days=7"));
            assertEquals("43", text("[data-total='sessions'] .card-value"));
            assertEquals("94,593", text("[data-total='input'] .card-value"));
            assertEquals("$0.6521", text("[data-total='estimated_cost'] .card-value"));
            assertEquals(List.of(4L, 4L, 3L), charts().stream().map(c -> ((Number) c.get("series")).longValue()).toList());
        }
    }
}
