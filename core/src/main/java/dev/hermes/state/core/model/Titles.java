package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/** Session-title rules shared by the store and its callers (docs/behaviour.md#titles). */
public final class Titles {
    /** Longest title, in code points. */
    public static final int MAX_LENGTH = 100;

    private Titles() {
    }

    /**
     * sanitize_title, exactly as Hermes: null/empty → empty; removes C0 controls except tab, LF and CR,
     * DEL, and the invisible or direction-changing characters U+200B–200F, U+2028–202E, U+2060–2069,
     * U+FEFF, U+FFF9–FFFC; collapses every run of whitespace (Python's {@code \s}: incl. tab, LF, CR,
     * U+0085, U+00A0, U+3000) to one space; trims; empty → empty.
     *
     * @throws InvalidArgumentException "Title too long (N chars, max 100)" when more than
     *                                  {@link #MAX_LENGTH} code points remain (N counts code points, so
     *                                  100 emoji are allowed)
     */
    public static Optional<String> sanitize(@Nullable String title) {
        if (title == null || title.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder cleaned = new StringBuilder(title.length());
        boolean spaceDue = false;
        int length = 0;
        for (int i = 0; i < title.length(); ) {
            int codePoint = title.codePointAt(i);
            i += Character.charCount(codePoint);
            if (isRemoved(codePoint)) {
                continue;
            }
            if (PythonText.isSpace(codePoint)) {
                spaceDue = cleaned.length() > 0; // leading whitespace is trimmed, not collapsed
                continue;
            }
            if (spaceDue) {
                cleaned.append(' ');
                length++;
                spaceDue = false;
            }
            cleaned.appendCodePoint(codePoint);
            length++;
        }
        if (length == 0) {
            return Optional.empty();
        }
        if (length > MAX_LENGTH) {
            throw new InvalidArgumentException("Title too long (" + length + " chars, max " + MAX_LENGTH + ")");
        }
        return Optional.of(cleaned.toString());
    }

    private static boolean isRemoved(int c) {
        return c <= 0x08 || c == 0x0B || c == 0x0C || (c >= 0x0E && c <= 0x1F) || c == 0x7F
                || (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069)
                || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFC);
    }
}
