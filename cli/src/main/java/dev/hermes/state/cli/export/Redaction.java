package dev.hermes.state.cli.export;

import dev.hermes.state.core.Redactor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exported session's shaped rows with every string masked by core's {@link Redactor}: keys stay,
 * values (content, tool-call arguments, titles, system prompts, JSON text columns...) are masked, so
 * each format (JSON lines, Markdown, HTML) is redacted alike.
 */
public final class Redaction {
    private Redaction() {
    }

    /** A copy of {@code value} with every string redacted; numbers, booleans, instants and nulls as they are. */
    @SuppressWarnings("unchecked")
    public static Object redact(Object value) {
        if (value instanceof String text) {
            return Redactor.redact(text);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(entry.getKey(), entry.getValue() == null ? null : redact(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object item : list) {
                copy.add(item == null ? null : redact(item));
            }
            return copy;
        }
        return value;
    }

    /** {@link #redact(Object)} of a session's row. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> session(Map<String, Object> row) {
        return (Map<String, Object>) redact(row);
    }
}
