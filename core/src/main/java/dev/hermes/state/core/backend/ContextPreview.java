package dev.hermes.state.core.backend;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.rows.StoredContent;
import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How today's agent shows a message in a search hit's context: text as it is; structured content (the
 * stored marker and JSON) as its text parts joined by spaces, or {@code [multimodal content]} when it
 * has none; a dict or another JSON value as ""; stored text whose JSON does not parse as that text;
 * then the first {@value HermesSearch#CONTEXT_LENGTH} code points.
 */
final class ContextPreview {
    static final String NO_TEXT = "[multimodal content]";

    private ContextPreview() {
    }

    /**
     * The preview of stored content; null when the agent fails to build it (a text part whose text is
     * neither a string nor empty: Python's join raises, and the agent then shows no context for the hit).
     */
    static @Nullable String of(String stored) {
        String preview = stored;
        if (stored.startsWith(StoredContent.NUL_MARKER) || stored.startsWith(StoredContent.SOH_MARKER)) {
            Object value;
            try {
                value = PythonJson.parse(stored.substring(StoredContent.NUL_MARKER.length()));
            } catch (InvalidArgumentException notJson) {
                value = stored;
            }
            if (value instanceof List<?> parts) {
                String text = textParts(parts);
                if (text == null) {
                    return null;
                }
                preview = text.isEmpty() ? NO_TEXT : text;
            } else {
                preview = value instanceof String text ? text : "";
            }
        }
        return cut(preview);
    }

    /** The texts of the {@code {"type": "text"}} parts that are not empty, joined by spaces and stripped. */
    private static @Nullable String textParts(List<?> parts) {
        List<String> texts = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof Map<?, ?> map && "text".equals(map.get("type"))) {
                Object text = map.get("text");
                if (text instanceof String string) {
                    if (!string.isEmpty()) {
                        texts.add(string);
                    }
                } else if (isTruthy(text)) {
                    return null;
                }
            }
        }
        return PythonText.strip(String.join(" ", texts));
    }

    /** Python's truth of a JSON value that is not a string. */
    private static boolean isTruthy(@Nullable Object value) {
        if (value == null || Boolean.FALSE.equals(value)) {
            return false;
        }
        if (value instanceof Number number) {
            return number.doubleValue() != 0;
        }
        if (value instanceof List<?> list) {
            return !list.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        return true;
    }

    private static String cut(String text) {
        if (text.codePointCount(0, text.length()) <= HermesSearch.CONTEXT_LENGTH) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, HermesSearch.CONTEXT_LENGTH));
    }
}
