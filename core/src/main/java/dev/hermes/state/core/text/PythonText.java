package dev.hermes.state.core.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Python's notion of whitespace ({@code str.isspace}, {@code str.strip}, {@code \s} in {@code re}),
 * which Hermes' text rules use: titles, the listing's preview, the search query. The one definition;
 * every rule works on code points.
 */
public final class PythonText {

    private PythonText() {
    }

    /**
     * True for the code points Python's {@code str.isspace()} accepts: Java's whitespace plus the
     * no-break spaces (U+00A0, U+2007, U+202F) and NEXT LINE (U+0085).
     */
    public static boolean isSpace(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || codePoint == 0x85;
    }

    /** {@code str.strip()}: removes Python whitespace from both ends. */
    public static String strip(String text) {
        int start = 0;
        int end = text.length();
        while (start < end) {
            int codePoint = text.codePointAt(start);
            if (!isSpace(codePoint)) {
                break;
            }
            start += Character.charCount(codePoint);
        }
        while (end > start) {
            int codePoint = text.codePointBefore(end);
            if (!isSpace(codePoint)) {
                break;
            }
            end -= Character.charCount(codePoint);
        }
        return text.substring(start, end);
    }

    /** {@code not text.strip()}: empty or only Python whitespace. */
    public static boolean isBlank(String text) {
        return text.codePoints().allMatch(PythonText::isSpace);
    }

    /** {@code str.split()}: the runs of non-whitespace, in order (none for a blank text). */
    public static List<String> split(String text) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            if (isSpace(codePoint)) {
                if (start >= 0) {
                    words.add(text.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
            i += Character.charCount(codePoint);
        }
        if (start >= 0) {
            words.add(text.substring(start));
        }
        return words;
    }
}
