package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;

/** The list arguments of the queries: copied unmodifiable, a null element refused by name. */
final class Lists {
    private Lists() {
    }

    /**
     * An optional list of strings, copied unmodifiable; null stays null. A null element is an
     * {@link InvalidArgumentException} naming the list, where {@link List#copyOf} would throw a bare
     * NullPointerException.
     */
    static @Nullable List<String> withoutNulls(@Nullable List<String> values, String name) {
        if (values == null) {
            return null;
        }
        // not values.contains(null): List.of(...) throws on a null probe
        if (values.stream().anyMatch(Objects::isNull)) {
            throw new InvalidArgumentException(name + " must not contain null, got " + values);
        }
        return List.copyOf(values);
    }
}
