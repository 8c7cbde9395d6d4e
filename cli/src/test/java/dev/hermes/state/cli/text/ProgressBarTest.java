package dev.hermes.state.cli.text;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressBarTest {
    @Test
    void aBarShowsTheFractionCountsAndTime() {
        assertEquals("exporting  [############------------]   50%  1,000/2,000  3.2 s",
                ProgressBar.render("exporting", 1000, 2000, Duration.ofMillis(3200)));
        assertEquals("exporting  [########################]  100%  0/0  850 ms",
                ProgressBar.render("exporting", 0, 0, Duration.ofMillis(850)));
    }

    @Test
    void aSpinnerShowsElapsedTimeWhenTheTotalIsUnknown() {
        assertEquals("pruning  |  850 ms", ProgressBar.render("pruning", 0, -1, Duration.ofMillis(850)));
        assertEquals("pruning  /  950 ms", ProgressBar.render("pruning", 0, -1, Duration.ofMillis(950)));
        assertEquals("pruning  -  1.0 s", ProgressBar.render("pruning", 0, -1, Duration.ofMillis(1000)));
    }

    @Test
    @SuppressWarnings("try") // the spinner is opened only to see that closing it prints nothing
    void aDisabledBarPrintsNothing() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
        try (ProgressBar bar = ProgressBar.counting(stream, false, "x", 10)) {
            Thread.sleep(ProgressBar.DELAY_MILLIS + 50);
            bar.advance(5);
        }
        try (ProgressBar ignored = ProgressBar.spinning(stream, false, "y")) {
            Thread.sleep(ProgressBar.DELAY_MILLIS + 150);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anEnabledBarDrawsAfterTheDelayAndErasesItself() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
        try (ProgressBar bar = ProgressBar.counting(stream, true, "exporting", 4)) {
            bar.advance(1);
            assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing during the first " + ProgressBar.DELAY_MILLIS + " ms");
            Thread.sleep(ProgressBar.DELAY_MILLIS + 50);
            bar.advance(1);
        }
        String drawn = err.toString(StandardCharsets.UTF_8);
        assertTrue(drawn.startsWith("\rexporting  [############------------]   50%  2/4"), drawn);
        assertTrue(drawn.endsWith("\r\u001B[K"), "erased at the end: " + drawn);
    }
}
