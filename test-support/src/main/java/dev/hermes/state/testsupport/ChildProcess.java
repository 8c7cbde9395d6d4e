package dev.hermes.state.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A running {@link Command}. Its stdout and stderr go to files, not pipes: everything it wrote
 * before it died is kept, SIGKILL or not (a pipe read while the JDK reaps a killed process can lose
 * its tail), and a child that writes a lot never blocks on a full pipe. Only complete lines count:
 * a child killed in the middle of a line leaves a fragment without its newline, which is dropped,
 * so a half-written report is never mistaken for a whole one. Unless the command has fixed
 * {@linkplain Command#withStdin input}, its stdin is a pipe the test writes with {@link #send}.
 * Close it (try-with-resources): a child still running then is killed, and the files deleted.
 */
public final class ChildProcess implements AutoCloseable {
    /** How long {@link Command#run()} waits for a child. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);
    private static final long POLL_MILLIS = 5;

    private final String command;
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final @Nullable Path stdinFile;
    private @Nullable Writer stdin;
    private int linesRead;

    private ChildProcess(String command, Process process, Path stdout, Path stderr, @Nullable Path stdinFile) {
        this.command = command;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.stdinFile = stdinFile;
        this.stdin = stdinFile == null ? new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8) : null;
    }

    static ChildProcess start(Command command) {
        Path stdout = null;
        Path stderr = null;
        Path stdinFile = null;
        try {
            stdout = Files.createTempFile("child", ".stdout");
            stderr = Files.createTempFile("child", ".stderr");
            ProcessBuilder builder = new ProcessBuilder(command.argv())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
            if (command.stdin() != null) {
                stdinFile = Files.writeString(Files.createTempFile("child", ".stdin"), command.stdin(), StandardCharsets.UTF_8);
                builder.redirectInput(stdinFile.toFile());
            }
            if (command.directory() != null) {
                builder.directory(command.directory().toFile());
            }
            Map<String, String> environment = builder.environment();
            command.environment().forEach((name, value) -> {
                if (value == null) {
                    environment.remove(name);
                } else {
                    environment.put(name, value);
                }
            });
            return new ChildProcess(command.toString(), builder.start(), stdout, stderr, stdinFile);
        } catch (IOException e) {
            deleteQuietly(stdout, stderr, stdinFile);
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** Writes {@code line} and a newline to the child's stdin (UTF-8) and flushes it. */
    public void send(String line) {
        if (stdin == null) {
            throw new IllegalStateException("stdin of " + command + " is closed or was given as fixed input");
        }
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + command + "\n" + transcript(), e);
        }
    }

    /** End of input for the child. */
    public void closeStdin() {
        if (stdin != null) {
            try {
                stdin.close();
            } catch (IOException e) {
                // the child has already gone: nothing left to tell it
            }
            stdin = null;
        }
    }

    /** The complete lines on stdout so far. */
    public List<String> lines() {
        String text = stdout();
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : text.substring(0, end).lines().toList();
    }

    /** Waits until the child has written at least {@code count} complete lines; false if it ended or the time ran out first. */
    public boolean awaitLines(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines().size() < count) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                return lines().size() >= count;
            }
            pause();
        }
        return true;
    }

    /**
     * The next complete stdout line this method has not returned yet, waiting for it; null when the
     * child ended without writing one (end of output). An AssertionError when the time runs out.
     */
    public @Nullable String nextLine(Duration timeout) {
        if (!awaitLines(linesRead + 1, timeout)) {
            if (process.isAlive()) {
                throw new AssertionError("no line " + (linesRead + 1) + " within " + timeout + ": " + transcript());
            }
            return null;
        }
        return lines().get(linesRead++);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM (what {@link Process#destroy()} sends on Linux, and what Ctrl-C's SIGINT does to a JVM): the child's shutdown hooks run. */
    public void terminate() {
        process.destroy();
    }

    /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux) to the child and its own children; waits until it is gone. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the process did not die after SIGKILL: " + command);
            }
        } catch (InterruptedException e) {
            throw interrupted(e);
        }
    }

    /**
     * Waits for the child to end by itself (its stdin stays as it is: {@link #closeStdin} first for a
     * child that reads to the end of its input); returns the exit code. Killed, and an
     * AssertionError, after {@code timeout}.
     */
    public int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
                throw new AssertionError("did not end within " + timeout + ", killed: " + transcript());
            }
        } catch (InterruptedException e) {
            kill();
            throw interrupted(e);
        }
        return process.exitValue();
    }

    /** {@link #waitFor}, then everything the child wrote. */
    public ProcessResult finish(Duration timeout) {
        int exitCode = waitFor(timeout);
        return new ProcessResult(command, exitCode, stdout(), stderr());
    }

    /** Everything on stdout so far, the last line possibly incomplete. */
    public String stdout() {
        return read(stdout);
    }

    public String stderr() {
        return read(stderr);
    }

    /** The command, its last stdout lines and its stderr, for failure messages. */
    public String transcript() {
        List<String> out = lines();
        List<String> tail = out.subList(Math.max(0, out.size() - 20), out.size());
        return command + "\n  last stdout lines: " + tail + "\n  stderr: " + stderr();
    }

    /** Kills the child if it still runs, and deletes its output files. */
    @Override
    public void close() {
        closeStdin();
        if (process.isAlive()) {
            kill();
        }
        deleteQuietly(stdout, stderr, stdinFile);
    }

    private static String read(Path file) {
        try {
            // not Files.readString: a child killed mid-character leaves a malformed tail, which must not throw
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            throw interrupted(e);
        }
    }

    private static AssertionError interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new AssertionError("interrupted while waiting for a child process", e);
    }

    private static void deleteQuietly(@Nullable Path... files) {
        for (Path file : files) {
            if (file != null) {
                new File(file.toString()).delete();
            }
        }
    }
}
