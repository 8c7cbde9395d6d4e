package dev.hermes.state.testsupport;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a child process ended: its exit code and everything it wrote (UTF-8). */
public record ProcessResult(String command, int exitCode, String stdout, String stderr) {
    public List<String> lines() {
        return stdout.lines().toList();
    }

    public List<String> errLines() {
        return stderr.lines().toList();
    }

    /** Exit code 0 and nothing on stderr; returns this result. */
    public ProcessResult ok() {
        assertEquals(0, exitCode, () -> "exit code of " + this);
        assertEquals("", stderr, () -> "stderr of " + this);
        return this;
    }

    /**
     * A user error as the project's commands report one: exit code 1, nothing on stdout, exactly one
     * line on stderr starting with {@code program + ": "}, no stack trace. Returns that line.
     */
    public String userError(String program) {
        assertEquals(1, exitCode, () -> "exit code of " + this);
        assertEquals("", stdout, () -> "stdout of " + this);
        assertEquals(1, errLines().size(), () -> "exactly one line on stderr: " + this);
        assertTrue(stderr.startsWith(program + ": "), () -> "stderr starts with '" + program + ": ': " + this);
        assertFalse(stderr.contains("\tat ") || stderr.contains("Exception"), () -> "no stack trace, no exception name: " + this);
        return errLines().get(0);
    }

    @Override
    public String toString() {
        return command + "\n  exit " + exitCode + "\n  stdout: " + stdout + "\n  stderr: " + stderr;
    }
}
