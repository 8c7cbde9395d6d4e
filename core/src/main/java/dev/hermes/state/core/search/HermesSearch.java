package dev.hermes.state.core.search;

import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.search.SearchTerms.Term;
import dev.hermes.state.core.text.PythonText;

import java.sql.SQLException;
import java.util.List;

/**
 * What {@code search_messages} does, whatever the engine: a blank query (or a limit of 0) finds
 * nothing; the parsed terms are searched in the full-text index; when that finds nothing and the
 * text holds CJK (which the default tokenizer indexes as whole runs), Hermes' substring fallback runs
 * instead. An engine supplies the two {@link Pages}.
 */
public final class HermesSearch {
    /** Longest content of a context message, in code points (Python's {@code str[:200]}). */
    public static final int CONTEXT_LENGTH = 200;

    private HermesSearch() {
    }

    /** The two kinds of result page an engine runs; both honour the query's filters, limit and offset. */
    public interface Pages {
        /** The page of messages matching {@code terms} in the full-text index, by relevance. */
        List<SearchHit> matching(SearchQuery query, List<Term> terms) throws SQLException;

        /** Hermes' fallback: the page of messages whose content contains {@code literal}, newest first. */
        List<SearchHit> containing(SearchQuery query, String literal) throws SQLException;
    }

    public static List<SearchHit> run(SearchQuery query, Pages pages) throws SQLException {
        String text = query.query();
        if (text == null || PythonText.isBlank(text) || query.limit() == 0) {
            return List.of();
        }
        List<Term> terms = SearchTerms.parse(text);
        List<SearchHit> hits = terms.isEmpty() ? List.of() : pages.matching(query, terms);
        if (hits.isEmpty() && Cjk.containsCjk(text) && !hasEarlierHits(query, terms, pages)) {
            String literal = withoutSurroundingQuotes(text);
            return literal.isEmpty() ? List.of() : pages.containing(query, literal);
        }
        return hits;
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
        SearchQuery firstHit = new SearchQuery(query.query(), query.sourceFilter(), query.excludeSources(),
                query.roleFilter(), 1, 0);
        return !pages.matching(firstHit, terms).isEmpty();
    }

    /** Hermes' q for the LIKE fallback: the query stripped of whitespace and of surrounding double quotes. */
    static String withoutSurroundingQuotes(String text) {
        String stripped = PythonText.strip(text);
        int start = 0;
        int end = stripped.length();
        while (start < end && stripped.charAt(start) == '"') {
            start++;
        }
        while (end > start && stripped.charAt(end - 1) == '"') {
            end--;
        }
        return PythonText.strip(stripped.substring(start, end));
    }
}
