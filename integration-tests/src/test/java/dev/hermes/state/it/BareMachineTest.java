package dev.hermes.state.it;

import dev.hermes.state.testsupport.SkipPath;
import dev.hermes.state.testsupport.SkipPath.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's test command on a machine with a JDK and Maven only (no PostgreSQL, no python3): the
 * tests that need what is missing are skipped with the reason, and nothing else fails. Runs on CI too,
 * where everything is there, so the skip path cannot break unseen.
 */
class BareMachineTest {
    @Test
    void withoutAServerThePostgresqlTestsAreSkipped() {
        SkipPath.assertServerGatedTestsSkipWithoutServer(BareMachineTest.class);
    }

    /** The classes whose every test needs python3 (in the others, a Python case sits among cases that run). */
    @Test
    void withoutPythonThePythonAgentTestsAreSkipped() {
        List<Outcome> outcomes = SkipPath.runOnBareMachine(List.of("dev.hermes.state.it.reliability.KilledPythonWriterTest",
                "dev.hermes.state.it.migrations.PythonAgentAcceptanceTest", "dev.hermes.state.it.cli.CliPythonRpcTest",
                "dev.hermes.state.it.reliability.BackupWhileWritingTest"));
        List<Outcome> skipped = SkipPath.assertSkippedOnlyFor(outcomes, "python3");
        assertTrue(outcomes.stream().filter(Outcome::test).allMatch(Outcome::skipped), outcomes::toString);
        assertTrue(skipped.size() >= 4, skipped::toString);
    }
}
