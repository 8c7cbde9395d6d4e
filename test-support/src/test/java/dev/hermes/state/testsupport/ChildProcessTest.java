package dev.hermes.state.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** The one child-process runner of the tests, on real child JVMs. */
class ChildProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void runGivesTheInputAndCapturesStdoutStderrAndTheExitCode() {
        ProcessResult result = Command.java(EchoChild.class, "3").withStdin("a\nb ü\n").run();
        assertEquals(3, result.exitCode(), result.toString());
        assertEquals("got a\ngot b ü\n", result.stdout());
        assertEquals(List.of("got a", "got b ü"), result.lines());
        assertEquals("done\n", result.stderr());
    }

    @Test
    void withoutInputARunChildSeesEndOfInputAtOnce() {
        ProcessResult result = Command.java(EchoChild.class, "0").run();
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stdout());
        assertEquals("done\n", result.stderr());
    }

    @Test
    void theEnvironmentAndTheWorkingFolderAreTheCommands() throws Exception {
        ProcessResult result = Command.java(EnvironmentChild.class, "HERMES_TEST_VALUE", "HOME")
                .withEnv("HERMES_TEST_VALUE", "set by the test").withoutEnv("HOME").withDirectory(dir).run().ok();
        assertEquals(List.of("set by the test", "null", dir.toRealPath().toString()), result.lines());
    }

    @Test
    void aStartedChildReadsWhatTheTestSendsLineByLine() {
        try (ChildProcess child = Command.java(EchoChild.class, "0").start()) {
            child.send("one");
            assertEquals("got one", child.nextLine(WAIT));
            child.send("two");
            assertEquals("got two", child.nextLine(WAIT));
            assertTrue(child.isAlive(), "still reading its input");
            child.closeStdin();
            ProcessResult result = child.finish(WAIT);
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals("done\n", result.stderr());
            assertNull(child.nextLine(WAIT), "end of output");
        }
    }

    @Test
    void aKilledChildKeepsItsCompleteLinesOnly() {
        try (ChildProcess child = Command.java(SleeperChild.class).start()) {
            assertTrue(child.awaitLines(1, WAIT), child.transcript());
            child.kill();
            assertFalse(child.isAlive());
            assertEquals(List.of("started"), child.lines(), "the unfinished line is not a line");
            assertEquals("started\nhalf a li", child.stdout());
        }
    }

    @Test
    void aChildPastItsTimeoutIsKilledAndTheTestFails() {
        AssertionError error = assertThrows(AssertionError.class,
                () -> Command.java(SleeperChild.class).run(Duration.ofSeconds(3)));
        assertTrue(error.getMessage().contains("did not end within PT3S, killed"), error.getMessage());
        assertTrue(error.getMessage().contains("last stdout lines: [started]"), error.getMessage());
    }

    @Test
    void aProgramThatCannotStartIsReportedWithItsCommand() {
        RuntimeException error = assertThrows(RuntimeException.class, () -> Command.of("no-such-program-hermes").run());
        assertTrue(error.getMessage().startsWith("cannot start no-such-program-hermes"), error.getMessage());
    }

    @Test
    void theClassPathIsShortenedInMessages() {
        assertEquals(Command.javaLauncher() + " -Xmx64m -cp <test class path> " + EchoChild.class.getName() + " 0",
                Command.java(List.of("-Xmx64m"), EchoChild.class, "0").toString());
    }

    @Test
    void okAndUserErrorCheckTheProjectsExitConventions() {
        ProcessResult refused = new ProcessResult("tool x", 1, "", "tool: no such file\n");
        assertEquals("tool: no such file", refused.userError("tool"));
        assertThrows(AssertionFailedError.class, refused::ok);
        assertThrows(AssertionFailedError.class, () -> refused.userError("other"));
        ProcessResult traced = new ProcessResult("tool x", 1, "", "tool: java.lang.IllegalStateException\n");
        assertThrows(AssertionFailedError.class, () -> traced.userError("tool"));
        ProcessResult fine = new ProcessResult("tool x", 0, "out\n", "");
        assertEquals(fine, fine.ok());
        assertThrows(AssertionFailedError.class, () -> fine.userError("tool"));
    }

    // the programs these tests start in child JVMs

    /** Answers every stdin line with "got LINE", then "done" on stderr at end of input; exits with code args[0]. */
    static final class EchoChild {
        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                System.out.println("got " + line);
                System.out.flush();
            }
            System.err.println("done");
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** Prints the variables named in args (or "null") and the working folder. */
    static final class EnvironmentChild {
        public static void main(String[] args) {
            for (String name : args) {
                System.out.println(System.getenv(name));
            }
            System.out.println(System.getProperty("user.dir"));
        }
    }

    /** Prints "started" and a line without its newline, then sleeps for a minute. */
    static final class SleeperChild {
        public static void main(String[] args) throws Exception {
            System.out.print("started\nhalf a li");
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
