package dev.hermes.state.core.rows;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.MessageContent;
import org.jspecify.annotations.Nullable;

/**
 * {@code messages.content} as the agent keeps it: text as it is; structured content (a list of parts,
 * a dict) as a marker and its JSON, written as Python's {@code json.dumps} writes it. The marker is
 * {@code "\u0000json:"} on SQLite, which no real text starts with; PostgreSQL's text cannot hold NUL, so
 * there it is {@code "\u0001json:"}, as Hermes' own PostgreSQL backend writes it. Both are read on both
 * engines, so a copy between them keeps structured content structured.
 */
public final class StoredContent {
    /** The agent's marker in a SQLite file. */
    public static final String NUL_MARKER = "\u0000json:";
    /** The marker where text cannot hold NUL (PostgreSQL). */
    public static final String SOH_MARKER = "\u0001json:";

    private StoredContent() {
    }

    /** The text to store; {@code nulInText} is false where text cannot hold NUL. */
    public static @Nullable String encode(@Nullable MessageContent content, boolean nulInText) {
        if (content == null) {
            return null;
        }
        if (content instanceof MessageContent.Text text) {
            return text.text();
        }
        return (nulInText ? NUL_MARKER : SOH_MARKER) + PythonJson.dumps(content.value());
    }

    /**
     * What stored text means, as the agent decodes it: behind either marker, a list or dict is structured
     * content, a JSON string is that text and JSON null no content; otherwise (JSON that does not parse, a
     * number or a boolean, which a typed content cannot be) the stored text itself.
     */
    public static @Nullable MessageContent decode(@Nullable String stored) {
        if (stored == null) {
            return null;
        }
        if (stored.startsWith(NUL_MARKER) || stored.startsWith(SOH_MARKER)) {
            try {
                Object value = PythonJson.parse(stored.substring(NUL_MARKER.length()));
                if (value instanceof java.util.List<?> || value instanceof java.util.Map<?, ?>) {
                    return new MessageContent.Structured(value);
                }
                if (value instanceof String text) {
                    return new MessageContent.Text(text);
                }
                if (value == null) {
                    return null;
                }
            } catch (InvalidArgumentException notJson) {
                // the agent logs it and returns the stored text: so do we
            }
        }
        return new MessageContent.Text(stored);
    }

    /** The stored text under the other engine's marker: a copy between SQLite and PostgreSQL. */
    public static String forEngine(String stored, boolean nulInText) {
        String wrong = nulInText ? SOH_MARKER : NUL_MARKER;
        return stored.startsWith(wrong) ? (nulInText ? NUL_MARKER : SOH_MARKER) + stored.substring(wrong.length()) : stored;
    }
}
