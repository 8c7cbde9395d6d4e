package dev.hermes.state.core.backend;

import dev.hermes.state.core.text.PythonText;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Hermes query language, parsed: any user text becomes the list of terms that can match, each
 * with the operator that joins it to the one before; a backend renders them in its search dialect.
 * Hermes' rules ({@code SessionDB._sanitize_fts5_query}) come first, in their order:
 * <ol>
 *   <li>balanced {@code "…"} phrases are kept intact (a {@code *} right after one makes it a prefix);</li>
 *   <li>{@code + { } ( ) " ^} become spaces (so an unbalanced quote or parenthesis is just a space);</li>
 *   <li>runs of {@code *} become one, and a {@code *} that starts a word is dropped;</li>
 *   <li>a leading or trailing bare {@code AND}/{@code OR}/{@code NOT} (any case) is dropped;</li>
 *   <li>terms joined by {@code .} or {@code -} stay one term ({@code chat-send}, {@code P2.2}).</li>
 * </ol>
 * Then what Hermes still gets wrong (it raises, and finds nothing, on {@code a AND OR b}, {@code -v},
 * {@code #438}...):
 * <ul>
 *   <li>a term without any token character (letter, digit, private-use character: what the unicode61
 *       tokenizer indexes) is dropped: {@code $}, {@code %}, {@code -}, an emoji alone would be an empty
 *       phrase, which makes an AND match nothing;</li>
 *   <li>an operator (upper-case {@code AND}, {@code OR}, {@code NOT}: other cases are words) is kept
 *       only between two terms; of consecutive operators the first one stays;</li>
 *   <li>control characters and broken UTF-16 become spaces (a NUL would cut an expression short);</li>
 *   <li>at most {@link #MAX_TERMS} terms are kept: each {@code NOT} nests the tree one level deeper and
 *       FTS5 refuses more than 256 levels.</li>
 * </ul>
 * Grouping with parentheses and column filters are not offered: {@code content:x} is one term.
 */
public final class SearchTerms {
    /** The most terms one query keeps; later ones are ignored. */
    public static final int MAX_TERMS = 100;

    private static final String SPECIAL = "+{}()\"^";
    private static final Pattern STAR_RUN = Pattern.compile("\\*+");
    private static final Pattern LEADING_STAR = Pattern.compile("^\\*");

    private SearchTerms() {
    }

    /**
     * One term of a query: a word or a {@code phrase} (the user's quotes), a {@code prefix} query when
     * a {@code *} followed it, joined to the previous term by {@code operator} ({@code AND}, {@code OR},
     * {@code NOT}; null for the first term and for the implicit AND).
     */
    public record Term(String text, boolean phrase, boolean prefix, @Nullable String operator) {
    }

    /** The terms of {@code text} that can match; empty when nothing can (null, blank, only punctuation or operators). */
    public static List<Term> parse(@Nullable String text) {
        return parse(text, false);
    }

    /**
     * As {@link #parse(String)}; with {@code v17} (today's agent's sanitizer) a {@code :} outside a phrase
     * separates words like a space (the agent strips FTS5's column operator), and an operator word left
     * alone by dropping the leading one stays (the agent drops a trailing one only after whitespace).
     */
    public static List<Term> parse(@Nullable String text, boolean v17) {
        if (text == null) {
            return List.of();
        }
        List<Item> items = lex(withoutControlCharacters(text), v17 ? SPECIAL + ":" : SPECIAL);
        dropLeadingAndTrailingOperatorWord(items, v17);
        return terms(items);
    }

    /** True for the operator words a search engine reads as operators (upper case only). */
    public static boolean isOperator(String word) {
        return word.equals("AND") || word.equals("OR") || word.equals("NOT");
    }

    /** A phrase, a word or an operator of the user's text, in order. */
    private record Item(Kind kind, String text, boolean prefix) {
        boolean isOperatorWord() {
            return kind != Kind.PHRASE && !prefix
                    && (text.equalsIgnoreCase("AND") || text.equalsIgnoreCase("OR") || text.equalsIgnoreCase("NOT"));
        }
    }

    private enum Kind { PHRASE, WORD, OPERATOR }

    private static String withoutControlCharacters(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(codePoint -> {
            int type = Character.getType(codePoint);
            out.appendCodePoint(type == Character.CONTROL || type == Character.SURROGATE ? ' ' : codePoint);
        });
        return out.toString();
    }

    /** Splits the text into balanced phrases and the words between them (Hermes steps 1-3). */
    private static List<Item> lex(String text, String special) {
        List<Item> items = new ArrayList<>();
        int position = 0;
        while (position < text.length()) {
            int open = text.indexOf('"', position);
            int close = open < 0 ? -1 : text.indexOf('"', open + 1);
            if (close < 0) {
                addWords(text.substring(position), items, special);
                break;
            }
            addWords(text.substring(position, open), items, special);
            int after = close + 1;
            boolean prefix = after < text.length() && text.charAt(after) == '*';
            items.add(new Item(Kind.PHRASE, text.substring(open + 1, close), prefix));
            // the stars after the phrase start the next words, where a leading '*' is dropped
            position = after;
        }
        return items;
    }

    private static void addWords(String segment, List<Item> items, String special) {
        StringBuilder spaced = new StringBuilder(segment.length());
        segment.codePoints().forEach(codePoint ->
                spaced.appendCodePoint(special.indexOf(codePoint) >= 0 ? ' ' : codePoint));
        for (String chunk : splitOnWhitespace(spaced.toString())) {
            if (isOperator(chunk)) {
                items.add(new Item(Kind.OPERATOR, chunk, false));
                continue;
            }
            String word = LEADING_STAR.matcher(STAR_RUN.matcher(chunk).replaceAll("*")).replaceFirst("");
            boolean prefix = word.endsWith("*");
            String core = prefix ? word.substring(0, word.length() - 1) : word;
            if (!core.isEmpty()) {
                items.add(new Item(Kind.WORD, core, prefix));
            }
        }
    }

    /** Splits on Python whitespace (the {@code \s} of Hermes' rules), not just ASCII. */
    private static List<String> splitOnWhitespace(String text) {
        List<String> chunks = new ArrayList<>();
        StringBuilder chunk = new StringBuilder();
        text.codePoints().forEach(codePoint -> {
            if (PythonText.isSpace(codePoint)) {
                if (chunk.length() > 0) {
                    chunks.add(chunk.toString());
                    chunk.setLength(0);
                }
            } else {
                chunk.appendCodePoint(codePoint);
            }
        });
        if (chunk.length() > 0) {
            chunks.add(chunk.toString());
        }
        return chunks;
    }

    /** Hermes step 4: one leading and one trailing operator word, in any case, are dropped. */
    private static void dropLeadingAndTrailingOperatorWord(List<Item> items, boolean v17) {
        if (!items.isEmpty() && items.get(0).isOperatorWord()) {
            items.remove(0);
        }
        if (items.size() > (v17 ? 1 : 0) && items.get(items.size() - 1).isOperatorWord()) {
            items.remove(items.size() - 1);
        }
    }

    /** The terms that can match, with the operators that stand between two of them. */
    private static List<Term> terms(List<Item> items) {
        List<Term> terms = new ArrayList<>();
        String pendingOperator = null;
        for (Item item : items) {
            if (item.kind() == Kind.OPERATOR) {
                if (!terms.isEmpty() && pendingOperator == null) {
                    pendingOperator = item.text();
                }
            } else if (hasTokenCharacter(item.text())) {
                if (terms.size() == MAX_TERMS) {
                    break;
                }
                terms.add(new Term(item.text(), item.kind() == Kind.PHRASE, item.prefix(),
                        terms.isEmpty() ? null : pendingOperator));
                pendingOperator = null;
            }
        }
        return terms;
    }

    /**
     * Whether unicode61 (categories L*, N*, Co) would index anything of the text. Checked against the
     * bundled SQLite for every code point below U+30000: what Java calls a letter, digit or private-use
     * character SQLite indexes too, except 21 New Tai Lue vowel signs (U+19B0-19C9). SQLite also indexes
     * unassigned code points and combining marks; a term made only of those is dropped here, which can
     * only widen a result, never empty it.
     */
    private static boolean hasTokenCharacter(String text) {
        return text.codePoints().anyMatch(codePoint -> switch (Character.getType(codePoint)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.PRIVATE_USE -> true;
            default -> false;
        });
    }
}
