package dev.hermes.state.core.model;

import dev.hermes.state.core.arguments.Arguments;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of {@code search_sessions}: the sessions of {@code source} (null or empty = every
 * source), children included, a page of {@code limit} rows after skipping {@code offset}; Hermes'
 * defaults are limit 20, offset 0. Checked when built: a negative limit or offset, or a source longer
 * than 1024 characters, is an {@link dev.hermes.state.InvalidArgumentException}.
 */
public record SearchSessionsQuery(@Nullable String source, int limit, int offset) {
    public static final int DEFAULT_LIMIT = 20;

    public SearchSessionsQuery {
        Arguments.optionalLabel(source, "source");
        Arguments.limit(limit);
        Arguments.offset(offset);
    }

    /** Hermes' defaults: every source, the first 20. */
    public static SearchSessionsQuery defaults() {
        return new SearchSessionsQuery(null, DEFAULT_LIMIT, 0);
    }

    /** The first 20 sessions of {@code source} (null = every source). */
    public static SearchSessionsQuery of(@Nullable String source) {
        return new SearchSessionsQuery(source, DEFAULT_LIMIT, 0);
    }

    /** This query with another page. */
    public SearchSessionsQuery page(int limit, int offset) {
        return new SearchSessionsQuery(source, limit, offset);
    }
}
