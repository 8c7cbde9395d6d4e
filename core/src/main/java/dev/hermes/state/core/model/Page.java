package dev.hermes.state.core.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a keyset-paginated listing. Pass {@link #nextCursor()} to the same query to get the next
 * page; it is empty on the last page. Cursors are opaque strings, stable across processes.
 */
public record Page<T>(List<T> items, Optional<String> nextCursor) {
    public Page {
        items = List.copyOf(items);
    }
}
