package dev.hermes.state.it.reliability;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A separate process (a JVM running a main class of this test run, python3, ...) whose stdout and
 * stderr go to files, so that everything it wrote before it died is kept, SIGKILL or not (a pipe
 * read while the JDK reaps a killed process can lose its tail). Only complete lines count: a process
 * killed in the middle of writing a line leaves a fragment without its newline, which is dropped, so
 * a half-written report can never be mistaken for a whole one.
 */
final class ChildProcess {
    private static final long POLL_MILLIS = 20;

    private final List<String> command;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildProcess(List<String> command, Process process, Path stdout, Path stderr) {
        this.command = command;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** {@code java [jvmOptions] -cp <this test run's class path> mainClass args}. */
    static ChildProcess java(Class<?> mainClass, List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(javaLauncher());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return start(command, Map.of());
    }

    static ChildProcess start(List<String> command, Map<String, String> environment) {
        try {
            Path stdout = Files.createTempFile("child", ".stdout");
            Path stderr = Files.createTempFile("child", ".stderr");
            stdout.toFile().deleteOnExit();
            stderr.toFile().deleteOnExit();
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(environment);
            return new ChildProcess(List.copyOf(command), builder.start(), stdout, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    static String javaLauncher() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The complete lines written so far. */
    List<String> lines() {
        String text = read(stdout);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : text.substring(0, end).lines().toList();
    }

    /** Waits until the process has written at least {@code count} complete lines; false if it ended or the time ran out first. */
    boolean awaitLines(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines().size() < count) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                return lines().size() >= count;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux), and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the process did not die after SIGKILL: " + command);
        }
    }

    /** Waits for a normal end; returns the exit code. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not end within " + timeout + ": " + transcript());
        }
        return process.exitValue();
    }

    String stderr() {
        return read(stderr);
    }

    /** The command's tail, its last lines and stderr, for failure messages. */
    String transcript() {
        List<String> out = lines();
        List<String> tail = out.subList(Math.max(0, out.size() - 20), out.size());
        return String.join(" ", command.subList(Math.max(0, command.size() - 4), command.size()))
                + "\n  last stdout lines: " + tail + "\n  stderr: " + stderr();
    }

    private static String read(Path file) {
        try {
            // not Files.readString: a process killed mid-character leaves a malformed tail, which must not throw
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
