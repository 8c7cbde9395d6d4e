package dev.hermes.state.bench.measure;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small number and file helpers for the result file. */
public final class Report {
    private Report() {
    }

    /** Rounds to 3 decimals (microseconds when the unit is ms) so the result file stays readable. */
    public static double round(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).doubleValue();
    }

    /** The size of a file in bytes, 0 when it does not exist (an absent -wal). */
    public static long sizeOrZero(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    public static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
