package dev.hermes.state.core;

import dev.hermes.state.testsupport.SkipPath;
import dev.hermes.state.testsupport.SkipPath.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's test command on a machine with a JDK and Maven only: every test class of this module
 * that uses the PostgreSQL server, run without one, skips exactly its PostgreSQL tests (with the
 * reason) and runs the rest. Runs on CI too, where the server is there: the skip path cannot break unseen.
 */
class BareMachineTest {
    @Test
    void withoutAServerOnlyThePostgresqlTestsAreSkipped() {
        List<Class<?>> gated = SkipPath.serverGatedClasses(BareMachineTest.class);
        assertTrue(gated.contains(SearchContractTest.class) && gated.contains(PostgresOpeningTest.class)
                && gated.contains(dev.hermes.state.core.maintenance.PostgresDoctorTest.class), gated::toString);
        List<Outcome> outcomes = SkipPath.assertServerGatedTestsSkipWithoutServer(BareMachineTest.class);

        // the contract suite: each class runs once per engine; on SQLite every test runs and passes,
        // on the PostgreSQL engines every test is skipped
        Map<String, String> engineOfInvocation = outcomes.stream()
                .filter(o -> !o.test() && o.uniqueId().matches(".*/\\[class-template-invocation:#\\d+]"))
                .collect(Collectors.toMap(Outcome::uniqueId, Outcome::displayName));
        assertEquals(3 * (int) gated.stream().filter(FreshStoreTest.class::isAssignableFrom).count(), engineOfInvocation.size(),
                engineOfInvocation::toString);
        long sqliteTests = 0;
        for (Outcome test : outcomes.stream().filter(Outcome::test).toList()) {
            String invocation = engineOfInvocation.keySet().stream().filter(test.uniqueId()::startsWith).findFirst().orElse(null);
            if (invocation == null) {
                assertTrue(test.skipped(), () -> "a PostgreSQL-only test ran without a server: " + test);
            } else if (engineOfInvocation.get(invocation).equals(FreshStoreTest.Engine.SQLITE.name())) {
                assertEquals("SUCCESSFUL", test.status(), test::toString);
                sqliteTests++;
            } else {
                assertTrue(test.skipped(), () -> "a PostgreSQL engine's test ran without a server: " + test);
            }
        }
        assertTrue(sqliteTests > 100, "the contract suite's SQLite half ran: " + sqliteTests);
    }
}
