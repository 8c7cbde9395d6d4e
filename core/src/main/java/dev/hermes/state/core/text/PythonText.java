package dev.hermes.state.core.text;

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
}
