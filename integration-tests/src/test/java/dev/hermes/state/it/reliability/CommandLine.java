package dev.hermes.state.it.reliability;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real command line, {@code java -jar <hermes.cli.jar> args}, as a user runs it; HERMES_HOME
 * points into the test's folder so that nothing touches a real {@code ~/.hermes}.
 */
final class CommandLine {
    private static final long TIMEOUT_SECONDS = 180;

    record Result(List<String> args, int exitCode, String stdout, String stderr) {
        /** Exit code 1, nothing on stdout, exactly one line on stderr, "hermes-state: ...", no stack trace. */
        void assertUserError() {
            assertEquals(1, exitCode, "exit code of " + this);
            assertEquals("", stdout, "stdout of " + this);
            assertEquals(1, stderr.lines().count(), "exactly one line on stderr: " + this);
            assertTrue(stderr.startsWith("hermes-state: "), this.toString());
            assertFalse(stderr.contains("\tat ") || stderr.contains("Exception"), "no stack trace: " + this);
        }

        @Override
        public String toString() {
            return "hermes-state " + String.join(" ", args) + " → exit " + exitCode + "\n  stdout: " + stdout
                    + "\n  stderr: " + stderr;
        }
    }

    private CommandLine() {
    }

    static Result run(Path home, String... args) {
        String jar = System.getProperty("hermes.cli.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            fail("the command-line jar (system property hermes.cli.jar) must be built first: " + jar);
        }
        List<String> command = new ArrayList<>(List.of(ChildProcess.javaLauncher(), "-jar", jar));
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile(home, "stdout", ".txt");
            Path err = Files.createTempFile(home, "stderr", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().put("HERMES_HOME", home.resolve("hermes-home").toString());
            builder.environment().put("LC_ALL", "C.UTF-8");
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("timed out after " + TIMEOUT_SECONDS + " s: " + command);
            }
            Result result = new Result(List.of(args), process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
