package dev.hermes.state.serve;

import org.jspecify.annotations.Nullable;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request's query parameters, parsed strictly: a malformed value is a 400 naming the parameter, never a
 * silent default, and a parameter the endpoint does not know is refused too (a typo would otherwise
 * filter nothing).
 */
final class Params {
    private final Map<String, List<String>> values;

    private Params(Map<String, List<String>> values) {
        this.values = values;
    }

    static Params parse(@Nullable String rawQuery) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                try {
                    String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                    String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("The query string is not well-formed");
                }
            }
        }
        return new Params(values);
    }

    /** Refuses parameters outside {@code known} ({@code token} is always allowed: see the access rules). */
    Params only(Set<String> known) {
        for (String name : values.keySet()) {
            if (!known.contains(name) && !name.equals("token")) {
                throw ApiException.badRequest("Unknown parameter '" + name + "'; this endpoint takes " + known);
            }
        }
        return this;
    }

    @Nullable String string(String name) {
        List<String> given = values.get(name);
        if (given == null) {
            return null;
        }
        if (given.size() > 1) {
            throw ApiException.badRequest("Parameter '" + name + "' is given " + given.size() + " times");
        }
        return given.get(0);
    }

    /** The value, null when absent or empty. */
    @Nullable String text(String name) {
        String value = string(name);
        return value == null || value.isEmpty() ? null : value;
    }

    int integer(String name, int fallback, int min, int max) {
        String value = text(name);
        if (value == null) {
            return fallback;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Parameter '" + name + "' must be an integer, got '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw ApiException.badRequest("Parameter '" + name + "' must be between " + min + " and " + max
                    + ", got " + parsed);
        }
        return parsed;
    }

    boolean flag(String name, boolean fallback) {
        String value = text(name);
        if (value == null) {
            return fallback;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "1", "true", "yes" -> true;
            case "0", "false", "no" -> false;
            default -> throw ApiException.badRequest("Parameter '" + name + "' must be true or false, got '" + value + "'");
        };
    }

    String choice(String name, String fallback, Set<String> allowed) {
        String value = text(name);
        if (value == null) {
            return fallback;
        }
        if (!allowed.contains(value)) {
            throw ApiException.badRequest(name + " must be one of: " + String.join(", ", allowed));
        }
        return value;
    }

    /** A comma-separated list, blanks dropped; empty when absent. */
    List<String> list(String name) {
        String value = text(name);
        List<String> items = new ArrayList<>();
        if (value != null) {
            for (String item : value.split(",", -1)) {
                if (!item.isBlank()) {
                    items.add(item.strip());
                }
            }
        }
        return items;
    }

    /**
     * An instant: epoch seconds (a number, as the API writes timestamps) or a UTC date
     * ({@code 2026-05-01}, its start; {@code endOfDay}: the start of the next day, for an inclusive end).
     */
    @Nullable Instant instant(String name, boolean endOfDay) {
        String value = text(name);
        if (value == null) {
            return null;
        }
        String v = value.strip();
        try {
            if (v.matches("-?[0-9]+(\\.[0-9]+)?")) {
                double seconds = Double.parseDouble(v);
                long whole = (long) Math.floor(seconds);
                return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
            }
            LocalDate day = LocalDate.parse(v);
            return (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw ApiException.badRequest("Parameter '" + name + "' must be a date (YYYY-MM-DD) or epoch seconds, got '"
                    + value + "'");
        }
    }
}
