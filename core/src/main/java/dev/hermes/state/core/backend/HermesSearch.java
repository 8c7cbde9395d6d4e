package dev.hermes.state.core.backend;

import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.backend.SearchTerms.Term;
import dev.hermes.state.core.text.PythonText;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@code search_messages} does, whatever the engine. An engine supplies the {@link Pages}.
 *
 * <p>Version 6: a blank query (or a limit of 0) finds nothing; the parsed terms are searched in the
 * full-text index; when that finds nothing and the text holds CJK (which the default tokenizer indexes
 * as whole runs), Hermes' substring fallback runs instead.
 *
 * <p>Today's agent routes by the text itself: a query without CJK goes to the full-text index; one
 * with CJK goes to the trigram index when every CJK word of it has at least 3 CJK characters (each word
 * a quoted substring, {@code AND}/{@code OR}/{@code NOT} kept), and otherwise (or when the trigram
 * expression is not valid) to a substring search of the content, tool name and tool calls, one
 * alternative per word, newest first. Rewound messages (inactive, not compacted) are left out of both
 * indexes' results unless asked for, but not out of the substring search (as in the agent).
 */
final class HermesSearch {
    /** Longest content of a context message, in code points (Python's {@code str[:200]}). */
    static final int CONTEXT_LENGTH = 200;
    /** The fewest CJK characters a word needs for the trigram index (three characters make one trigram). */
    static final int TRIGRAM_LENGTH = 3;

    private HermesSearch() {
    }

    /** The kinds of result page an engine runs; all honour the query's filters, limit and offset. */
    interface Pages {
        /** The page of messages matching {@code terms} in the full-text index, by relevance (or the query's order). */
        List<SearchHit> matching(SearchQuery query, List<Term> terms) throws SQLException;

        /** Version 6's fallback: the page of messages whose content contains {@code literal}, newest first. */
        List<SearchHit> containing(SearchQuery query, String literal) throws SQLException;

        /**
         * The page of messages the trigram expression matches (by relevance, or the query's order); empty
         * when the engine cannot run it (no trigram index), and the agent's substring search runs instead.
         */
        Optional<List<SearchHit>> trigram(SearchQuery query, TrigramExpression expression) throws SQLException;

        /**
         * Today's substring search: the messages whose content, tool name or tool calls contain any of
         * {@code words} (LIKE, ASCII case aside), newest first; the snippet is cut around the first word.
         */
        List<SearchHit> containingAny(SearchQuery query, List<String> words) throws SQLException;
    }

    static List<SearchHit> run(SearchQuery query, boolean v17, Pages pages) throws SQLException {
        String text = query.query();
        if (text == null || PythonText.isBlank(text) || query.limit() == 0) {
            return List.of();
        }
        return v17 ? runV17(query, text, pages) : runV6(query, text, pages);
    }

    private static List<SearchHit> runV6(SearchQuery query, String text, Pages pages) throws SQLException {
        List<Term> terms = SearchTerms.parse(text);
        List<SearchHit> hits = terms.isEmpty() ? List.of() : pages.matching(query, terms);
        if (hits.isEmpty() && Cjk.containsCjk(text) && !hasEarlierHits(query, terms, pages)) {
            String literal = withoutSurroundingQuotes(text);
            return literal.isEmpty() ? List.of() : pages.containing(query, literal);
        }
        return hits;
    }

    private static List<SearchHit> runV17(SearchQuery query, String text, Pages pages) throws SQLException {
        String sanitized = HermesSanitizer.sanitize(text);
        if (sanitized.isEmpty()) {
            return List.of();
        }
        if (!Cjk.containsCjk(sanitized)) {
            List<Term> terms = SearchTerms.parse(HermesSanitizer.capped(text), true);
            return terms.isEmpty() ? List.of() : pages.matching(query, terms);
        }
        String raw = PythonText.strip(stripQuotes(sanitized));
        List<String> words = splitOnWhitespace(raw);
        boolean everyCjkWordLongEnough = words.stream()
                .filter(word -> !isOperatorWord(word) && Cjk.containsCjk(word))
                .allMatch(word -> Cjk.count(word) >= TRIGRAM_LENGTH);
        if (Cjk.count(raw) >= TRIGRAM_LENGTH && everyCjkWordLongEnough) {
            Optional<TrigramExpression> expression = TrigramExpression.of(words);
            if (expression.isPresent()) {
                Optional<List<SearchHit>> hits = pages.trigram(query, expression.get());
                if (hits.isPresent()) {
                    return hits.get();
                }
            }
        }
        List<String> literals = new ArrayList<>();
        for (String word : words) {
            if (!isOperatorWord(word)) {
                literals.add(word);
            }
        }
        if (literals.isEmpty()) {
            literals.add(raw);
        }
        return pages.containingAny(query, literals);
    }

    /** A word the agent takes for an operator: AND, OR or NOT in any case (Python's {@code upper()}). */
    static boolean isOperatorWord(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        return upper.equals("AND") || upper.equals("OR") || upper.equals("NOT");
    }

    /** Python's {@code text.strip('"')}. */
    static String stripQuotes(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && text.charAt(start) == '"') {
            start++;
        }
        while (end > start && text.charAt(end - 1) == '"') {
            end--;
        }
        return text.substring(start, end);
    }

    /** Python's {@code text.split()}: the runs between whitespace. */
    static List<String> splitOnWhitespace(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        text.codePoints().forEach(codePoint -> {
            if (PythonText.isSpace(codePoint)) {
                if (word.length() > 0) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.appendCodePoint(codePoint);
            }
        });
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }

    /**
     * Whether the index matches something before an empty page: then the search paged past its hits and
     * the CJK fallback, meant for when "FTS finds nothing", does not apply (Hermes would switch to the
     * LIKE results at that offset, mixing two different result lists in one paging).
     */
    private static boolean hasEarlierHits(SearchQuery query, List<Term> terms, Pages pages) throws SQLException {
        if (terms.isEmpty() || query.offset() == 0) {
            return false;
        }
        SearchQuery firstHit = query.page(1, 0);
        return !pages.matching(firstHit, terms).isEmpty();
    }

    /** Hermes' q for the LIKE fallback: the query stripped of whitespace and of surrounding double quotes. */
    static String withoutSurroundingQuotes(String text) {
        return PythonText.strip(stripQuotes(PythonText.strip(text)));
    }
}
