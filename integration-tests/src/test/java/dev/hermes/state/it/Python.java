package dev.hermes.state.it;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Whether this machine has python3, for the tests that drive a Python process (they skip without it). */
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
        String[] command = new String[arguments.length + 1];
        command[0] = "python3";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
