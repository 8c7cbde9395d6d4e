package dev.hermes.state.it.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A separate process (a JVM running a main class of this test run, python3, the command line) whose
 * stdout is collected line by line while it runs. Only complete lines count: a process killed in
 * the middle of writing a line leaves a fragment without its newline, which is dropped, so a
 * half-written report can never be mistaken for a whole one.
 */
final class ChildProcess {
    private final List<String> command;
    private final Process process;
    private final List<String> lines = new ArrayList<>();   // guarded by this
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread outReader;
    private final Thread errReader;

    private ChildProcess(List<String> command, Process process) {
        this.command = command;
        this.process = process;
        this.outReader = daemon("stdout of " + command.get(command.size() - 1), () -> readLines(process.getInputStream()));
        this.errReader = daemon("stderr", () -> copy(process.getErrorStream()));
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
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            Process process = builder.start();
            process.getOutputStream().close();
            return new ChildProcess(List.copyOf(command), process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    static String javaLauncher() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The complete lines printed so far. */
    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Waits until the process has printed at least {@code count} complete lines; false if it ended or the time ran out first. */
    synchronized boolean awaitLines(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || (!process.isAlive() && !outReader.isAlive())) {
                return lines.size() >= count;
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        return true;
    }

    /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux), then collects what it printed before dying. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the process did not die after SIGKILL: " + command);
        }
        outReader.join();
        errReader.join();
    }

    /** Waits for a normal end; returns the exit code. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not end within " + timeout + ": " + command + "\nstderr: " + stderr());
        }
        outReader.join();
        errReader.join();
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    /** Everything printed, for failure messages. */
    String transcript() {
        List<String> out = lines();
        List<String> tail = out.subList(Math.max(0, out.size() - 20), out.size());
        return String.join(" ", command.subList(Math.max(0, command.size() - 4), command.size()))
                + "\n  last stdout lines: " + tail + "\n  stderr: " + stderr();
    }

    private void readLines(InputStream in) {
        try (in) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        addLine(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(buffer[i]);
                    }
                }
            }
            // a fragment without its newline was cut by a kill: not a report
        } catch (IOException e) {
            addLine("!! stdout read failed: " + e);
        }
    }

    private synchronized void addLine(String line) {
        lines.add(line);
        notifyAll();
    }

    private void copy(InputStream in) {
        try (in) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                synchronized (stderr) {
                    stderr.write(buffer, 0, n);
                }
            }
        } catch (IOException ignored) {
            // the process died: what was read so far is all there is
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
