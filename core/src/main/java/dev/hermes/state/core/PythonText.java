package dev.hermes.state.core;

/** Python's notion of whitespace ({@code str.isspace}, {@code str.strip}), which Hermes' text rules use. */
final class PythonText {

    private PythonText() {
    }

    /**
     * True for the code points Python's {@code str.isspace()} accepts: Java's whitespace plus the
     * no-break spaces (U+00A0, U+2007, U+202F) and NEXT LINE (U+0085).
     */
    static boolean isSpace(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || codePoint == 0x85;
    }

    /** {@code str.strip()}: removes Python whitespace from both ends. */
    static String strip(String text) {
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
}
