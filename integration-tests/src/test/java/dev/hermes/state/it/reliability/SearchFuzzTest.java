package dev.hermes.state.it.reliability;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Search against a generated corpus (words, e-mail addresses, dotted versions, hyphenated names, code,
 * CJK, emoji): 10,000 seeded generated queries, operators and special characters included, never
 * fail; and every word, e-mail address, dotted version, hyphenated name, code token that docs/behaviour.md#search-query says must be found, and
 * whole CJK run the corpus contains finds every message that contains it when searched alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchFuzzTest {
    private static final int QUERIES = 10_000;
    private static final int SESSIONS = 12;
    private static final int MESSAGES_PER_SESSION = 35;
    /** A page size that holds every message of the corpus. */
    private static final int EVERY_MESSAGE = SESSIONS * MESSAGES_PER_SESSION;
    private static final List<String> SOURCES = List.of("cli", "telegram", "discord", "slack");
    private static final List<String> ROLES = List.of("user", "assistant", "tool", "system");

    private static final String[] SYLLABLES = {"ka", "lo", "mir", "zen", "taq", "vor", "pel", "dru", "shi", "nox",
            "bel", "quo", "rin", "sa", "tem", "ulf", "wex", "yar", "gim", "hob"};
    private static final String[] CODE = {"C++", "what's", "a:b", "-v", "#438", "foo(bar)", "x->y", "std::vector<int>",
            "arr[0]", "$HOME", "`ls -la`", "{\"k\": 1}", "path/to/file.py", "50%", "snake_case_name", "a=b;c=d"};
    private static final String[] CODE_FINDABLE = {"C++", "what's", "a:b", "-v", "#438"};
    private static final String CJK_CHARS = "数据库迁移问题服务器部署日志错误配置用户会话搜索索引"
            + "ひらがなカタカナテキスト検索한국어텍스트검색데이터";
    private static final String[] EMOJI = {"🚀", "👍🏽", "🎉", "❤️", "🇩🇪", "👨‍👩‍👧"};
    private static final String[] OPERATORS = {"AND", "OR", "NOT", "NEAR", "NEAR(", "and", "or", "not", "*", "**", "^",
            "\"", "\"\"", "(", ")", "((", "))", "{", "}", "[", "]", ":", "-", "--", "+", "++", "'", "''", "@", "#", "$", "%",
            "/", "\\", ",", ";", "=", "|", "~", "`", "!", "?", ".", "..", "&", "<", ">", "content:", "messages_fts:", "rank",
            "-content:", "NEAR(a b, 3)", "col:*", "\u0000", "\t", "\n", "\r\n", "\u200b", "\u00a0", "\u3000", "\ufeff",
            "\u202e", "\ud800", "\udc00", "e\u0301", "\uffff", "'; DROP TABLE messages; --", "%_%", "\\%"};

    @TempDir
    static Path dir;
    private StateRepository store;
    private long seed;
    private final Map<String, Set<Long>> findable = new TreeMap<>();
    private final Map<String, String> category = new LinkedHashMap<>();
    private final List<String> vocabulary = new ArrayList<>();
    private final Set<Long> messageIds = new HashSet<>();

    @BeforeAll
    void buildTheCorpus() {
        seed = Seeds.seed("search fuzz");
        Random random = new Random(seed);
        List<String> words = distinct(random, 120, () -> word(random, 2 + random.nextInt(3)));
        List<String> emails = distinct(random, 30, () -> email(random));
        List<String> versions = distinct(random, 30, () -> version(random));
        List<String> hyphenated = distinct(random, 30, () -> word(random, 2) + "-" + word(random, 2)
                + (random.nextInt(4) == 0 ? "-" + word(random, 1) : ""));
        List<String> cjk = distinct(random, 25, () -> cjkRun(random));
        store = StateRepository.open(dir.resolve("state.db"));
        for (int s = 0; s < SESSIONS; s++) {
            String session = "fuzz-" + s;
            store.createSession(NewSession.builder(session, SOURCES.get(s % SOURCES.size())).model("m" + s).build());
            List<NewMessage> messages = new ArrayList<>();
            List<List<String[]>> contents = new ArrayList<>();
            for (int m = 0; m < MESSAGES_PER_SESSION; m++) {
                List<String[]> terms = new ArrayList<>(); // {category, term}
                StringBuilder content = new StringBuilder();
                for (int t = 5 + random.nextInt(20); t > 0; t--) {
                    String[] term = switch (random.nextInt(10)) {
                        case 0, 1, 2, 3 -> new String[] {"word", pick(random, words)};
                        case 4 -> new String[] {"e-mail", pick(random, emails)};
                        case 5 -> new String[] {"version", pick(random, versions)};
                        case 6 -> new String[] {"hyphenated", pick(random, hyphenated)};
                        case 7 -> new String[] {"code", CODE[random.nextInt(CODE.length)]};
                        case 8 -> new String[] {"cjk", pick(random, cjk)};
                        default -> new String[] {"emoji", EMOJI[random.nextInt(EMOJI.length)]};
                    };
                    terms.add(term);
                    content.append(content.isEmpty() ? "" : " ").append(term[1]);
                    if (random.nextInt(6) == 0) {
                        content.append(random.nextBoolean() ? "," : ".");
                    }
                }
                messages.add(NewMessage.builder(ROLES.get(random.nextInt(ROLES.size()))).content(content.toString()).build());
                contents.add(terms);
            }
            List<Long> ids = store.appendMessages(session, messages);
            messageIds.addAll(ids);
            for (int m = 0; m < ids.size(); m++) {
                for (String[] term : contents.get(m)) {
                    vocabulary.add(term[1]);
                    if (isFindable(term[0], term[1])) {
                        findable.computeIfAbsent(term[1], key -> new LinkedHashSet<>()).add(ids.get(m));
                        category.put(term[1], term[0]);
                    }
                }
            }
        }
    }

    @AfterAll
    void close() {
        store.close();
    }

    private static boolean isFindable(String category, String term) {
        return !category.equals("emoji") && (!category.equals("code") || List.of(CODE_FINDABLE).contains(term));
    }

    @Test
    void everyWordAddressVersionAndNameInTheCorpusFindsItsMessages() {
        List<String> misses = new ArrayList<>();
        for (var term : findable.entrySet()) {
            List<Long> hits = store.searchMessages(SearchQuery.builder(term.getKey()).limit(EVERY_MESSAGE).build())
                    .stream().map(SearchHit::id).toList();
            Set<Long> missing = new LinkedHashSet<>(term.getValue());
            hits.forEach(missing::remove);
            if (!missing.isEmpty()) {
                misses.add(category.get(term.getKey()) + " " + javaString(term.getKey()) + ": " + missing.size() + " of "
                        + term.getValue().size() + " messages not found (e.g. " + missing.iterator().next() + "), "
                        + hits.size() + " hits");
            }
        }
        assertEquals(List.of(), misses, Seeds.replay(seed) + misses.size() + " of " + findable.size() + " terms");
    }

    /** Two or three characters of a CJK run are found through the LIKE fallback (docs/behaviour.md#search-cjk). */
    @Test
    void aPartOfACjkRunFindsItsMessages() {
        List<String> misses = new ArrayList<>();
        Random random = new Random(seed);
        for (var term : findable.entrySet()) {
            if (!category.get(term.getKey()).equals("cjk")) {
                continue;
            }
            String run = term.getKey();
            int length = 2 + random.nextInt(2);
            int start = random.nextInt(run.length() - length + 1);
            String part = run.substring(start, start + length);
            Set<Long> expected = new LinkedHashSet<>();
            findable.forEach((other, ids) -> {
                if (category.get(other).equals("cjk") && other.contains(part)) {
                    expected.addAll(ids);
                }
            });
            List<Long> hits = store.searchMessages(SearchQuery.builder(part).limit(EVERY_MESSAGE).build())
                    .stream().map(SearchHit::id).toList();
            if (!hits.containsAll(expected)) {
                misses.add(part + " (of " + run + "): " + hits.size() + " hits, expected at least " + expected);
            }
        }
        assertEquals(List.of(), misses, Seeds.replay(seed));
    }

    @Test
    void tenThousandGeneratedQueriesNeverFail() {
        Random random = new Random(seed ^ 0x5DEECE66DL);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < QUERIES; i++) {
            String query = query(random);
            SearchQuery.Builder search = SearchQuery.builder(query).limit(random.nextInt(51)).offset(random.nextInt(4) == 0 ? random.nextInt(10) : 0);
            switch (random.nextInt(6)) {
                case 0 -> search.sourceFilter(List.of(pick(random, SOURCES)));
                case 1 -> search.excludeSources(List.of(pick(random, SOURCES), "%"));
                case 2 -> search.roleFilter(List.of(pick(random, ROLES)));
                case 3 -> search.sourceFilter(List.of());
                default -> { }
            }
            SearchQuery built = search.build();
            try {
                List<SearchHit> hits = store.searchMessages(built);
                if (hits.size() > built.limit()) {
                    failures.add(javaString(query) + ": " + hits.size() + " hits for limit " + built.limit());
                }
                for (SearchHit hit : hits) {
                    if (!messageIds.contains(hit.id()) || hit.context().isEmpty()) {
                        failures.add(javaString(query) + ": a wrong hit " + hit);
                        break;
                    }
                }
            } catch (RuntimeException e) {
                failures.add(javaString(query) + " → " + e);
            }
        }
        assertTrue(failures.isEmpty(), Seeds.replay(seed) + failures.size() + " of " + QUERIES + " queries failed, e.g.\n"
                + String.join("\n", failures.subList(0, Math.min(25, failures.size()))));
    }

    /** One generated query: corpus terms, operators, quotes, brackets and odd characters in random mixes. */
    private String query(Random random) {
        StringBuilder query = new StringBuilder();
        int parts = 1 + random.nextInt(random.nextInt(20) == 0 ? 60 : 6);
        for (int p = 0; p < parts; p++) {
            int kind = random.nextInt(10);
            String part;
            if (kind < 4) {
                part = pick(random, vocabulary);
            } else if (kind < 7) {
                part = OPERATORS[random.nextInt(OPERATORS.length)];
            } else if (kind < 8) {
                String term = pick(random, vocabulary);
                part = term.substring(0, 1 + random.nextInt(term.length())) + (random.nextBoolean() ? "*" : "");
            } else if (kind < 9) {
                part = "\"" + pick(random, vocabulary) + (random.nextBoolean() ? " " + pick(random, vocabulary) + "\"" : "");
            } else {
                part = randomCharacters(random);
            }
            query.append(random.nextInt(4) == 0 ? "" : " ").append(part);
        }
        return random.nextInt(50) == 0 ? query.toString().repeat(20) : query.toString();
    }

    private static String randomCharacters(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
            int codePoint = switch (random.nextInt(4)) {
                case 0 -> 0x20 + random.nextInt(0x5f);          // printable ASCII
                case 1 -> random.nextInt(0x20);                 // controls
                case 2 -> 0x80 + random.nextInt(0x3000);        // Latin-1 to CJK punctuation, incl. combining marks
                default -> random.nextInt(0x110000);            // anything, surrogate halves included
            };
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }

    private static String word(Random random, int syllables) {
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < syllables; i++) {
            word.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
        }
        return word.toString();
    }

    private static String email(Random random) {
        String local = switch (random.nextInt(4)) {
            case 0 -> word(random, 2);
            case 1 -> word(random, 2) + "." + word(random, 2);
            case 2 -> word(random, 1) + random.nextInt(100);
            default -> word(random, 2) + "+" + word(random, 1);
        };
        String domain = random.nextBoolean() ? word(random, 2) + ".com" : word(random, 1) + "." + word(random, 2) + ".org";
        return local + "@" + domain;
    }

    private static String version(Random random) {
        String numbers = random.nextInt(10) + "." + random.nextInt(30) + (random.nextBoolean() ? "." + random.nextInt(100) : "");
        return switch (random.nextInt(3)) {
            case 0 -> "v" + numbers;
            case 1 -> "P" + numbers;
            default -> numbers;
        };
    }

    private static String cjkRun(Random random) {
        StringBuilder run = new StringBuilder();
        for (int i = 4 + random.nextInt(4); i > 0; i--) {
            run.append(CJK_CHARS.charAt(random.nextInt(CJK_CHARS.length())));
        }
        return run.toString();
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static List<String> distinct(Random random, int count, Supplier<String> generator) {
        Set<String> values = new LinkedHashSet<>();
        for (int attempts = 0; values.size() < count && attempts < count * 20; attempts++) {
            values.add(generator.get());
        }
        return new ArrayList<>(values);
    }

    /** A query as a Java string literal, so that a failure can be pasted into a test. */
    private static String javaString(String text) {
        StringBuilder literal = new StringBuilder("\"");
        text.chars().limit(200).forEach(c -> {
            if (c == '"' || c == '\\') {
                literal.append('\\').append((char) c);
            } else if (c < 0x20 || c > 0x7e) {
                literal.append(String.format("\\u%04x", c));
            } else {
                literal.append((char) c);
            }
        });
        return literal.append(text.length() > 200 ? "...\" (" + text.length() + " chars)" : "\"").toString();
    }
}
