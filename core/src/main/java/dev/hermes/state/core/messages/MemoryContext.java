package dev.hermes.state.core.messages;

import java.util.regex.Pattern;

/**
 * The recalled-memory block the agent wraps around a prompt, removed from replayed text. The agent puts
 * what its memory recalls into the prompt between {@code <memory-context>} tags, headed by a system note;
 * a model sometimes echoes it, and a stored turn may carry it. Today's agent cleans every user and
 * assistant text it replays from the store ({@code get_messages_as_conversation}): whole blocks first,
 * then the note where it stands alone (with the whitespace after it), then stray opening or closing tags.
 * Letters match in any case; whitespace is Python's (its {@code \s}: ASCII spaces and controls
 * U+001C-U+001F, U+0085, U+00A0 and the Unicode spaces), so the same text is removed as by the agent.
 */
final class MemoryContext {
    /** Python's {@code \s} for text: the code points {@code str.isspace()} accepts. */
    static final String SPACE = "[\\t\\n\\x0B\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]";
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    private static final Pattern BLOCK = Pattern.compile(
            "<" + SPACE + "*memory-context" + SPACE + "*>[\\s\\S]*?</" + SPACE + "*memory-context" + SPACE + "*>", FLAGS);
    private static final Pattern NOTE = Pattern.compile(
            "\\[System note:" + SPACE + "*The following is recalled memory context," + SPACE + "*NOT new user input\\."
                    + SPACE + "*Treat as (?:informational background data|authoritative reference data[^\\]]*)\\.\\]"
                    + SPACE + "*", FLAGS);
    private static final Pattern TAG = Pattern.compile("</?" + SPACE + "*memory-context" + SPACE + "*>", FLAGS);

    private MemoryContext() {
    }

    /** {@code text} without the memory blocks, notes and tags. */
    static String remove(String text) {
        // Each pattern starts with '<' or '['; most turns hold neither and need no regex at all.
        if (text.indexOf('<') < 0 && text.indexOf('[') < 0) {
            return text;
        }
        String cleaned = BLOCK.matcher(text).replaceAll("");
        cleaned = NOTE.matcher(cleaned).replaceAll("");
        return TAG.matcher(cleaned).replaceAll("");
    }
}
