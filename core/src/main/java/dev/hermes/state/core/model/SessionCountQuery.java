package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;

/**
 * The arguments of {@code session_count}, as today's agent takes them; the defaults count every session
 * that is not archived (on a file without the {@code archived} column: every session). {@code source}
 * null or empty = any; {@code excludeSources} empty = none excluded; {@code cwdPrefix} the working
 * directory or below it (null or empty = any); {@code minMessageCount} 0 or less = any;
 * {@code archivedOnly} counts only archived sessions (it wins over {@code includeArchived});
 * {@code excludeChildren} counts only what the rich listing lists (roots and /branch children, never
 * subagent runs), so that a count matches the pages of {@link ListSessionsQuery} with the same filters;
 * {@code model}, {@code startedFrom} and {@code startedBefore} as in {@link ListSessionsQuery}.
 */
public record SessionCountQuery(
        @Nullable String source,
        List<String> excludeSources,
        @Nullable String cwdPrefix,
        int minMessageCount,
        boolean includeArchived,
        boolean archivedOnly,
        boolean excludeChildren,
        @Nullable String model,
        @Nullable Instant startedFrom,
        @Nullable Instant startedBefore) {

    /** A null in {@code excludeSources} is an {@link dev.hermes.state.InvalidArgumentException}; a null list excludes nothing. */
    public SessionCountQuery {
        excludeSources = excludeSources == null ? List.of() : Lists.withoutNulls(excludeSources, "excludeSources");
    }

    /** The sessions of {@code source} (null = all), archived ones left out. */
    public static SessionCountQuery of(@Nullable String source) {
        return builder().source(source).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private @Nullable String source;
        private List<String> excludeSources = List.of();
        private @Nullable String cwdPrefix;
        private int minMessageCount;
        private boolean includeArchived;
        private boolean archivedOnly;
        private boolean excludeChildren;
        private @Nullable String model;
        private @Nullable Instant startedFrom;
        private @Nullable Instant startedBefore;

        private Builder() {
        }

        public Builder source(@Nullable String source) {
            this.source = source;
            return this;
        }

        /** Null excludes nothing. */
        public Builder excludeSources(@Nullable List<String> excludeSources) {
            this.excludeSources = excludeSources == null ? List.of() : excludeSources;
            return this;
        }

        public Builder cwdPrefix(@Nullable String cwdPrefix) {
            this.cwdPrefix = cwdPrefix;
            return this;
        }

        public Builder minMessageCount(int minMessageCount) {
            this.minMessageCount = minMessageCount;
            return this;
        }

        public Builder includeArchived(boolean includeArchived) {
            this.includeArchived = includeArchived;
            return this;
        }

        public Builder archivedOnly(boolean archivedOnly) {
            this.archivedOnly = archivedOnly;
            return this;
        }

        public Builder excludeChildren(boolean excludeChildren) {
            this.excludeChildren = excludeChildren;
            return this;
        }

        /** Sessions of this model; null or empty = any. */
        public Builder model(@Nullable String model) {
            this.model = model;
            return this;
        }

        /** Sessions started at or after {@code from} and before {@code before}; null = unbounded. */
        public Builder startedBetween(@Nullable Instant from, @Nullable Instant before) {
            this.startedFrom = from;
            this.startedBefore = before;
            return this;
        }

        public SessionCountQuery build() {
            return new SessionCountQuery(source, excludeSources, cwdPrefix, minMessageCount, includeArchived,
                    archivedOnly, excludeChildren, model, startedFrom, startedBefore);
        }
    }
}
