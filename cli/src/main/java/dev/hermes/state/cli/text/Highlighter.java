package dev.hermes.state.cli.text;

import java.util.Locale;

/**
 * Shows the matches inside a search snippet. The store marks them the way Hermes does,
 * {@code >>>match<<<} (FTS5 {@code snippet()}); in a terminal the markers become bold yellow, when
 * the output is piped they stay as they are, so scripts and {@code grep} see Hermes' own format.
 */
public final class Highlighter {
    public static final String OPEN = ">>>";
    public static final String CLOSE = "<<<";

    private static final String ANSI_MATCH = "\u001B[1;33m";
    private static final String ANSI_RESET = "\u001B[0m";

    private final boolean ansi;

    private Highlighter(boolean ansi) {
        this.ansi = ansi;
    }

    /** Terminal colours. */
    public static Highlighter ansi() {
        return new Highlighter(true);
    }

    /** Plain text with Hermes' {@code >>>}/{@code <<<} markers. */
    public static Highlighter markers() {
        return new Highlighter(false);
    }

    public static Highlighter of(boolean colors) {
        return colors ? ansi() : markers();
    }

    public boolean isAnsi() {
        return ansi;
    }

    /** The snippet on one line with its marked matches rendered for the output. */
    public String render(String snippet) {
        String line = Table.singleLine(snippet).replaceAll(" {2,}", " ").strip();
        if (!ansi) {
            return line;
        }
        StringBuilder out = new StringBuilder(line.length() + 16);
        boolean open = false;
        for (int i = 0; i < line.length(); ) {
            if (!open && line.startsWith(OPEN, i)) {
                out.append(ANSI_MATCH);
                open = true;
                i += OPEN.length();
            } else if (open && line.startsWith(CLOSE, i)) {
                out.append(ANSI_RESET);
                open = false;
                i += CLOSE.length();
            } else {
                out.append(line.charAt(i++));
            }
        }
        if (open) {
            out.append(ANSI_RESET);
        }
        return out.toString();
    }

    /** Text in bold (ANSI) or unchanged (plain). */
    public String bold(String text) {
        return ansi ? "\u001B[1m" + text + ANSI_RESET : text;
    }

    /** Text dimmed (ANSI) or unchanged (plain). */
    public String dim(String text) {
        return ansi ? "\u001B[2m" + text + ANSI_RESET : text;
    }

    /**
     * Adds markers around the occurrences of {@code query} (case-insensitive, surrounding quotes
     * ignored) in a snippet that has none: the CJK fallback search returns a plain 120-character
     * excerpt, and its hits deserve a highlight too.
     */
    public static String markOccurrences(String snippet, String query) {
        if (snippet == null || query == null || snippet.contains(OPEN)) {
            return snippet;
        }
        String needle = query.strip();
        if (needle.length() >= 2 && needle.startsWith("\"") && needle.endsWith("\"")) {
            needle = needle.substring(1, needle.length() - 1);
        }
        if (needle.isEmpty()) {
            return snippet;
        }
        String haystack = snippet.toLowerCase(Locale.ROOT);
        String lowerNeedle = needle.toLowerCase(Locale.ROOT);
        if (haystack.length() != snippet.length() || lowerNeedle.length() != needle.length()) {
            haystack = snippet;
            lowerNeedle = needle;
        }
        StringBuilder out = new StringBuilder(snippet.length() + 12);
        int from = 0;
        for (int at = haystack.indexOf(lowerNeedle); at >= 0; at = haystack.indexOf(lowerNeedle, from)) {
            out.append(snippet, from, at).append(OPEN).append(snippet, at, at + needle.length()).append(CLOSE);
            from = at + needle.length();
        }
        return out.append(snippet, from, snippet.length()).toString();
    }
}
