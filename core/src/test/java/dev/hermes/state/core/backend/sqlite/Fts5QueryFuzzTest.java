package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.PlainSqlWriter;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Thousands of generated queries built from FTS5's special characters, operators, quotes, CJK, emoji,
 * control characters and corpus words, run against a real FTS5 table: none may raise. Seeded:
 * {@code -Dfuzz.seed=N} replays a run (every failure names its seed), {@code -Dfuzz.queries=N} runs more. And every word, e-mail address, dotted
 * version and hyphenated name of the corpus is found by the search, written bare or wrapped in noise.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Fts5QueryFuzzTest {
    private static final long SEED = Long.getLong("fuzz.seed", 20260315L);
    private static final int QUERIES = Integer.getInteger("fuzz.queries", 3000);
    private static final int MESSAGES = 300;

    private static final List<String> SPECIALS = List.of("+", "{", "}", "(", ")", "\"", "^", "*", ":", "-", ".", "@",
            "#", "$", "%", "/", "'", ",", ";", "=", "[", "]", "\\", "!", "?", "&", "|", "~", "<", ">", "`", "_", "\"\"",
            "**", "--", "::", "''", "\u001a");
    private static final List<String> OPERATORS = List.of("AND", "OR", "NOT", "NEAR", "and", "or", "not", "near",
            "NEAR(", "NEAR/2", "AND OR", "OR NOT", "NOT AND", "content:", "-content:", "{content}:", "rank", "rowid");
    private static final List<String> CJK = List.of("数据库", "迁移", "数据库迁移", "データ", "移行", "데이터", "백업", "。",
            "、", "「", "」", "\u3000", "ア", "가", "\ud840\udc00");
    private static final List<String> EMOJI = List.of("🚀", "🎉", "😀", "👨‍👩‍👧", "🇯🇵", "✅", "🐛", "1️⃣");
    private static final List<String> ODD = List.of("\u0000", "\u0001", "\u001b", "\u007f", "\u0085", "\t", "\n", "\r",
            "\u000b", "\u000c", "\u00a0", "\u2028", "\u2029", "\u200b", "\u200d", "\u202e", "\ufeff", "\ufffd",
            "\ue000", "e\u0301", "\u0301", "\u19b0", "\ud800", "\udfff", "\u0378", "ß", "İ", "ﬁ", "Ⅻ", "²");
    private static final List<String> WHITESPACE = List.of(" ", " ", " ", "  ", "\t", "\u3000", "\u00a0", "");

    private final Random corpusRandom = new Random(42);
    private final List<String> words = new ArrayList<>();
    private final List<String> corpusTerms = new ArrayList<>();
    /** Each term of the corpus (words, e-mail addresses, versions, names) → the messages containing it. */
    private final Map<String, Set<Long>> containing = new LinkedHashMap<>();

    private Connection connection;
    private Transaction reader;

    @BeforeAll
    void buildCorpus(@TempDir Path dir) throws SQLException {
        connection = SearchDatabases.open(SearchDatabases.newDatabase(dir));
        reader = SearchDatabases.reader(connection);
        Set<String> vocabulary = new LinkedHashSet<>();
        while (vocabulary.size() < 80) {
            String word = randomWord(corpusRandom);
            // a leading/trailing and/or/not is dropped by Hermes' rule: such a word alone cannot be searched
            if (!Set.of("and", "or", "not").contains(word)) {
                vocabulary.add(word);
            }
        }
        words.addAll(vocabulary);
        for (int i = 0; i < 40; i++) {
            corpusTerms.add(word() + "@" + word() + "." + List.of("com", "org", "io").get(corpusRandom.nextInt(3)));
            corpusTerms.add(corpusRandom.nextInt(20) + "." + corpusRandom.nextInt(20) + "." + corpusRandom.nextInt(100));
            corpusTerms.add("v" + corpusRandom.nextInt(10) + "." + corpusRandom.nextInt(10));
            corpusTerms.add(word() + "-" + word() + (corpusRandom.nextBoolean() ? "-" + word() : ""));
            corpusTerms.add(word() + "_" + word());
            corpusTerms.add(word() + "'s");
            corpusTerms.add(Character.toUpperCase(word().charAt(0)) + word());
        }
        corpusTerms.addAll(words);

        connection.setAutoCommit(false);
        try (PlainSqlWriter writer = new PlainSqlWriter(connection)) {
            for (int s = 0; s < 10; s++) {
                writer.session("fuzz-" + s, List.of("cli", "telegram", "discord").get(s % 3), 1000 + s);
            }
            for (int m = 0; m < MESSAGES; m++) {
                List<String> parts = new ArrayList<>();
                List<String> terms = new ArrayList<>();
                int length = 6 + corpusRandom.nextInt(15);
                for (int p = 0; p < length; p++) {
                    int kind = corpusRandom.nextInt(10);
                    if (kind < 6) {
                        String term = corpusTerms.get(corpusRandom.nextInt(corpusTerms.size()));
                        parts.add(term);
                        terms.add(term);
                    } else if (kind < 8) {
                        parts.add(pick(corpusRandom, CJK) + pick(corpusRandom, EMOJI));
                    } else {
                        parts.add(pick(corpusRandom, List.of(",", ".", "!", "?", "—", "(see)", "#12", "$5", "100%")));
                    }
                }
                long id = writer.message("fuzz-" + (m % 10), m % 2 == 0 ? "user" : "assistant", String.join(" ", parts),
                        2000 + m);
                for (String term : terms) {
                    containing.computeIfAbsent(term, key -> new TreeSet<>()).add(id);
                }
            }
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    @AfterAll
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void noGeneratedQueryRaises() throws SQLException {
        Random random = new Random(SEED);
        int nonEmpty = 0;
        try (PreparedStatement match = connection.prepareStatement(
                "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?")) {
            for (int i = 0; i < QUERIES; i++) {
                String query = generateQuery(random);
                Optional<String> expression = Fts5Query.toMatchExpression(query);
                try {
                    if (expression.isPresent()) {
                        nonEmpty++;
                        match.setString(1, expression.get());
                        try (ResultSet count = match.executeQuery()) {
                            count.next();
                        }
                    }
                    if (i % 20 == 0) {
                        SearchDatabases.search(reader, SearchQuery.builder(query).limit(5).build());
                    }
                } catch (RuntimeException | SQLException failure) {
                    fail("seed " + SEED + ", query #" + i + " " + visible(query) + " -> "
                            + expression.map(Fts5QueryFuzzTest::visible).orElse("(none)") + ": " + failure, failure);
                }
            }
        }
        // the generator must exercise the database, not only the "nothing to match" path
        assertTrue(nonEmpty > QUERIES / 2, "seed " + SEED + ": only " + nonEmpty + " queries reached FTS5");
    }

    /** Each term bare, and once more in a (seeded) random one of the noisy ways people type it. */
    @Test
    void everyCorpusTermIsFound() {
        assertEquals(MESSAGES, containing.values().stream().flatMap(Set::stream).distinct().count());
        Map<String, UnaryOperator<String>> noisy = new LinkedHashMap<>();
        noisy.put("parenthesised", term -> "(" + term + ")");
        noisy.put("unbalanced quote", term -> "\"" + term);
        noisy.put("quoted", term -> "\"" + term + "\"");
        noisy.put("punctuated", term -> term + "?!");
        noisy.put("among noise", term -> "$ % " + term + " ; =");
        noisy.put("after dangling operators", term -> "AND " + term + " OR");
        noisy.put("dash-led", term -> "-" + term);
        noisy.put("hash-led", term -> "#" + term);
        List<String> noiseKinds = new ArrayList<>(noisy.keySet());
        Random random = new Random(SEED);
        List<String> misses = new ArrayList<>();
        containing.forEach((term, messages) -> {
            String noise = pick(random, noiseKinds);
            for (String query : List.of(term, noisy.get(noise).apply(term))) {
                Set<Long> found = SearchDatabases.search(reader, SearchQuery.builder(query).limit(Integer.MAX_VALUE).build())
                        .stream().map(SearchHit::id).collect(Collectors.toSet());
                if (!found.containsAll(messages)) {
                    misses.add("seed " + SEED + ": " + visible(query) + " expected " + messages + ", found " + new TreeSet<>(found));
                }
            }
        });
        assertEquals(List.of(), misses);
    }

    private String generateQuery(Random random) {
        int pieces = random.nextInt(100) == 0 ? 150 + random.nextInt(300) : 1 + random.nextInt(12);
        StringBuilder query = new StringBuilder();
        for (int p = 0; p < pieces; p++) {
            query.append(switch (random.nextInt(9)) {
                case 0, 1 -> pick(random, SPECIALS);
                case 2 -> pick(random, OPERATORS);
                case 3 -> pick(random, CJK);
                case 4 -> pick(random, EMOJI);
                case 5 -> pick(random, ODD);
                case 6 -> pick(random, corpusTerms);
                default -> pick(random, words);
            });
            query.append(pick(random, WHITESPACE));
        }
        return query.toString();
    }

    private String word() {
        return words.get(corpusRandom.nextInt(words.size()));
    }

    private static String randomWord(Random random) {
        StringBuilder word = new StringBuilder();
        int length = 2 + random.nextInt(7);
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** The query with control and invisible characters spelled out, for failure messages. */
    private static String visible(String text) {
        StringBuilder out = new StringBuilder("«");
        text.chars().forEach(c -> {
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || Character.isSurrogate((char) c)
                    || Character.getType(c) == Character.FORMAT) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append((char) c);
            }
        });
        return out.append('»').toString();
    }
}
