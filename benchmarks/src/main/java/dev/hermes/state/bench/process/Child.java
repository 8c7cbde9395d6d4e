package dev.hermes.state.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A child process whose stdout lines are read by a daemon thread and time-stamped on arrival
 * ({@link System#nanoTime()}), so the parent can wait for several children at once and still know
 * when each line came. Stderr goes to a file, shown when something fails.
 */
public final class Child implements AutoCloseable {
    /** A line of the child's stdout and when the parent received it, or the end of its output (text empty). */
    public record Line(String text, long receivedNanos, boolean endOfOutput) {
    }

    private final Process process;
    private final long spawnNanos;
    private final Path stderrFile;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Writer stdin;

    private Child(Process process, long spawnNanos, Path stderrFile) {
        this.process = process;
        this.spawnNanos = spawnNanos;
        this.stderrFile = stderrFile;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readStdout, "child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code command}; the spawn time is read immediately before the start. A PostgreSQL URL's
     * password never reaches the child's command line ({@link ChildLogin}).
     */
    public static Child start(List<String> command, Path stderrFile) throws IOException {
        ProcessBuilder builder = new ProcessBuilder()
                .redirectError(ProcessBuilder.Redirect.to(stderrFile.toFile()));
        builder.command(ChildLogin.withoutPasswords(command, builder.environment()));
        long spawn = System.nanoTime();
        return new Child(builder.start(), spawn, stderrFile);
    }

    public long spawnNanos() {
        return spawnNanos;
    }

    /** The next stdout line, or the end-of-output line; fails after {@code timeout}. */
    public Line nextLine(Duration timeout) throws InterruptedException {
        Line line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new IllegalStateException("child " + process.pid() + " said nothing for " + timeout + stderrTail());
        }
        return line;
    }

    /** Waits for the next line that starts with {@code prefix}, skipping others; fails at end of output. */
    public Line awaitLine(String prefix, Duration timeout) throws InterruptedException {
        while (true) {
            Line line = nextLine(timeout);
            if (line.endOfOutput()) {
                throw new IllegalStateException("child " + process.pid() + " ended without printing " + prefix.trim()
                        + exitDescription() + stderrTail());
            }
            if (line.text().startsWith(prefix)) {
                return line;
            }
        }
    }

    public void send(String line) throws IOException {
        stdin.write(line);
        stdin.write('\n');
        stdin.flush();
    }

    /** Waits for the exit; returns the exit code. Fails (killing the child) after {@code timeout}. */
    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("child " + process.pid() + " did not exit within " + timeout + stderrTail());
        }
        return process.exitValue();
    }

    /** The last lines of the child's stderr, for error messages. */
    public String stderrTail() {
        try {
            List<String> all = Files.readAllLines(stderrFile);
            if (all.isEmpty()) {
                return "";
            }
            return "; its stderr ends with:\n  " + String.join("\n  ", all.subList(Math.max(0, all.size() - 15), all.size()));
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private String exitDescription() {
        try {
            if (process.waitFor(5, TimeUnit.SECONDS)) {
                return " (exit code " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    private void readStdout() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String text;
            while ((text = reader.readLine()) != null) {
                lines.add(new Line(text, System.nanoTime(), false));
            }
        } catch (IOException ignored) {
            // the process died: the end-of-output line below tells the waiting parent
        }
        lines.add(new Line("", System.nanoTime(), true));
    }
}
