package dev.hermes.state.testsupport;

import java.time.Duration;

/**
 * Whether this machine has python3, for the tests that drive a Python process (they skip, with a
 * message, without it). Probed once per test JVM.
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

    private static boolean probe(String... arguments) {
        try {
            return Command.python(arguments).run(Duration.ofSeconds(30)).exitCode() == 0;
        } catch (RuntimeException | AssertionError e) {
            return false; // not installed (cannot start) or hanging
        }
    }
}
