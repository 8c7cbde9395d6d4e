package dev.hermes.state.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.jspecify.annotations.Nullable;

/**
 * What a test needs of the machine beyond a JDK and Maven (a PostgreSQL server, python3, inotify, a way
 * to drop root's privileges), decided the same way everywhere: present, the test runs; missing on a
 * developer's machine, the test is skipped with the reason and how to get it; missing under
 * {@code CI=true}, the test fails, because CI never passes without having run it.
 */
public final class MachineRequirement {
    private MachineRequirement() {
    }

    /** Whether this run is CI's ({@code CI=true}), where nothing may be skipped for a missing requirement. */
    public static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Returns when {@code met}; otherwise skips the running test (fails it under CI). Call it before the
     * test makes anything that its clean-up would have to undo.
     *
     * @param missing what is missing, e.g. "python3 with sqlite3 is not installed"
     */
    public static void require(boolean met, @Nullable String missing) {
        if (met) {
            return;
        }
        if (onCi()) {
            Assertions.fail("CI=true but this test cannot run: " + missing + " (not skipped on CI)");
        }
        Assumptions.abort("skipped: " + missing);
    }

    /**
     * The same decision as a JUnit condition, for an extension that skips a test before any of its
     * set-up runs: disabled with the reason when missing off CI; enabled otherwise (on CI the test then
     * fails in its set-up, through {@link #require}).
     */
    public static ConditionEvaluationResult condition(@Nullable String missing) {
        if (missing == null) {
            return ConditionEvaluationResult.enabled("available");
        }
        if (onCi()) {
            return ConditionEvaluationResult.enabled("CI=true: run, so that the missing requirement fails it");
        }
        return ConditionEvaluationResult.disabled("skipped: " + missing);
    }
}
