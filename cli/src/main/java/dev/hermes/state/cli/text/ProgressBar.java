package dev.hermes.state.cli.text;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A one-line progress indicator on stderr for long work: a bar when the total is known
 * ({@code export  [########------]  57%  1,234/2,150  3.2 s}), a spinner with the elapsed time when
 * it is not (a prune or a migration is one call). It appears only when stderr is a terminal and the
 * work has lasted {@value #DELAY_MILLIS} ms, redraws at most every {@value #REDRAW_MILLIS} ms, and
 * erases itself when closed, so piped output and short runs never see it.
 */
public final class ProgressBar implements AutoCloseable {
    static final long DELAY_MILLIS = 300;
    static final long REDRAW_MILLIS = 100;
    private static final int BAR_CELLS = 24;
    private static final String SPINNER = "|/-\\";

    private final @Nullable PrintStream err;
    private final String label;
    private final long total;
    private final long startNanos = System.nanoTime();
    private final @Nullable ScheduledExecutorService ticker;
    private long done;
    private long lastDrawNanos;
    private boolean drawn;
    private boolean closed;

    @SuppressWarnings("FutureReturnValueIgnored") // the ticker stops when close() shuts its executor down
    private ProgressBar(@Nullable PrintStream err, String label, long total, boolean spinner) {
        this.err = err;
        this.label = label;
        this.total = total;
        if (spinner) {
            ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "hermes-state-progress");
                thread.setDaemon(true);
                return thread;
            });
            ticker.scheduleAtFixedRate(this::tick, DELAY_MILLIS, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            ticker = null;
        }
    }

    /** A bar for {@code total} units on {@code err}, or a no-op when {@code enabled} is false. */
    public static ProgressBar counting(PrintStream err, boolean enabled, String label, long total) {
        return new ProgressBar(enabled ? err : null, label, Math.max(total, 0), false);
    }

    /** A spinner with the elapsed time for work of unknown length, or a no-op when disabled. */
    public static ProgressBar spinning(PrintStream err, boolean enabled, String label) {
        return enabled ? new ProgressBar(err, label, -1, true) : new ProgressBar(null, label, -1, false);
    }

    /** {@code n} more units done. */
    public synchronized void advance(long n) {
        done += n;
        long now = System.nanoTime();
        if (err != null && now - startNanos >= DELAY_MILLIS * 1_000_000 && now - lastDrawNanos >= REDRAW_MILLIS * 1_000_000) {
            draw(now);
        }
    }

    private synchronized void tick() {
        if (!closed) {
            draw(System.nanoTime());
        }
    }

    private void draw(long now) {
        if (err == null) {
            return;
        }
        lastDrawNanos = now;
        drawn = true;
        err.print("\r" + render(label, done, total, Duration.ofNanos(now - startNanos)) + "\u001B[K");
        err.flush();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ticker != null) {
            ticker.shutdownNow();
        }
        if (drawn && err != null) {
            err.print("\r\u001B[K");
            err.flush();
        }
    }

    /** The line drawn for a state: a bar when {@code total >= 0}, else a spinner frame. */
    static String render(String label, long done, long total, Duration elapsed) {
        String time = Times.duration(elapsed);
        if (total < 0) {
            char frame = SPINNER.charAt((int) ((elapsed.toMillis() / REDRAW_MILLIS) % SPINNER.length()));
            return label + "  " + frame + "  " + time;
        }
        double fraction = total == 0 ? 1 : Math.min(1.0, done / (double) total);
        int filled = (int) Math.round(fraction * BAR_CELLS);
        return String.format(Locale.ROOT, "%s  [%s%s]  %3d%%  %,d/%,d  %s", label, "#".repeat(filled),
                "-".repeat(BAR_CELLS - filled), Math.round(fraction * 100), done, total, time);
    }
}
