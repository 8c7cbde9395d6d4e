package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;

/**
 * The arguments of {@code list_sessions_rich}: Hermes defaults are limit 20, offset 0, children hidden,
 * compression tips projected, archived sessions hidden, newest start first. {@code source} null = any;
 * {@code excludeSources} empty = exclude nothing. For keyset pagination use
 * {@link dev.hermes.state.core.StateRepository#listSessionsRichPage} (offset is then ignored).
 *
 * <p>The filters of today's agent (a store at schema 17, or a file of 7 or later): {@code cwdPrefix} keeps
 * the sessions whose working directory is that folder or inside it (null or empty = any);
 * {@code minMessageCount} keeps those with at least that many messages (0 or less = any);
 * {@code includeArchived} lists archived sessions too, {@code archivedOnly} only them (it wins over
 * {@code includeArchived}); {@code orderByLastActive} orders by the newest activity of each listed
 * session's whole compression chain instead of its start. {@code idQuery} (a substring of the id of a
 * session of the chain) and {@code searchQuery} (a substring of the id or title of a session of the
 * chain, also with the title's {@code - _ .} and spaces left out) are matched without regard to case and
 * need {@code orderByLastActive}: the agent ignores them otherwise, and a filter that silently filters
 * nothing is refused here (InvalidArgumentException). On a file without a column (no {@code cwd}, no
 * {@code archived}) it reads as its default: no working directory, not archived.
 *
 * <p>Filters of this library (the agent has none): {@code model} keeps the sessions of that model
 * (null or empty = any), {@code startedFrom} / {@code startedBefore} those started at or after / before
 * the instant (null = unbounded). They test the listed row's own columns (a projected compression root's,
 * not its tip's), like every other filter. {@code selection} (null = none) adds the operator's filters of
 * {@code sessions list} ({@link SessionSelection}) on the surfaced rows.
 */
public record ListSessionsQuery(
        @Nullable String source,
        List<String> excludeSources,
        int limit,
        int offset,
        boolean includeChildren,
        boolean projectCompressionTips,
        @Nullable String cwdPrefix,
        int minMessageCount,
        boolean orderByLastActive,
        boolean includeArchived,
        boolean archivedOnly,
        @Nullable String idQuery,
        @Nullable String searchQuery,
        @Nullable String model,
        @Nullable Instant startedFrom,
        @Nullable Instant startedBefore,
        @Nullable SessionSelection selection) {

    /** A null in {@code excludeSources} is an {@link InvalidArgumentException}; a null list excludes nothing. */
    public ListSessionsQuery {
        excludeSources = excludeSources == null ? List.of()
                : Lists.withoutNulls(excludeSources, "excludeSources");
        if (!orderByLastActive && (isGiven(idQuery) || isGiven(searchQuery))) {
            throw new InvalidArgumentException("idQuery and searchQuery need orderByLastActive (Hermes matches them"
                    + " against the compression chains that ordering walks)");
        }
    }

    private static boolean isGiven(@Nullable String needle) {
        return needle != null && !PythonText.isBlank(needle);
    }

    /** The arguments of version 6's listing; every filter added since at its default. */
    public ListSessionsQuery(@Nullable String source, List<String> excludeSources, int limit, int offset,
                             boolean includeChildren, boolean projectCompressionTips) {
        this(source, excludeSources, limit, offset, includeChildren, projectCompressionTips, null, 0, false, false,
                false, null, null, null, null, null, null);
    }

    /** Hermes' defaults. */
    public static ListSessionsQuery defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private @Nullable String source;
        private List<String> excludeSources = List.of();
        private int limit = 20;
        private int offset;
        private boolean includeChildren;
        private boolean projectCompressionTips = true;
        private @Nullable String cwdPrefix;
        private int minMessageCount;
        private boolean orderByLastActive;
        private boolean includeArchived;
        private boolean archivedOnly;
        private @Nullable String idQuery;
        private @Nullable String searchQuery;
        private @Nullable String model;
        private @Nullable Instant startedFrom;
        private @Nullable Instant startedBefore;
        private @Nullable SessionSelection selection;

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

        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        public Builder offset(int offset) {
            this.offset = offset;
            return this;
        }

        public Builder includeChildren(boolean includeChildren) {
            this.includeChildren = includeChildren;
            return this;
        }

        public Builder projectCompressionTips(boolean projectCompressionTips) {
            this.projectCompressionTips = projectCompressionTips;
            return this;
        }

        /** Sessions whose cwd is this folder or below it (a trailing / or \ is ignored); null or empty = any. */
        public Builder cwdPrefix(@Nullable String cwdPrefix) {
            this.cwdPrefix = cwdPrefix;
            return this;
        }

        /** Sessions with at least this many messages; 0 or less = any. */
        public Builder minMessageCount(int minMessageCount) {
            this.minMessageCount = minMessageCount;
            return this;
        }

        public Builder orderByLastActive(boolean orderByLastActive) {
            this.orderByLastActive = orderByLastActive;
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

        /** A case-insensitive substring of a session id of the listed chain; needs {@link #orderByLastActive}. */
        public Builder idQuery(@Nullable String idQuery) {
            this.idQuery = idQuery;
            return this;
        }

        /** A case-insensitive substring of an id or title of the listed chain; needs {@link #orderByLastActive}. */
        public Builder searchQuery(@Nullable String searchQuery) {
            this.searchQuery = searchQuery;
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

        /** The operator's filters on the surfaced rows (null = none). */
        public Builder selection(@Nullable SessionSelection selection) {
            this.selection = selection;
            return this;
        }

        public ListSessionsQuery build() {
            return new ListSessionsQuery(source, excludeSources, limit, offset, includeChildren, projectCompressionTips,
                    cwdPrefix, minMessageCount, orderByLastActive, includeArchived, archivedOnly, idQuery, searchQuery,
                    model, startedFrom, startedBefore, selection);
        }
    }
}
