package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * Which sessions an operator's command works on ({@code sessions list}, {@code prune}, {@code archive},
 * {@code export}): every given filter must hold (AND); a null filter is not applied. Rendered to one SQL
 * condition on the {@code sessions} table, so it means the same on SQLite and PostgreSQL.
 *
 * <ul>
 *   <li>{@code olderThan} / {@code newerThan}: the session's last activity (its newest message, else its
 *       start: the {@code last_active} of the agent's listing) is more than / at most that long before the
 *       store's clock.</li>
 *   <li>{@code startedBefore} / {@code startedAfter}: {@code started_at} strictly before / at or after.</li>
 *   <li>{@code source}, {@code model}, {@code provider} ({@code billing_provider}), {@code gitBranch},
 *       {@code endReason}: equal, case and all.</li>
 *   <li>{@code titleContains}: a substring of the title, ASCII letters without regard to case (SQLite's
 *       {@code lower()} folds only those, so PostgreSQL is held to the same); {@code %} and {@code _} are
 *       literal. A session without a title never matches.</li>
 *   <li>{@code cwd}: the working directory is that folder or below it (the agent's {@code cwd_prefix}
 *       rule).</li>
 *   <li>messages ({@code message_count}), tokens ({@code input_tokens + output_tokens}: what the model
 *       read and wrote; cache and reasoning tokens are parts of those), cost (the actual cost when the
 *       provider reported one, else the estimate; a session with neither has no cost and never matches a
 *       cost bound), tool calls ({@code tool_call_count}): inclusive bounds.</li>
 *   <li>{@code includeArchived}: archived sessions are left out unless this is set. It widens the
 *       selection, so it is not a filter: {@link #hasFilter()} ignores it.</li>
 * </ul>
 *
 * <p>A filter on a column the open store's file lacks (a store kept at 6 has no {@code cwd}, no
 * {@code git_branch}...) is refused with an {@link InvalidArgumentException} when the selection is used:
 * a filter that silently matches nothing would make a prune look safe and an export look complete.
 * Negative bounds, a minimum above its maximum, a negative age and a start window that is empty
 * are refused here.
 */
