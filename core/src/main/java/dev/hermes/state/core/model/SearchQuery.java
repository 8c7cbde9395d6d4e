package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Locale;

/**
 * The arguments of {@code search_messages}. {@code sourceFilter} null = any source, an empty list =
 * no source at all (matches nothing, as in Hermes); {@code excludeSources} and {@code roleFilter}
 * null or empty = no filter. Defaults: limit 20, offset 0.
 *
 * <p>{@code query} is any user text (null and blank find nothing); it never makes the search fail.
 * A negative limit or offset, or a null element in a list, is an {@link InvalidArgumentException}
 * (Hermes' "no limit", -1, is not offered: ask for {@link Integer#MAX_VALUE}). Any other limit is
 * honoured, however large: every hit of the page is returned, and the page is held in memory, about
 * 1.5 KB per hit with its snippet and context.
 *
 * <p>{@code order}: by relevance (the default), or by timestamp, newest or oldest first, relevance
 * breaking ties; today's agent's substring search (short CJK words) is always newest first.
 * {@code includeInactive}: today's agent leaves rewound messages (inactive and not compacted) out of
 * its index searches; this finds them too. Both are arguments of today's agent (a store at 17).
 */
public record SearchQuery(
        @Nullable String query,
        @Nullable List<String> sourceFilter,
        @Nullable List<String> excludeSources,
        @Nullable List<String> roleFilter,
        int limit,
        int offset,
        Order order,
        boolean includeInactive) {

    /** The order of the hits. */
    public enum Order {
        /** Best match first (the index's rank). */
        RELEVANCE,
        /** Newest message first, then best match. */
        NEWEST,
        /** Oldest message first, then best match. */
        OLDEST;

        /**
         * Hermes' {@code sort} argument: "newest" or "oldest" (any case, surrounding whitespace ignored);
         * anything else, null included, is relevance, as in the agent.
         */
        public static Order ofHermes(@Nullable Object sort) {
            if (sort instanceof String text) {
                String normalized = PythonText.strip(text).toLowerCase(Locale.ROOT);
                if (normalized.equals("newest")) {
                    return NEWEST;
                }
                if (normalized.equals("oldest")) {
                    return OLDEST;
                }
            }
            return RELEVANCE;
        }
    }

    public SearchQuery {
        if (limit < 0) {
            throw new InvalidArgumentException("Search limit must not be negative, got " + limit);
        }
        if (offset < 0) {
            throw new InvalidArgumentException("Search offset must not be negative, got " + offset);
        }
        sourceFilter = Lists.withoutNulls(sourceFilter, "sourceFilter");
        excludeSources = Lists.withoutNulls(excludeSources, "excludeSources");
        roleFilter = Lists.withoutNulls(roleFilter, "roleFilter");
        if (order == null) {
            throw new InvalidArgumentException("Search order must not be null");
        }
    }

    /** Version 6's arguments: by relevance, rewound messages left out. */
    public SearchQuery(@Nullable String query, @Nullable List<String> sourceFilter, @Nullable List<String> excludeSources,
                       @Nullable List<String> roleFilter, int limit, int offset) {
        this(query, sourceFilter, excludeSources, roleFilter, limit, offset, Order.RELEVANCE, false);
    }

    /** This query with another page. */
    public SearchQuery page(int newLimit, int newOffset) {
        return new SearchQuery(query, sourceFilter, excludeSources, roleFilter, newLimit, newOffset, order, includeInactive);
    }

    public static SearchQuery of(@Nullable String query) {
        return builder(query).build();
    }

    public static Builder builder(@Nullable String query) {
        return new Builder(query);
    }

    public static final class Builder {
        private final @Nullable String query;
        private @Nullable List<String> sourceFilter;
        private @Nullable List<String> excludeSources;
        private @Nullable List<String> roleFilter;
        private int limit = 20;
        private int offset;
        private Order order = Order.RELEVANCE;
        private boolean includeInactive;

        private Builder(@Nullable String query) {
            this.query = query;
        }

        public Builder sourceFilter(@Nullable List<String> sources) {
            this.sourceFilter = sources;
            return this;
        }

        public Builder excludeSources(@Nullable List<String> sources) {
            this.excludeSources = sources;
            return this;
        }

        public Builder roleFilter(@Nullable List<String> roles) {
            this.roleFilter = roles;
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

        public Builder order(Order order) {
            this.order = order;
            return this;
        }

        public Builder includeInactive(boolean includeInactive) {
            this.includeInactive = includeInactive;
            return this;
        }

        public SearchQuery build() {
            return new SearchQuery(query, sourceFilter, excludeSources, roleFilter, limit, offset, order, includeInactive);
        }
    }
}
