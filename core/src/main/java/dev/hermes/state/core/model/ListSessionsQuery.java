package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The arguments of {@code list_sessions_rich}: Hermes defaults are limit 20, offset 0, children hidden,
 * compression tips projected. {@code source} null = any; {@code excludeSources} empty = exclude nothing.
 * For keyset pagination use {@link StateRepository#listSessionsRichPage} (offset is then ignored).
 */
public record ListSessionsQuery(
        @Nullable String source,
        List<String> excludeSources,
        int limit,
        int offset,
        boolean includeChildren,
        boolean projectCompressionTips) {

    /** A null in {@code excludeSources} is an {@link InvalidArgumentException}; a null list excludes nothing. */
    public ListSessionsQuery {
        excludeSources = excludeSources == null ? List.of()
                : Lists.withoutNulls(excludeSources, "excludeSources");
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

        public ListSessionsQuery build() {
            return new ListSessionsQuery(source, excludeSources, limit, offset, includeChildren, projectCompressionTips);
        }
    }
}