public record SessionSelection(
        @Nullable Duration olderThan,
        @Nullable Duration newerThan,
        @Nullable Instant startedBefore,
        @Nullable Instant startedAfter,
        @Nullable String source,
        @Nullable String titleContains,
        @Nullable String model,
        @Nullable String provider,
        @Nullable String cwd,
        @Nullable String gitBranch,
        @Nullable String endReason,
        @Nullable Long minMessages,
        @Nullable Long maxMessages,
        @Nullable Long minTokens,
        @Nullable Long maxTokens,
        @Nullable Double minCost,
        @Nullable Double maxCost,
        @Nullable Long minToolCalls,
        @Nullable Long maxToolCalls,
        boolean includeArchived) {

    /** The age {@code prune} applies when no filter is given (the agent's {@code --older-than 90}). */
    public static final Duration DEFAULT_PRUNE_AGE = Duration.ofDays(90);

    public SessionSelection {
        age(olderThan, "older-than");
        age(newerThan, "newer-than");
        if (startedBefore != null && startedAfter != null && !startedAfter.isBefore(startedBefore)) {
            throw new InvalidArgumentException("started-after " + startedAfter + " is not before started-before "
                    + startedBefore + ": no session can match");
        }
        source = text(source, "source");
        titleContains = text(titleContains, "title");
        model = text(model, "model");
        provider = text(provider, "provider");
        cwd = text(cwd, "cwd");
        gitBranch = text(gitBranch, "branch");
        endReason = text(endReason, "end reason");
        bounds(minMessages, maxMessages, "messages");
        bounds(minTokens, maxTokens, "tokens");
        bounds(minToolCalls, maxToolCalls, "tool calls");
        if (minCost != null || maxCost != null) {
            cost(minCost, "min-cost");
            cost(maxCost, "max-cost");
            if (minCost != null && maxCost != null && minCost > maxCost) {
                throw new InvalidArgumentException("min-cost " + minCost + " is above max-cost " + maxCost);
            }
        }
    }

    /** Every session (archived ones left out): what a command does without filters. */
    public static SessionSelection all() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when any filter is given ({@code includeArchived} is not one). */
    public boolean hasFilter() {
        return olderThan != null || newerThan != null || startedBefore != null || startedAfter != null
                || source != null || titleContains != null || model != null || provider != null || cwd != null
                || gitBranch != null || endReason != null || minMessages != null || maxMessages != null
                || minTokens != null || maxTokens != null || minCost != null || maxCost != null
                || minToolCalls != null || maxToolCalls != null;
    }

    /** This selection, or, when it has no filter, the same with prune's default age. */
    public SessionSelection orDefaultAge(Duration age) {
        return hasFilter() ? this : toBuilder().olderThan(age).build();
    }

    public Builder toBuilder() {
        return new Builder().olderThan(olderThan).newerThan(newerThan).startedBefore(startedBefore)
                .startedAfter(startedAfter).source(source).titleContains(titleContains).model(model).provider(provider)
                .cwd(cwd).gitBranch(gitBranch).endReason(endReason).minMessages(minMessages).maxMessages(maxMessages)
                .minTokens(minTokens).maxTokens(maxTokens).minCost(minCost).maxCost(maxCost)
                .minToolCalls(minToolCalls).maxToolCalls(maxToolCalls).includeArchived(includeArchived);
    }

    private static void age(@Nullable Duration age, String name) {
        if (age != null && age.isNegative()) {
            throw new InvalidArgumentException(name + " must not be negative, got " + age);
        }
    }

    /** An empty filter is refused: it would be read as "any" by one reader and "none" by another. */
    private static @Nullable String text(@Nullable String value, String name) {
        if (value == null) {
            return null;
        }
        if (value.isEmpty()) {
            throw new InvalidArgumentException(name + " filter is empty (leave it out to select any " + name + ")");
        }
        if (value.indexOf('\0') >= 0) {
            throw new InvalidArgumentException(name + " filter contains a NUL character");
        }
        return value;
    }

    private static void bounds(@Nullable Long min, @Nullable Long max, String name) {
        if (min != null && min < 0) {
            throw new InvalidArgumentException("min-" + name.replace(' ', '-') + " must be >= 0, got " + min);
        }
        if (max != null && max < 0) {
            throw new InvalidArgumentException("max-" + name.replace(' ', '-') + " must be >= 0, got " + max);
        }
        if (min != null && max != null && min > max) {
            throw new InvalidArgumentException("min-" + name.replace(' ', '-') + " " + min + " is above max-"
                    + name.replace(' ', '-') + " " + max + ": no session can match");
        }
    }

    private static void cost(@Nullable Double value, String name) {
        if (value != null && (!Double.isFinite(value) || value < 0)) {
            throw new InvalidArgumentException(name + " must be a finite amount >= 0, got " + value);
        }
    }

    public static final class Builder {
        private @Nullable Duration olderThan;
        private @Nullable Duration newerThan;
        private @Nullable Instant startedBefore;
        private @Nullable Instant startedAfter;
        private @Nullable String source;
        private @Nullable String titleContains;
        private @Nullable String model;
        private @Nullable String provider;
        private @Nullable String cwd;
        private @Nullable String gitBranch;
        private @Nullable String endReason;
        private @Nullable Long minMessages;
        private @Nullable Long maxMessages;
        private @Nullable Long minTokens;
        private @Nullable Long maxTokens;
        private @Nullable Double minCost;
        private @Nullable Double maxCost;
        private @Nullable Long minToolCalls;
        private @Nullable Long maxToolCalls;
        private boolean includeArchived;

        private Builder() {
        }

        /** Last activity more than this long ago. */
        public Builder olderThan(@Nullable Duration olderThan) {
            this.olderThan = olderThan;
            return this;
        }

        /** Last activity at most this long ago. */
        public Builder newerThan(@Nullable Duration newerThan) {
            this.newerThan = newerThan;
            return this;
        }

        /** Started strictly before. */
        public Builder startedBefore(@Nullable Instant startedBefore) {
            this.startedBefore = startedBefore;
            return this;
        }

        /** Started at or after. */
        public Builder startedAfter(@Nullable Instant startedAfter) {
            this.startedAfter = startedAfter;
            return this;
        }

        public Builder source(@Nullable String source) {
            this.source = source;
            return this;
        }

        public Builder titleContains(@Nullable String titleContains) {
            this.titleContains = titleContains;
            return this;
        }

        public Builder model(@Nullable String model) {
            this.model = model;
            return this;
        }

        /** The billing provider ({@code billing_provider}). */
        public Builder provider(@Nullable String provider) {
            this.provider = provider;
            return this;
        }

        /** The working directory or below it. */
        public Builder cwd(@Nullable String cwd) {
            this.cwd = cwd;
            return this;
        }

        public Builder gitBranch(@Nullable String gitBranch) {
            this.gitBranch = gitBranch;
            return this;
        }

        public Builder endReason(@Nullable String endReason) {
            this.endReason = endReason;
            return this;
        }

        public Builder minMessages(@Nullable Long minMessages) {
            this.minMessages = minMessages;
            return this;
        }

        public Builder maxMessages(@Nullable Long maxMessages) {
            this.maxMessages = maxMessages;
            return this;
        }

        /** Input plus output tokens. */
        public Builder minTokens(@Nullable Long minTokens) {
            this.minTokens = minTokens;
            return this;
        }

        public Builder maxTokens(@Nullable Long maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        /** US dollars, the actual cost else the estimate. */
        public Builder minCost(@Nullable Double minCost) {
            this.minCost = minCost;
            return this;
        }

        public Builder maxCost(@Nullable Double maxCost) {
            this.maxCost = maxCost;
            return this;
        }

        public Builder minToolCalls(@Nullable Long minToolCalls) {
            this.minToolCalls = minToolCalls;
            return this;
        }

        public Builder maxToolCalls(@Nullable Long maxToolCalls) {
            this.maxToolCalls = maxToolCalls;
            return this;
        }

        public Builder includeArchived(boolean includeArchived) {
            this.includeArchived = includeArchived;
            return this;
        }

        public SessionSelection build() {
            return new SessionSelection(olderThan, newerThan, startedBefore, startedAfter, source, titleContains,
                    model, provider, cwd, gitBranch, endReason, minMessages, maxMessages, minTokens, maxTokens,
                    minCost, maxCost, minToolCalls, maxToolCalls, includeArchived);
        }
    }
}
