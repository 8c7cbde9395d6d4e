package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TimesTest {
    private static final Instant NOW = Instant.parse("2026-03-15T12:00:00Z");
    private final Times times = new Times(NOW, ZoneOffset.UTC);

    private String ago(Duration duration) {
        return times.relative(NOW.minus(duration));
    }

    @Test
    void relativeTimesReadNaturally() {
        assertEquals("just now", ago(Duration.ofSeconds(10)));
        assertEquals("1 min ago", ago(Duration.ofSeconds(60)));
        assertEquals("5 min ago", ago(Duration.ofMinutes(5)));
        assertEquals("1 hour ago", ago(Duration.ofMinutes(60)));
        assertEquals("3 hours ago", ago(Duration.ofHours(3)));
        assertEquals("yesterday", ago(Duration.ofHours(30)));
        assertEquals("5 days ago", ago(Duration.ofDays(5)));
        assertEquals("1 month ago", ago(Duration.ofDays(35)));
        assertEquals("3 months ago", ago(Duration.ofDays(92)));
        assertEquals("1 year ago", ago(Duration.ofDays(400)));
        assertEquals("3 years ago", ago(Duration.ofDays(3 * 365 + 10)));
    }

    @Test
    void futureTimesSayIn() {
        assertEquals("in 2 hours", times.relative(NOW.plus(Duration.ofHours(2))));
        assertEquals("tomorrow", times.relative(NOW.plus(Duration.ofHours(30))));
    }

    @Test
    void absoluteTimesUseTheZone() {
        Instant time = Instant.parse("2026-03-10T09:00:42Z");
        assertEquals("2026-03-10 09:00", times.absolute(time));
        assertEquals("2026-03-10 10:00", new Times(NOW, ZoneId.of("Europe/Paris")).absolute(time));
        assertEquals("09:00:42", times.clock(time));
        assertEquals("5 days ago (2026-03-10 09:00)", times.both(time));
    }

    @Test
    void missingTimesPrintNothing() {
        assertEquals("", times.relative(null));
        assertEquals("", times.absolute(null));
        assertEquals("", times.both(null));
    }

    @Test
    void durationsAndSizes() {
        assertEquals("850 ms", Times.duration(Duration.ofMillis(850)));
        assertEquals("3.2 s", Times.duration(Duration.ofMillis(3240)));
        assertEquals("4 min 05 s", Times.duration(Duration.ofSeconds(245)));
        assertEquals("512 B", Times.bytes(512));
        assertEquals("264.0 KB", Times.bytes(270336));
        assertEquals("1.5 MB", Times.bytes(1572864));
    }
}
