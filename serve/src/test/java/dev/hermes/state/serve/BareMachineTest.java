package dev.hermes.state.serve;

import dev.hermes.state.testsupport.SkipPath;
import dev.hermes.state.testsupport.SkipPath.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's test command on a machine with a JDK and Maven only: this module's PostgreSQL tests,
 * run without a server, are skipped with the reason and nothing else fails. Runs on CI too, where the
 * server is there, so the skip path cannot break unseen.
 */
class BareMachineTest {
    @Test
    void withoutAServerThePostgresqlTestsAreSkipped() {
        assertTrue(SkipPath.serverGatedClasses(BareMachineTest.class).contains(PostgresServeTest.class));
        assertTrue(SkipPath.serverGatedClasses(BareMachineTest.class).stream().map(Class::getName)
                .anyMatch("dev.hermes.state.serve.browser.PostgresPagesBrowserTest"::equals));
        SkipPath.assertServerGatedTestsSkipWithoutServer(BareMachineTest.class);
    }

    /** The browser tests without chromium and chromedriver (the bare machine's PATH has only the JDK's programs). */
    @Test
    void withoutChromiumTheBrowserTestsAreSkipped() {
        List<String> classes = List.of("FixturePagesV17BrowserTest", "FixturePagesV6BrowserTest", "XssBrowserTest",
                "LiveBrowserTest", "LongSessionBrowserTest").stream().map(name -> "dev.hermes.state.serve.browser." + name).toList();
        List<Outcome> outcomes = SkipPath.runOnBareMachine(classes);
        List<Outcome> skipped = SkipPath.assertSkippedOnlyFor(outcomes, "chromium is not installed");
        assertEquals(classes.size(), skipped.size(), skipped::toString); // each class, before its set-up
        assertTrue(outcomes.stream().noneMatch(o -> o.test() && !o.skipped()), outcomes::toString);
    }
}
