package dev.hermes.state.core.search;

import java.util.List;

/**
 * The arguments of {@code search_messages}. {@code sourceFilter} null = any source, an empty list =
 * no source at all (matches nothing, as in Hermes); {@code excludeSources} and {@code roleFilter}
 * null or empty = no filter. Defaults: limit 20, offset 0.
 */
public record SearchQuery(
        String query,
        /* nullable */ List<String> sourceFilter,
        /* nullable */ List<String> excludeSources,
        /* nullable */ List<String> roleFilter,
        int limit,
        int offset) {

    public SearchQuery {
        sourceFilter = sourceFilter == null ? null : List.copyOf(sourceFilter);
        excludeSources = excludeSources == null ? null : List.copyOf(excludeSources);
        roleFilter = roleFilter == null ? null : List.copyOf(roleFilter);
    }

    public static SearchQuery of(String query) {
        return builder(query).build();
    }

    public static Builder builder(String query) {
        return new Builder(query);
    }

    public static final class Builder {
        private final String query;
        private List<String> sourceFilter;
        private List<String> excludeSources;
        private List<String> roleFilter;
        private int limit = 20;
        private int offset;

        private Builder(String query) {
            this.query = query;
        }

        public Builder sourceFilter(List<String> sources) {
            this.sourceFilter = sources;
            return this;
        }

        public Builder excludeSources(List<String> sources) {
            this.excludeSources = sources;
            return this;
        }

        public Builder roleFilter(List<String> roles) {
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

        public SearchQuery build() {
            return new SearchQuery(query, sourceFilter, excludeSources, roleFilter, limit, offset);
        }
    }
}
