package dev.hermes.state.core.backend.sqlite;

import dev.hermes.state.core.backend.SearchTerms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Fts5QueryTest {

    /** The BENCHMARK W2 queries: valid FTS5 already, so they must come out byte for byte. */
    static List<String> benchmarkQueries() {
        return List.of("wune", "serai", "sistefout", "poufouten", "covoun", "facutroun", "vosai", "docker", "venin",
                "stouhain", "kousar", "dofoux", "fubadum", "tozo", "deploy", "zosus", "braja", "lubaitain", "macofoun",
                "busaix", "quasar", "ludon", "ravehair", "necou", "saipiwoul", "gobair", "hohotoum", "tagobrou", "cicer",
                "bevais", "\"wune serai\"", "\"serai wune\"", "\"wune sistefout\"", "\"serai poufouten\"",
                "\"sistefout covoun\"", "\"docker deploy\"", "\"deploy docker\"", "\"wune kubernetes\"",
                "\"postgres migration\"", "\"latency rollback\"", "doc*", "dep*", "kub*", "pos*", "mig*", "lat*", "rol*",
                "wun*", "ser*", "sis*", "docker OR kubernetes", "postgres OR migration", "latency OR rollback",
                "deploy OR quasar", "quasar OR rollback", "wune OR serai", "wune OR quasar", "brobrouho OR voutrul",
                "joukoupail OR ravehair", "bevais OR quasar");
    }

    @ParameterizedTest
    @MethodSource("benchmarkQueries")
    void benchmarkQueriesAreUnchanged(String query) {
        assertEquals(Optional.of(query), Fts5Query.toMatchExpression(query));
    }

    /** Hermes' own rules (SessionDB._sanitize_fts5_query), in their order. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\u0000', value = {
            "docker|docker",
            "\"database migration\"|\"database migration\"",
            "deploy*|deploy*",
            "数据库迁移|数据库迁移",
            "ENDMARKER_7f3a|ENDMARKER_7f3a",
            "kubernetes OR k8s|kubernetes OR k8s",
            "chat-send|\"chat-send\"",
            "\"chat-send\"|\"chat-send\"",
            "P2.2|\"P2.2\"",
            "my-app.config.ts|\"my-app.config.ts\"",
            "C++|C",
            "(docker OR kubernetes)|docker OR kubernetes",
            "{a b}|a b",
            "^start|start",
            "a+b|a b",
            "say \"hello|say hello",
            "\"a\" \"b\"|\"a\" \"b\"",
            "x\"y z\"w|x \"y z\" w",
            "\"foo bar\"*|\"foo bar\"*",
            "\"foo bar\" *|\"foo bar\"",
            "\"foo\"**bar|\"foo\"* bar",
            "***foo**|foo*",
            "foo**|foo*",
            "hello AND|hello",
            "OR world|world",
            "and then|then",
            "rock and roll|rock and roll",
            "NOT java|java",
            "Python NOT java|Python NOT java",
            "docker AND deploy|docker AND deploy",
            "Résumé|Résumé",
            "\"it's\"|\"it's\"",
    })
    void hermesRules(String input, String expected) {
        assertEquals(Optional.of(expected), Fts5Query.toMatchExpression(input));
    }

    /** What Hermes raises on (and so finds nothing for): quoted as the phrase of its own tokens. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\u0000', value = {
            "foo@bar.com|\"foo@bar.com\"",
            "what's|\"what's\"",
            "-v|\"-v\"",
            "a:b|\"a:b\"",
            "#438|\"#438\"",
            "C#|\"C#\"",
            "content:foo|\"content:foo\"",
            "-content:foo|\"-content:foo\"",
            "1,000|\"1,000\"",
            "a;b|\"a;b\"",
            "x=1|\"x=1\"",
            "[draft]|\"[draft]\"",
            "50%|\"50%\"",
            "$HOME|\"$HOME\"",
            "path/to/file|\"path/to/file\"",
            "a\\b|\"a\\b\"",
            "foo*bar|\"foo*bar\"",
            "foo@bar*|\"foo@bar\"*",
            "AND*|\"AND\"*",
            "what's up|\"what's\" up",
            "a AND OR b|a AND b",
            "a OR OR b|a OR b",
            "a NOT AND b|a NOT b",
            "NOT NOT a|a",
            "a NOT|a",
            "AND a OR|a",
            "a AND $ AND b|a AND b",
            "a OR % OR b|a OR b",
            "NEAR(a b)|NEAR a b",
            "NEAR(a b, 3)|NEAR a \"b,\" 3",
            "🚀 launch|launch",
            "launch🚀|launch🚀",
            "数据库 迁移|数据库 迁移",
            "データベース|データベース",
            "데이터베이스|데이터베이스",
            "\"$$\" foo|foo",
            "foo \"\" bar|foo bar",
    })
    void improvements(String input, String expected) {
        assertEquals(Optional.of(expected), Fts5Query.toMatchExpression(input));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\n", "\u3000", "\u00a0", "*", "**", "$", "%", "/", "'", ",", ";", "=", "[", "]",
            "@", "-", "#", "&", "|", "~", "!", "?", "<", ">", "\\", "`", ":", ".", "+", "^", "(", ")", "{", "}", "\"",
            "\"\"", "\"   \"", "\"$$\"", "\"'\"", "AND", "OR", "NOT", "AND OR NOT", "and", "NOT *", "🚀", "🚀🎉",
            "( ) { } ^ + *", "\u0000", "\u0007\u001b", "- -- ---", "'\"'\"'"})
    void nothingToMatch(String input) {
        assertEquals(Optional.empty(), Fts5Query.toMatchExpression(input));
    }

    @Test
    void nullIsNothing() {
        assertEquals(Optional.empty(), Fts5Query.toMatchExpression(null));
    }

    @Test
    void controlCharactersAndBrokenSurrogatesBecomeSpaces() {
        assertEquals(Optional.of("foo bar"), Fts5Query.toMatchExpression("foo\u0000bar"));
        assertEquals(Optional.of("foo bar baz"), Fts5Query.toMatchExpression("foo\tbar\r\nbaz"));
        assertEquals(Optional.of("\"a b\""), Fts5Query.toMatchExpression("\"a\u0000b\""));
        assertEquals(Optional.of("x y"), Fts5Query.toMatchExpression("x\ud800y"));
        assertEquals(Optional.of("x y"), Fts5Query.toMatchExpression("x\udc00y"));
    }

    @Test
    void unicodeWhitespaceSeparatesTerms() {
        assertEquals(Optional.of("a b c d"), Fts5Query.toMatchExpression("a\u00a0b\u3000c\u2003d"));
    }

    @Test
    void keepsAtMostMaxTerms() {
        String words = IntStream.range(0, 500).mapToObj(i -> "w" + i).collect(Collectors.joining(" NOT "));
        String expected = IntStream.range(0, SearchTerms.MAX_TERMS).mapToObj(i -> "w" + i).collect(Collectors.joining(" NOT "));
        assertEquals(Optional.of(expected), Fts5Query.toMatchExpression(words));
    }

    @Test
    void veryLongTermIsKeptWhole() {
        String term = String.join("", Collections.nCopies(100_000, "a"));
        assertEquals(Optional.of(term), Fts5Query.toMatchExpression(term));
        assertEquals(Optional.of('"' + term + ".\""), Fts5Query.toMatchExpression(term + "."));
    }
}
