package dev.hermes.state.cli.rpc;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.rows.EpochSeconds;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The agent's float days and hours as Durations: the store's cut-off is the agent's to the bit. */
class AgentDurationsTest {
    /** Epoch seconds as the agent's time.time() gives them (2026, with a fraction), and a whole one. */
    private static final double[] NOWS = {1_776_400_000.1234567, 1_764_672_000.0, 1_796_040_400.987654321};

    @Test
    void wholeAndDecimalDaysGiveTheAgentsCutOff() {
        assertEquals(Duration.ofDays(90), AgentDurations.days(90, "days"));
        assertEquals(Duration.ZERO, AgentDurations.days(0, "days"));
        assertEquals(Duration.ofHours(12), AgentDurations.days(0.5, "days"));
        assertEquals(Duration.ofHours(24), AgentDurations.hours(24, "hours"));
        assertEquals(Duration.ofSeconds(86, 400_000_000), AgentDurations.days(0.001, "days"));
        // every number of days with up to three decimals up to 200 days
        for (int thousandths = 0; thousandths <= 200_000; thousandths++) {
            double days = thousandths / 1000.0;
            assertSameCutOff(days * 86_400, AgentDurations.days(days, "days"));
        }
    }

    @Test
    void fromNinetySevenDaysOnEveryDoubleComesBack() {
        SplittableRandom random = new SplittableRandom(22);
        for (int i = 0; i < 100_000; i++) {
            double days = 97.1 + random.nextDouble() * 1e6;
            assertEquals(days * 86_400, EpochSeconds.seconds(AgentDurations.days(days, "days")), () -> "days " + days);
        }
    }

    @Test
    void badDaysAndHoursAreTheAgentsTypedErrors() {
        for (double bad : new double[] {-1, -0.001, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            InvalidArgumentException error = assertThrows(InvalidArgumentException.class,
                    () -> AgentDurations.days(bad, "older-than days"));
            assertEquals("older-than days must be a finite number >= 0, got " + bad, error.getMessage());
        }
        assertEquals("minimum interval hours must be a finite number, got Infinity", assertThrows(InvalidArgumentException.class,
                () -> AgentDurations.hours(Double.POSITIVE_INFINITY, "minimum interval hours")).getMessage());
        assertEquals(Duration.ofHours(-5), AgentDurations.hours(-5, "hours"));
    }

    @Test
    void agesBeyondADurationAreTheLongestOne() {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        assertEquals(longest, AgentDurations.days(1e300, "days"));
        assertEquals(longest, AgentDurations.days(Double.MAX_VALUE, "days"));
        assertEquals(Duration.ofSeconds(Long.MIN_VALUE), AgentDurations.hours(-1e300, "hours"));
    }

    private static void assertSameCutOff(double agentSeconds, Duration converted) {
        double seconds = EpochSeconds.seconds(converted);
        for (double now : NOWS) {
            assertEquals(now - agentSeconds, now - seconds, () -> agentSeconds + " s at " + now);
        }
    }
}
