package dev.hermes.state.cli.text;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * Readable times for people: relative to a fixed "now" ({@code 3 hours ago}) and absolute in a time
 * zone ({@code 2026-03-10 09:00}). "Now" is fixed at construction so that every row of one output
 * is relative to the same instant.
 */
public final class Times {
    private static final DateTimeFormatter ABSOLUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Instant now;
    private final ZoneId zone;

    public Times(Instant now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** The system clock and time zone. */
    public static Times system() {
        return new Times(Instant.now(), ZoneId.systemDefault());
    }

    /** {@code just now}, {@code 5 min ago}, {@code yesterday}, {@code 3 months ago}, {@code in 2 hours}; "" for null. */
    public String relative(Instant time) {
        if (time == null) {
            return "";
        }
        long seconds = Duration.between(time, now).toSeconds();
        boolean future = seconds < 0;
        long s = Math.abs(seconds);
        if (s < 45) {
            return "just now";
        }
        String amount;
        if (s < 90) {
            amount = "1 min";
        } else if (s < 45 * 60) {
            amount = Math.round(s / 60.0) + " min";
        } else if (s < 90 * 60) {
            amount = "1 hour";
        } else if (s < 22 * 3600) {
            amount = Math.round(s / 3600.0) + " hours";
        } else if (s < 36 * 3600) {
            return future ? "tomorrow" : "yesterday";
        } else if (s < 26 * 86400) {
            amount = Math.max(2, Math.round(s / 86400.0)) + " days";
        } else if (s < 45 * 86400) {
            amount = "1 month";
        } else if (s < 320 * 86400) {
            amount = Math.max(2, Math.round(s / (30.44 * 86400))) + " months";
        } else if (s < 548 * 86400) {
            amount = "1 year";
        } else {
            amount = Math.max(2, Math.round(s / (365.25 * 86400))) + " years";
        }
        return future ? "in " + amount : amount + " ago";
    }

    /** {@code 2026-03-10 09:00} in this zone; "" for null. */
    public String absolute(Instant time) {
        return time == null ? "" : ABSOLUTE.format(time.atZone(zone));
    }

    /** {@code 3 days ago (2026-03-10 09:00)}; "" for null. */
    public String both(@Nullable Instant time) {
        return time == null ? "" : relative(time) + " (" + absolute(time) + ")";
    }

    /** {@code 09:00:12}, the time of day in this zone. */
    public String clock(Instant time) {
        return time == null ? "" : CLOCK.format(time.atZone(zone));
    }

    /** {@code 850 ms}, {@code 3.2 s}, {@code 4 min 05 s}. */
    public static String duration(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        return String.format(java.util.Locale.ROOT, "%d min %02d s", millis / 60_000, (millis / 1000) % 60);
    }

    /** {@code 512 B}, {@code 264.0 KB}, {@code 1.5 MB} (powers of 1024). */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
