package dev.hermes.state.springboot;

import dev.hermes.state.testsupport.SkipPath;
import org.junit.jupiter.api.Test;

/**
 * The README's test command on a machine with a JDK and Maven only: this module's tests that use the
 * PostgreSQL server, run without one, are skipped with the reason and nothing else fails. Runs on CI
 * too, where the server is there, so the skip path cannot break unseen.
 */
class BareMachineTest {
    @Test
    void withoutAServerThePostgresqlTestsAreSkipped() {
        SkipPath.assertServerGatedTestsSkipWithoutServer(BareMachineTest.class);
    }
}
