package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A message's content: text, or structured content (a multimodal message's list of parts such as
 * {@code {"type": "text", "text": ...}} and {@code {"type": "image_url", ...}}, or a dict). The agent
 * stores structured content as JSON text behind a marker the file never shows a reader; this type is
 * what that text means.
 */
public sealed interface MessageContent {

    /** Plain text (possibly empty). */
    record Text(String text) implements MessageContent {
        public Text {
            if (text == null) {
                throw new InvalidArgumentException("text must not be null");
            }
        }
    }

    /**
     * Structured content: a {@code List} (of parts) or a {@code Map}, of plain Java JSON values (Map,
     * List, String, Number, Boolean, null).
     */
    record Structured(Object value) implements MessageContent {
        public Structured {
            if (!(value instanceof List<?>) && !(value instanceof Map<?, ?>)) {
                throw new InvalidArgumentException("structured content is a list of parts or a map, not "
                        + (value == null ? "null" : value.getClass().getSimpleName()));
            }
        }

        /** The parts, when the content is a list. */
        public List<?> parts() {
            return value instanceof List<?> list ? list : List.of();
        }
    }

    /** Text content; null stays null (no content). */
    static @Nullable MessageContent text(@Nullable String text) {
        return text == null ? null : new Text(text);
    }

    /** A list of parts, e.g. {@code List.of(Map.of("type", "text", "text", "..."), Map.of("type", "image_url", ...))}. */
    static MessageContent parts(List<?> parts) {
        return new Structured(parts);
    }

    /**
     * Content from a value as a caller or the RPC hands it over: text for a String, structured content for
     * a List or Map, null for null; anything else is an {@link InvalidArgumentException}.
     */
    static @Nullable MessageContent of(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof MessageContent content) {
            return content;
        }
        if (value instanceof CharSequence text) {
            return new Text(text.toString());
        }
        return new Structured(value);
    }

    /** The value as the agent's API has it: the String, or the List/Map. */
    default Object value() {
        return this instanceof Text text ? text.text() : ((Structured) this).value();
    }

    /**
     * What a reader sees of it as one line of text: the text itself, or the text parts of a list joined by
     * spaces ({@code "[multimodal content]"} when it has none), empty for a map: the agent's previews.
     */
    default String preview() {
        if (this instanceof Text text) {
            return text.text();
        }
        List<String> texts = new ArrayList<>();
        for (Object part : ((Structured) this).parts()) {
            if (part instanceof Map<?, ?> map && "text".equals(map.get("type"))) {
                Object partText = map.get("text");
                String value = partText == null ? "" : partText.toString();
                if (!value.isEmpty()) {
                    texts.add(value);
                }
            }
        }
        if (((Structured) this).value() instanceof Map<?, ?>) {
            return "";
        }
        String joined = PythonText.strip(String.join(" ", texts));
        return joined.isEmpty() ? "[multimodal content]" : joined;
    }

    /**
     * The content for code that handles only text: the text itself; the text parts of a list joined by
     * newlines (empty when it has none); a dict as its JSON text.
     */
    default String plainText() {
        if (this instanceof Text text) {
            return text.text();
        }
        Object value = ((Structured) this).value();
        if (value instanceof Map<?, ?>) {
            return PythonJson.dumps(value);
        }
        List<String> texts = new ArrayList<>();
        for (Object part : ((Structured) this).parts()) {
            if (part instanceof Map<?, ?> map && "text".equals(map.get("type")) && map.get("text") instanceof String partText) {
                texts.add(partText);
            }
        }
        return String.join("\n", texts);
    }
}
