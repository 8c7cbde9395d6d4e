package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.SearchTerms;
import dev.hermes.state.core.backend.SearchTerms.Term;

import java.util.List;
import java.util.Optional;

/**
 * The parsed query ({@link SearchTerms}) as an FTS5 MATCH expression that SQLite accepts and that finds
 * what the words say: every term that is not a plain FTS5 bareword (ASCII letters, digits, {@code _},
 * any non-ASCII character), and every phrase, is quoted with inner quotes doubled, so it becomes the
 * phrase of its own tokens: {@code foo@bar.com} → {@code "foo@bar.com"} matches "foo", "bar", "com" in
 * a row, exactly as the text was indexed (Hermes quotes only terms joined by {@code .} or {@code -},
 * and fails on the rest); a trailing {@code *} stays outside the quotes as a prefix query. An
 * expression that valid FTS5 already writes the simple way comes out unchanged (terms joined by single
 * spaces): {@code docker OR kubernetes}, {@code "wune serai"}, {@code doc*}.
 */
final class Fts5Query {

    private Fts5Query() {
    }

    /** The safe MATCH expression for {@code text}, or empty when nothing in it can match. */
    static Optional<String> toMatchExpression(String text) {
        List<Term> terms = SearchTerms.parse(text);
        return terms.isEmpty() ? Optional.empty() : Optional.of(render(terms));
    }

    /** The MATCH expression of {@code terms} (at least one). */
    static String render(List<Term> terms) {
        StringBuilder expression = new StringBuilder();
        for (Term term : terms) {
            if (expression.length() > 0) {
                expression.append(' ');
                if (term.operator() != null) {
                    expression.append(term.operator()).append(' ');
                }
            }
            boolean quoted = term.phrase() || !isBareword(term.text()) || SearchTerms.isOperator(term.text());
            expression.append(quoted ? '"' + term.text().replace("\"", "\"\"") + '"' : term.text());
            if (term.prefix()) {
                expression.append('*');
            }
        }
        return expression.toString();
    }

    /** FTS5's bareword characters: ASCII letters and digits, '_', and every non-ASCII character. */
    private static boolean isBareword(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            boolean ascii = c < 0x80;
            if (ascii && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
                return false;
            }
        }
        return true;
    }
}
