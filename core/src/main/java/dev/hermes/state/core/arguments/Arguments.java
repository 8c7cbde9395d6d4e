package dev.hermes.state.core.arguments;

import dev.hermes.state.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * The argument checks of the public API, run before anything touches the database, so bad input
 * fails with one clear {@link InvalidArgumentException} and writes nothing.
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
    public static String id(@Nullable String value, String name) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(name + " must not be " + (value == null ? "null" : "blank"));
        }
        return maxLength(value, MAX_ID_LENGTH, name);
    }

    /** An optional id: null is fine. */
    public static @Nullable String optionalId(@Nullable String value, String name) {
        return value == null ? null : id(value, name);
    }

    /** A required label (source, role, end reason): not null, not blank, not over-long. */
    public static String label(@Nullable String value, String name) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(name + " must not be " + (value == null ? "null" : "blank"));
        }
        return maxLength(value, MAX_LABEL_LENGTH, name);
    }

    /** An optional label: null is fine. */
    public static @Nullable String optionalLabel(@Nullable String value, String name) {
        return value == null ? null : maxLength(value, MAX_LABEL_LENGTH, name);
    }

    /** Optional free text: null is fine. */
    public static @Nullable String optionalText(@Nullable String value, String name) {
        return value == null ? null : maxLength(value, MAX_TEXT_LENGTH, name);
    }

    /** Required free text (a title to look up): not null, not over-long; blank is fine. */
    public static String text(@Nullable String value, String name) {
        return maxLength(required(value, name), MAX_TEXT_LENGTH, name);
    }

    public static <T> T required(@Nullable T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    public static int limit(int limit) {
        if (limit < 0) {
            throw new InvalidArgumentException("limit must not be negative, got " + limit);
        }
        return limit;
    }

    public static int offset(int offset) {
        if (offset < 0) {
            throw new InvalidArgumentException("offset must not be negative, got " + offset);
        }
        return offset;
    }

    /** The limit of a keyset page: at least 1. */
    public static int pageSize(int limit) {
        if (limit < 1) {
            throw new InvalidArgumentException("A page needs a limit of at least 1, got " + limit);
        }
        return limit;
    }

    public static long tokens(long value, String name) {
        if (value < 0) {
            throw new InvalidArgumentException(name + " must not be negative, got " + value);
        }
        return value;
    }

    public static @Nullable Double optionalAmount(@Nullable Double value, String name) {
        if (value != null && !Double.isFinite(value)) {
            throw new InvalidArgumentException(name + " must be a finite number, got " + value);
        }
        return value;
    }

    /** A number of days to look back: finite, not negative. */
    public static double days(double value, String name) {
        if (!Double.isFinite(value) || value < 0) {
            throw new InvalidArgumentException(name + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    /** A length of time to look back: given, not negative. */
    public static Duration age(@Nullable Duration value, String name) {
        Duration age = required(value, name);
        if (age.isNegative()) {
            throw new InvalidArgumentException(name + " must not be negative, got " + age);
        }
        return age;
    }

    private static String maxLength(String value, int max, String name) {
        if (value.length() > max) {
            throw new InvalidArgumentException(name + " is too long (" + value.length() + " characters, max " + max + ")");
        }
        return value;
    }
}
