package dev.hermes.state.core.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Today's agent's query for the trigram index: its words, each a quoted substring, with the words it
 * takes for operators ({@code AND}, {@code OR}, {@code NOT} in any case) left as they are; FTS5 reads
 * only the upper-case ones as operators, the others as words to look for. {@link #match()} is that
 * text, as the agent sends it; {@link #groups()} is what it means (NOT binds closest, then AND or
 * juxtaposition, then OR): the messages of at least one group, which hold each of its positive words
 * and none of its negated ones. Built only when FTS5 would accept it (no operator first, last or next
 * to another one); otherwise the agent's statement fails and its substring search runs instead.
 *
 * @param match  the MATCH expression
 * @param groups the alternatives, each a conjunction of words
 */
public record TrigramExpression(String match, List<List<Word>> groups) {

    public TrigramExpression {
        groups = groups.stream().map(List::copyOf).toList();
    }

    /** A word of a group: the text to find (a substring, case aside) and whether it must be absent instead. */
    public record Word(String text, boolean negated) {
    }

    /** The expression of the agent's words (its query text split on whitespace); empty when FTS5 would refuse it. */
    static Optional<TrigramExpression> of(List<String> words) {
        List<String> parts = new ArrayList<>(words.size());
        List<List<Word>> groups = new ArrayList<>();
        List<Word> group = new ArrayList<>();
        String pendingOperator = null;
        boolean expectingWord = true;
        for (String word : words) {
            if (HermesSearch.isOperatorWord(word)) {
                parts.add(word);
                if (SearchTerms.isOperator(word)) { // upper case: FTS5's operator
                    if (expectingWord) {
                        return Optional.empty();
                    }
                    pendingOperator = word;
                    expectingWord = true;
                    continue;
                }
                // any other case: a word FTS5 looks for, written without quotes
            } else {
                parts.add('"' + word.replace("\"", "\"\"") + '"');
            }
            if ("OR".equals(pendingOperator)) {
                groups.add(group);
                group = new ArrayList<>();
            }
            group.add(new Word(word, "NOT".equals(pendingOperator)));
            pendingOperator = null;
            expectingWord = false;
        }
        if (expectingWord) {
            return Optional.empty();
        }
        groups.add(group);
        return Optional.of(new TrigramExpression(String.join(" ", parts), groups));
    }
}
