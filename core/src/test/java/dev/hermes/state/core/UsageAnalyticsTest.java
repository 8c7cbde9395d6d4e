package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.core.model.StoreStats;
import dev.hermes.state.core.model.TokenUsage;
import dev.hermes.state.core.model.UsageQuery;
import dev.hermes.state.core.model.UsageReport;
import dev.hermes.state.testsupport.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * usage, stats and the listing's model and start filters on the agent's files: the sums are those of the
 * fixtures' {@code sessions} rows (summed independently with sqlite3); the stats are the agent's
 * {@code hermes sessions stats} on them (its session_count and listing, run on the fixture).
 */
class UsageAnalyticsTest {
    private static final Instant V17_NOW = Instant.ofEpochSecond(1_796_159_161L);

    @TempDir
    Path dir;

    @Test
    void usageOfTodaysAgentsFileSummedPerDayModelAndSource() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir))) {
            UsageReport report = store.getUsage(UsageQuery.lastDays(7, V17_NOW));
            UsageReport.Usage totals = report.totals();
            assertEquals(new UsageReport.Usage(43, 136, 19, 7, 94593, 25052, 16230, 1913, 4990, totals.estimatedCostUsd(),
                    totals.actualCostUsd()), totals);
            assertEquals(0.652138, totals.estimatedCostUsd(), 1e-9);
            assertEquals(0.14373, totals.actualCostUsd(), 1e-9);
            assertEquals(100.0 * 16230 / (94593 + 16230 + 1913), totals.cacheHitPercent(), 1e-9);
            assertEquals(1, report.daily().size());
            assertEquals(LocalDate.of(2026, 12, 1), report.daily().get(0).day());
            assertEquals(List.of("anthropic/claude-opus-4.6", "deepseek/deepseek-v3.2", "google/gemini-3-pro",
                    "openai/gpt-5.4", "anthropic/claude-sonnet-4.6", "moonshotai/kimi-k2.5"),
                    report.byModel().stream().map(UsageReport.Group::key).toList());
            assertEquals(21741, report.byModel().get(0).usage().inputTokens());
            assertEquals(List.of("cli", "telegram", "discord", "slack"), report.bySource().stream().map(UsageReport.Group::key).toList());
            assertEquals(43, report.dailyBySource().stream().mapToLong(d -> d.usage().sessions()).sum());
            assertEquals(0, store.getUsage(UsageQuery.lastDays(7, V17_NOW.plusSeconds(30 * 86_400L))).totals().sessions());
        }
    }

    @Test
    void aVersion6FileSumsTheColumnsItLacksAsZero() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v6.db", dir))) {
            UsageReport.Usage totals = store.getUsage(UsageQuery.lastDays(30, Instant.ofEpochSecond(1_796_040_400L))).totals();
            assertEquals(30, totals.sessions());
            assertEquals(95, totals.messages());
            assertEquals(17, totals.toolCalls());
            assertEquals(0, totals.apiCalls());
            assertEquals(92431, totals.inputTokens());
            StoreStats stats = store.getStats();
            assertEquals(30, stats.total());
            assertEquals(0, stats.archived());
            assertEquals(95, stats.messages());
        }
    }

    @Test
    void statsAreTheAgentsSessionsStats() {
        try (StateRepository store = StateRepository.openReadOnly(Fixtures.copy("state-v17.db", dir))) {
            StoreStats stats = store.getStats();
            assertEquals(43, stats.total());
            assertEquals(41, stats.notArchived());
            assertEquals(2, stats.archived());
            assertEquals(140, stats.messages());
            assertEquals(Map.of("cli", 15L, "telegram", 8L, "discord", 7L, "slack", 7L), stats.bySource());
            assertEquals(List.of("cli", "telegram", "discord", "slack"), List.copyOf(stats.bySource().keySet()));
        }
    }

    @Test
    void theListingFiltersByModelAndStart() {
        Instant base = Instant.parse("2026-05-01T00:00:00Z");
        Path file = dir.resolve("state.db");
        for (int i = 0; i < 6; i++) {
            try (StateRepository store = StateRepository.builder().path(file)
                    .clock(Clock.fixed(base.plusSeconds(i * 86_400L), ZoneOffset.UTC)).build()) {
                store.createSession(NewSession.builder("s" + i, "cli").model(i % 2 == 0 ? "m-even" : "m-odd").build());
                store.updateTokenCounts("s" + i, TokenUsage.builder().inputTokens(10L * i).build());
            }
        }
        try (StateRepository store = StateRepository.openReadOnly(file)) {
            List<RichSession> even = store.listSessionsRich(ListSessionsQuery.builder().model("m-even").build());
            assertEquals(List.of("s4", "s2", "s0"), even.stream().map(r -> r.session().id()).toList());
            List<RichSession> middle = store.listSessionsRich(ListSessionsQuery.builder()
                    .startedBetween(base.plusSeconds(86_400), base.plusSeconds(4 * 86_400L)).build());
            assertEquals(List.of("s3", "s2", "s1"), middle.stream().map(r -> r.session().id()).toList());
            assertEquals(1, store.sessionCount(SessionCountQuery.builder().model("m-odd")
                    .startedBetween(base.plusSeconds(2 * 86_400L), base.plusSeconds(4 * 86_400L)).build()));
            assertEquals(List.of("s5", "s3"), store.listSessionsRichPage(ListSessionsQuery.builder().model("m-odd")
                    .startedBetween(base.plusSeconds(2 * 86_400L), null).limit(5).build(), null)
                    .items().stream().map(r -> r.session().id()).toList());
            UsageReport report = store.getUsage(new UsageQuery(base.minusSeconds(1)));
            assertEquals(6, report.daily().size());
            assertEquals(LocalDate.of(2026, 5, 6), report.daily().get(5).day());
            assertEquals(50, report.daily().get(5).usage().inputTokens());
            assertNull(report.daily().get(0).usage().cacheHitPercent());
            // most tokens first: 10 + 30 + 50 before 0 + 20 + 40
            assertEquals(List.of("m-odd", "m-even"), report.byModel().stream().map(UsageReport.Group::key).toList());
        }
        assertThrows(InvalidArgumentException.class, () -> UsageQuery.lastDays(0, Instant.EPOCH));
        assertTrue(UsageQuery.lastDays(3650, Instant.EPOCH).since().isBefore(Instant.EPOCH));
    }
}
