package dev.hermes.state.core.backend;

import dev.hermes.state.core.text.PythonText;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Today's agent's query text after its sanitizer ({@code SessionDB._sanitize_fts5_query} at schema 17),
 * character for character: what decides whether a search is a CJK one and how its CJK paths read it
 * (the trigram expression, the LIKE tokens). The full-text path does not run this text: it runs
 * {@link SearchTerms}, which finds the same messages wherever the agent's expression is valid FTS5 and
 * does not fail where it is not.
 *
 * <p>The rules, in order: the input is cut to {@value #MAX_QUERY_LENGTH} code points; balanced
 * {@code "…"} phrases are set aside (an unbalanced quote becomes a space); {@code + { } ( ) : " ^}
 * become spaces; runs of {@code *} become one and a {@code *} that starts a word is dropped; one leading
 * and one trailing {@code AND}/{@code OR}/{@code NOT} (any case) are dropped; words joined by
 * {@code .}, {@code _} or {@code -} are quoted; the phrases come back; the result is stripped.
 */
final class HermesSanitizer {
    /** The agent's cap on the query, in code points, before any other rule. */
    static final int MAX_QUERY_LENGTH = 2048;

    private static final String SPECIAL = "+{}():\"^";
    /** Python's {@code \w} (letters, numbers, underscore) as a Java class. */
    private static final String WORD = "[\\p{L}\\p{N}_]";
    private static final Pattern JOINED_WORDS =
            Pattern.compile("(?<!" + WORD + ")(" + WORD + "+(?:[._-]" + WORD + "+)+)(?!" + WORD + ")");
    private static final String[] OPERATORS = {"AND", "OR", "NOT"};

    private HermesSanitizer() {
    }

    /** The first {@value #MAX_QUERY_LENGTH} code points of {@code text} (Python's {@code text[:2048]}). */
    static String capped(String text) {
        if (text.codePointCount(0, text.length()) <= MAX_QUERY_LENGTH) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, MAX_QUERY_LENGTH));
    }

    /** The sanitized text of {@code text} (empty when nothing is left). */
    static String sanitize(String text) {
        String query = capped(text);
        List<String> phrases = new ArrayList<>();
        StringBuilder pieces = new StringBuilder(query.length());
        int i = 0;
        while (i < query.length()) {
            char c = query.charAt(i);
            if (c != '"') {
                pieces.append(c);
                i++;
                continue;
            }
            int end = query.indexOf('"', i + 1);
            if (end < 0) {
                pieces.append(' ');
                i++;
                continue;
            }
            phrases.add(query.substring(i, end + 1));
            pieces.append(placeholder(phrases.size() - 1));
            i = end + 1;
        }
        StringBuilder spaced = new StringBuilder(pieces.length());
        pieces.codePoints().forEach(codePoint -> spaced.appendCodePoint(SPECIAL.indexOf(codePoint) >= 0 ? ' ' : codePoint));
        String sanitized = withoutWordStartingStars(spaced.toString().replaceAll("\\*+", "*"));
        sanitized = withoutLeadingOperator(PythonText.strip(sanitized));
        sanitized = withoutTrailingOperator(PythonText.strip(sanitized));
        sanitized = JOINED_WORDS.matcher(sanitized).replaceAll(match -> Matcher.quoteReplacement('"' + match.group(1) + '"'));
        for (int n = 0; n < phrases.size(); n++) {
            sanitized = sanitized.replace(placeholder(n), phrases.get(n));
        }
        return PythonText.strip(sanitized);
    }

    private static String placeholder(int n) {
        return "\u0000Q" + n + "\u0000";
    }

    /** {@code re.sub(r"(^|\s)\*", r"\1", text)}: a star at the start or after whitespace goes. */
    private static String withoutWordStartingStars(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int previous = -1;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            boolean wordStart = previous < 0 || PythonText.isSpace(previous);
            if (!(codePoint == '*' && wordStart)) {
                out.appendCodePoint(codePoint);
            }
            // the star removed did not become the "previous" of the next character: matches never overlap,
            // and a removed star's successor is checked against the star (not a space): "  **x" keeps none
            previous = codePoint;
            i += Character.charCount(codePoint);
        }
        return out.toString();
    }

    /** {@code re.sub(r"(?i)^(AND|OR|NOT)\b\s*", "", text)}. */
    private static String withoutLeadingOperator(String text) {
        for (String operator : OPERATORS) {
            if (text.regionMatches(true, 0, operator, 0, operator.length())
                    && (text.length() == operator.length() || !isWord(text.codePointAt(operator.length())))) {
                int end = operator.length();
                while (end < text.length() && PythonText.isSpace(text.codePointAt(end))) {
                    end += Character.charCount(text.codePointAt(end));
                }
                return text.substring(end);
            }
        }
        return text;
    }

    /** {@code re.sub(r"(?i)\s+(AND|OR|NOT)\s*$", "", text)} on a stripped text. */
    private static String withoutTrailingOperator(String text) {
        for (String operator : OPERATORS) {
            int start = text.length() - operator.length();
            if (start > 0 && text.regionMatches(true, start, operator, 0, operator.length())
                    && PythonText.isSpace(text.codePointBefore(start))) {
                int end = start;
                while (end > 0 && PythonText.isSpace(text.codePointBefore(end))) {
                    end -= Character.charCount(text.codePointBefore(end));
                }
                return text.substring(0, end);
            }
        }
        return text;
    }

    /** Python's {@code \w}: a letter, a number or the underscore. */
    static boolean isWord(int codePoint) {
        if (codePoint == '_') {
            return true;
        }
        return switch (Character.getType(codePoint)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }
}
