package dev.hermes.state.core.retention;

import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.AutoMaintenanceReport;
import dev.hermes.state.core.rows.EpochSeconds;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * maybe_auto_prune_and_vacuum: the maintenance a long-lived process runs at start-up, at most once per
 * interval whichever process runs it (the last run's time is kept in {@code state_meta} as
 * {@code last_auto_prune}): prune the old ended sessions, and VACUUM when that deleted any. Each step
 * is its own transaction, as in the agent; a failure stops the run and is reported, never thrown.
 */
public final class AutoMaintenance {
    public static final String LAST_RUN_KEY = "last_auto_prune";

    /** Python's float() syntax for a finite number (underscores between digits allowed); inf and nan apart. */
    private static final Pattern PYTHON_FLOAT = Pattern.compile(
            "[+-]?(?:\\d(?:_?\\d)*(?:\\.(?:\\d(?:_?\\d)*)?)?|\\.\\d(?:_?\\d)*)(?:[eE][+-]?\\d(?:_?\\d)*)?");

    /** The steps, each one call of the store. */
    public interface Steps {
        Optional<String> lastRun();

        /** Prunes the ended sessions older than {@code retention}; returns how many. */
        int prune(Duration retention);

        void vacuum();

        void recordRun(String value);
    }

    private AutoMaintenance() {
    }

    /**
     * One run at {@code now} (epoch seconds): skipped when the last run is less than {@code minInterval}
     * ago (a negative interval never skips), as the agent compares {@code now - last < hours * 3600}
     * with the interval in seconds as the double nearest to it.
     */
    public static AutoMaintenanceReport run(Steps steps, double now, Duration retention, Duration minInterval,
                                            boolean vacuum) {
        double interval = EpochSeconds.seconds(minInterval);
        int pruned = 0;
        boolean vacuumed = false;
        try {
            Optional<String> last = steps.lastRun();
            if (last.isPresent() && !last.get().isEmpty()) {
                Double lastRun = pythonFloat(last.get());
                if (lastRun != null && now - lastRun < interval) {
                    return new AutoMaintenanceReport(true, 0, false, null);
                }
            }
            pruned = steps.prune(retention);
            if (vacuum && pruned > 0) {
                try {
                    steps.vacuum();
                    vacuumed = true;
                } catch (RuntimeException failed) {
                    // the agent logs a failed VACUUM and goes on to record the run
                }
            }
            steps.recordRun(PythonJson.dumps(now));
            return new AutoMaintenanceReport(false, pruned, vacuumed, null);
        } catch (RuntimeException failure) {
            return new AutoMaintenanceReport(false, pruned, vacuumed, String.valueOf(failure.getMessage()));
        }
    }

    /** What Python's {@code float(text)} reads, or null where it raises (a corrupt value counts as no earlier run). */
    static @Nullable Double pythonFloat(String text) {
        String number = dev.hermes.state.core.text.PythonText.strip(text);
        String lower = number.toLowerCase(java.util.Locale.ROOT);
        String unsigned = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        double sign = lower.startsWith("-") ? -1 : 1;
        if (unsigned.equals("inf") || unsigned.equals("infinity")) {
            return sign * Double.POSITIVE_INFINITY;
        }
        if (unsigned.equals("nan")) {
            return Double.NaN;
        }
        if (!PYTHON_FLOAT.matcher(number).matches()) {
            return null;
        }
        return Double.parseDouble(number.replace("_", ""));
    }
}
