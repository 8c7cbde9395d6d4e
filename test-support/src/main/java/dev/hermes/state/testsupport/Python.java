package dev.hermes.state.testsupport;

import java.time.Duration;

/**
 * Whether this machine has python3, for the tests that drive a Python process: without it they are
 * skipped with the reason, and fail under CI ({@link MachineRequirement}). Probed once per test JVM.
 */
public final class Python {
    private static final boolean RUNS = probe("--version");
    private static final boolean HAS_SQLITE3 = RUNS && probe("-c", "import sqlite3");

    private Python() {
    }

    /** python3 starts. */
    public static boolean runs() {
        return RUNS;
    }

    /** python3 starts and has its sqlite3 module (what the Python agent writes with). */
    public static boolean hasSqlite3() {
        return HAS_SQLITE3;
    }

    /** Skips the running test (fails it under CI) unless python3 starts. */
    public static void require() {
        MachineRequirement.require(RUNS, "python3 is not installed");
    }

    /** Skips the running test (fails it under CI) unless python3 with its sqlite3 module is there. */
    public static void requireSqlite3() {
        MachineRequirement.require(HAS_SQLITE3, "python3 with its sqlite3 module is not installed");
    }

    private static boolean probe(String... arguments) {
        try {
            return Command.python(arguments).run(Duration.ofSeconds(30)).exitCode() == 0;
        } catch (RuntimeException | AssertionError e) {
            return false; // not installed (cannot start) or hanging
        }
    }
}
