package dev.hermes.state.serve;

import dev.hermes.state.testsupport.SkipPath;
import org.junit.jupiter.api.Test;

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
        SkipPath.assertServerGatedTestsSkipWithoutServer(BareMachineTest.class);
    }
}
