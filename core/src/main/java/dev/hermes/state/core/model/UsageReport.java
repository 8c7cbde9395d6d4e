package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * Token use and cost of the sessions a {@link UsageQuery} selects, summed by the database: per UTC day
 * of the session's start, per day and source (for a stacked chart), per model, per source, and in total.
 * A session's messages and tool calls are counted on the day it started (its counters, not its message
 * rows, so the figures come from one pass over {@code sessions}). A column the file lacks (an older
 * schema) sums as 0.
 *
 * @param daily         one row per day that has sessions, oldest first
 * @param dailyBySource one row per day and source that has sessions, by day then source
 * @param byModel       one row per model (sessions without a model left out), most tokens first
 * @param bySource      one row per source, most sessions first
 */
public record UsageReport(List<Daily> daily, List<DailySource> dailyBySource, List<Group> byModel,
                          List<Group> bySource, Usage totals) {
    public UsageReport {
        daily = List.copyOf(daily);
        dailyBySource = List.copyOf(dailyBySource);
        byModel = List.copyOf(byModel);
        bySource = List.copyOf(bySource);
        Objects.requireNonNull(totals, "totals");
    }

    /**
     * The sums over a set of sessions. Costs sum the stored figures (a NULL counts as 0).
     *
     * @param apiCalls model API calls (schema 8 and later; 0 before)
     */
    public record Usage(long sessions, long messages, long toolCalls, long apiCalls, long inputTokens,
                        long outputTokens, long cacheReadTokens, long cacheWriteTokens, long reasoningTokens,
                        double estimatedCostUsd, double actualCostUsd) {

        /**
         * The share of prompt tokens served from the provider's cache: cache reads over cache reads plus
         * uncached input plus cache writes, in percent; null when no prompt token was counted.
         */
        public @Nullable Double cacheHitPercent() {
            long prompt = inputTokens + cacheReadTokens + cacheWriteTokens;
            return prompt == 0 ? null : 100.0 * cacheReadTokens / prompt;
        }
    }

    public record Daily(LocalDate day, Usage usage) {
        public Daily {
            Objects.requireNonNull(day, "day");
            Objects.requireNonNull(usage, "usage");
        }
    }

    public record DailySource(LocalDate day, String source, Usage usage) {
        public DailySource {
            Objects.requireNonNull(day, "day");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(usage, "usage");
        }
    }

    /** The sums of one model or one source. */
    public record Group(String key, Usage usage) {
        public Group {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(usage, "usage");
        }
    }
}
