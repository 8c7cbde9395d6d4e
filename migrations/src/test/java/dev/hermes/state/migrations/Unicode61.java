package dev.hermes.state.migrations;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What SQLite's FTS5 tokenizer (unicode61, the default, as the Hermes schema uses it) does with every
 * code point, asked of the bundled SQLite itself, and the PostgreSQL function that does the same
 * ({@code messages_search_tokens} in PostgreSQL's changelog, version 6).
 *
 * <p>Probed facts: a code point either starts and continues a token, only continues one (25 combining
 * diacritics, which are then dropped), or separates tokens; inside a token each code point is folded to
 * at most one code point (case and, for Latin letters, diacritics). Run {@link #main} to print the
 * changeset's function after an upgrade of sqlite-jdbc; {@code PostgresTokenizerTest} fails when the
 * changelog and the bundled SQLite disagree.
 */
final class Unicode61 {
    static final int MAX_CODE_POINT = Character.MAX_CODE_POINT;
    /** Probes per FTS5 row: few rows, each tokenized at once. */
    static final int BLOCK = 512;

    /** Code points that start (and continue) a token. */
    final BitSet starts = new BitSet(MAX_CODE_POINT + 1);
    /** Code points that only continue a token. */
    final BitSet continues = new BitSet();
    /** The fold of every code point of a token whose fold is not itself ("" = dropped). */
    final TreeMap<Integer, String> folds = new TreeMap<>();

    private Unicode61() {
    }

    /** Every code point except NUL and the surrogates, which text never holds. */
    static boolean probed(int codePoint) {
        return codePoint > 0 && (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE);
    }

    static String chars(int codePoint) {
        return new String(Character.toChars(codePoint));
    }

    /** Asks the bundled SQLite, in an in-memory database. */
    static Unicode61 probe() throws SQLException {
        Unicode61 tables = new Unicode61();
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            // inside a token: "a<cp>b" is one token a+fold+b, or the two tokens a and b
            List<List<String>> inside = tokenize(sqlite, codePoint -> "a" + chars(codePoint) + "b", allProbed());
            for (int i = 0, codePoint = nextProbed(0); codePoint >= 0; i++, codePoint = nextProbed(codePoint + 1)) {
                List<String> tokens = inside.get(i);
                if (tokens.equals(List.of("a", "b"))) {
                    continue;
                }
                String token = tokens.size() == 1 ? tokens.get(0) : "";
                if (!token.startsWith("a") || !token.endsWith("b") || token.length() < 2) {
                    throw new IllegalStateException("Unexpected tokens of U+" + Integer.toHexString(codePoint) + ": " + tokens);
                }
                tables.starts.set(codePoint);
                String fold = token.substring(1, token.length() - 1);
                if (!fold.equals(chars(codePoint))) {
                    tables.folds.put(codePoint, fold);
                }
            }
            // at a token's start: "x <cp>b" is x then fold+b, or x then b when the code point only continues tokens
            List<Integer> tokenChars = tables.starts.stream().boxed().toList();
            List<List<String>> atStart = tokenize(sqlite, codePoint -> "x " + chars(codePoint) + "b", tokenChars);
            for (int i = 0; i < tokenChars.size(); i++) {
                int codePoint = tokenChars.get(i);
                String fold = tables.folds.getOrDefault(codePoint, chars(codePoint));
                List<String> tokens = atStart.get(i);
                if (tokens.equals(List.of("x", "b")) && fold.isEmpty()) {
                    tables.starts.clear(codePoint);
                    tables.continues.set(codePoint);
                } else if (!tokens.equals(List.of("x", fold + "b"))) {
                    throw new IllegalStateException("Unexpected tokens of U+" + Integer.toHexString(codePoint) + " at a"
                            + " token's start: " + tokens);
                }
            }
        }
        return tables;
    }

    /** What SQLite's FTS5 makes of {@code texts}, one token list per text. */
    static List<List<String>> sqliteTokens(Connection sqlite, List<String> texts) throws SQLException {
        try (Statement statement = sqlite.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS probe");
            statement.execute("DROP TABLE IF EXISTS probe_tokens");
            statement.execute("CREATE VIRTUAL TABLE probe USING fts5(content)");
            statement.execute("CREATE VIRTUAL TABLE probe_tokens USING fts5vocab(probe, instance)");
        }
        try (PreparedStatement insert = sqlite.prepareStatement("INSERT INTO probe(rowid, content) VALUES (?, ?)")) {
            for (int i = 0; i < texts.size(); i++) {
                insert.setInt(1, i + 1);
                insert.setString(2, texts.get(i));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        List<List<String>> tokens = new ArrayList<>();
        texts.forEach(text -> tokens.add(new ArrayList<>()));
        try (Statement statement = sqlite.createStatement();
             ResultSet rows = statement.executeQuery("SELECT doc, term FROM probe_tokens ORDER BY doc, offset")) {
            while (rows.next()) {
                tokens.get(rows.getInt(1) - 1).add(rows.getString(2));
            }
        }
        return tokens;
    }

    @FunctionalInterface
    interface Probe {
        String text(int codePoint);
    }

    /**
     * The tokens of {@code probe}'s text for each code point, {@link #BLOCK} probes per row joined by
     * " | " (no token character), split back per probe: a probe's tokens are "a" then "b" (two), or
     * one token, for the "a..b" probes; always two for the "x .." probes.
     */
    private static List<List<String>> tokenize(Connection sqlite, Probe probe, List<Integer> codePoints) throws SQLException {
        List<String> rows = new ArrayList<>();
        for (int from = 0; from < codePoints.size(); from += BLOCK) {
            StringBuilder row = new StringBuilder();
            for (int codePoint : codePoints.subList(from, Math.min(from + BLOCK, codePoints.size()))) {
                row.append(probe.text(codePoint)).append(" | ");
            }
            rows.add(row.toString());
        }
        boolean twoAlways = probe.text('q').startsWith("x ");
        List<List<String>> perProbe = new ArrayList<>();
        for (List<String> rowTokens : sqliteTokens(sqlite, rows)) {
            for (int next = 0; next < rowTokens.size(); ) {
                String first = rowTokens.get(next++);
                perProbe.add(twoAlways || first.equals("a") ? List.of(first, rowTokens.get(next++)) : List.of(first));
            }
        }
        if (perProbe.size() != codePoints.size()) {
            throw new IllegalStateException(perProbe.size() + " probes read back for " + codePoints.size() + " code points");
        }
        return perProbe;
    }

    private static List<Integer> allProbed() {
        List<Integer> codePoints = new ArrayList<>();
        for (int codePoint = nextProbed(0); codePoint >= 0; codePoint = nextProbed(codePoint + 1)) {
            codePoints.add(codePoint);
        }
        return codePoints;
    }

    private static int nextProbed(int from) {
        for (int codePoint = from; codePoint <= MAX_CODE_POINT; codePoint++) {
            if (probed(codePoint)) {
                return codePoint;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ the PostgreSQL function

    /** The changeset's statement: {@code messages_search_tokens(text)}, exactly as the changelog must hold it. */
    String function() {
        Map<Integer, String> nonAsciiFolds = folds.tailMap(0x80);
        StringBuilder from = new StringBuilder();
        StringBuilder to = new StringBuilder();
        StringBuilder dropped = new StringBuilder();
        nonAsciiFolds.forEach((codePoint, fold) -> {
            if (fold.isEmpty()) {
                dropped.append(escape(codePoint));
            } else {
                from.append(escape(codePoint));
                to.append(escape(fold.codePointAt(0)));
            }
        });
        BitSet foldDomain = new BitSet();
        nonAsciiFolds.keySet().forEach(foldDomain::set);
        String start = brackets(starts);
        BitSet either = (BitSet) starts.clone();
        either.or(continues);
        return """
                CREATE FUNCTION messages_search_tokens(content text) RETURNS text[]
                    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                AS $$
                SELECT coalesce(pg_catalog.array_agg(CASE WHEN token.m[1] OPERATOR(pg_catalog.~) E'%s'
                                                          THEN pg_catalog.left(pg_catalog.translate(token.m[1],
                                                              E'%s',
                                                              E'%s'), 500)
                                                          ELSE pg_catalog.left(token.m[1], 500) END ORDER BY token.n), '{}')
                FROM pg_catalog.regexp_matches(pg_catalog.translate(content, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
                    E'%s%s*', 'g') WITH ORDINALITY AS token(m, n)
                $$""".formatted(brackets(foldDomain), from.toString() + dropped, to, start, brackets(either));
    }

    /** A bracket expression of the set's code points, as ranges of E-string escapes. */
    private static String brackets(BitSet codePoints) {
        StringBuilder expression = new StringBuilder("[");
        for (int first = codePoints.nextSetBit(0); first >= 0; ) {
            int end = codePoints.nextClearBit(first);
            expression.append(escape(first));
            if (end - 1 > first) {
                expression.append('-').append(escape(end - 1));
            }
            first = codePoints.nextSetBit(end);
        }
        return expression.append(']').toString();
    }

    private static String escape(int codePoint) {
        return codePoint <= 0xFFFF ? String.format("\\u%04x", codePoint) : String.format("\\U%08x", codePoint);
    }

    /** Prints the changeset's function for the bundled SQLite. */
    public static void main(String[] args) throws SQLException {
        System.out.println(probe().function());
    }
}
