package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;

import java.util.List;
import java.util.Objects;

/**
 * The argument checks of the public API, run before anything touches the database, so bad input
 * fails with one clear {@link InvalidArgumentException} and writes nothing. Public only for the
 * argument records of the sub-packages ({@code search.SearchQuery}); not part of the API.
 */
public final class Arguments {
    /** Session ids: Hermes makes ~22-character ids; gateways make longer ones, never this long. */
    static final int MAX_ID_LENGTH = 1024;
    /** Short labels: source, role, model, end reason, tool name, tool call id, billing and cost labels. */
    static final int MAX_LABEL_LENGTH = 1024;
    /** Free text and JSON documents (content, system prompt, reasoning, tool calls...): 64 Mi characters. */
    static final int MAX_TEXT_LENGTH = 64 * 1024 * 1024;

    private Arguments() {
    }

    /** A required id: not null, not blank, not over-long. */
    static String id(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(name + " must not be " + (value == null ? "null" : "blank"));
        }
        return maxLength(value, MAX_ID_LENGTH, name);
    }

    /** A required label (source, role, end reason): not null, not blank, not over-long. */
    static String label(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(name + " must not be " + (value == null ? "null" : "blank"));
        }
        return maxLength(value, MAX_LABEL_LENGTH, name);
    }

    /** An optional label: null is fine. */
    static String optionalLabel(String value, String name) {
        return value == null ? null : maxLength(value, MAX_LABEL_LENGTH, name);
    }

    /** Optional free text: null is fine. */
    static String optionalText(String value, String name) {
        return value == null ? null : maxLength(value, MAX_TEXT_LENGTH, name);
    }

    /**
     * An optional list of strings, copied unmodifiable; null stays null. A null element is an
     * {@link InvalidArgumentException} naming the list, where {@link List#copyOf} would throw a bare
     * NullPointerException.
     */
    public static List<String> optionalListWithoutNulls(List<String> values, String name) {
        if (values == null) {
            return null;
        }
        // not values.contains(null): List.of(...) throws on a null probe
        if (values.stream().anyMatch(Objects::isNull)) {
            throw new InvalidArgumentException(name + " must not contain null, got " + values);
        }
        return List.copyOf(values);
    }

    static <T> T required(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    static int limit(int limit) {
        if (limit < 0) {
            throw new InvalidArgumentException("limit must not be negative, got " + limit);
        }
        return limit;
    }

    static int offset(int offset) {
        if (offset < 0) {
            throw new InvalidArgumentException("offset must not be negative, got " + offset);
        }
        return offset;
    }

    static long tokens(long value, String name) {
        if (value < 0) {
            throw new InvalidArgumentException(name + " must not be negative, got " + value);
        }
        return value;
    }

    static Double optionalAmount(Double value, String name) {
        if (value != null && !Double.isFinite(value)) {
            throw new InvalidArgumentException(name + " must be a finite number, got " + value);
        }
        return value;
    }

    private static String maxLength(String value, int max, String name) {
        if (value.length() > max) {
            throw new InvalidArgumentException(name + " is too long (" + value.length() + " characters, max " + max + ")");
        }
        return value;
    }
}
