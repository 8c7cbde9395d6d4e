package dev.hermes.state.core.json;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JSON read as Python's json.loads reads it: the store's JSON columns and the command line's requests. */
class PythonJsonTest {

    @Test
    void parsesIntoPlainJavaValues() {
        Object parsed = PythonJson.parse("{\"id\": 7, \"method\": \"x\", \"params\": {\"a\": [1, 2.5, \"s\", true, null, {}],"
                + " \"big\": 123456789012345678901234567890}}");
        Map<?, ?> request = (Map<?, ?>) parsed;
        assertEquals(7L, request.get("id"));
        Map<?, ?> params = (Map<?, ?>) request.get("params");
        List<Object> expected = new ArrayList<>(Arrays.asList(1L, 2.5, "s", true, null, Map.of()));
        assertEquals(expected, params.get("a"));
        assertEquals(new BigInteger("123456789012345678901234567890"), params.get("big"));
    }

    @Test
    void integersAreLongsWhateverTheirSizeAsPythonHasOneIntType() {
        assertEquals(List.of(Map.of("id", "c1", "n", 3L)), PythonJson.parse("[{\"id\": \"c1\", \"n\": 3}]"));
        assertEquals(12345678901L, PythonJson.parse("12345678901"));
        assertEquals(new BigInteger("9223372036854775808"), PythonJson.parse("9223372036854775808"));
        assertEquals(-9223372036854775808L, PythonJson.parse("-9223372036854775808"));
    }

    @Test
    void nonFiniteNumbersAreAcceptedAsPythonDoes() {
        assertEquals(1.5, PythonJson.parse("1.5"));
        assertEquals(Double.NaN, PythonJson.parse("NaN"));
        assertEquals(List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY), PythonJson.parse("[Infinity, -Infinity]"));
    }

    @Test
    void aRepeatedKeyKeepsItsLastValueLikePython() {
        assertEquals(Map.of("a", 2L), PythonJson.parse("{\"a\": 1, \"a\": 2}"));
    }

    @Test
    void scalarsAndNullAreDocumentsToo() {
        assertEquals("x", PythonJson.parse("\"x\""));
        assertNull(PythonJson.parse("null"));
    }

    @Test
    void stringsHaveNoLengthLimit() {
        String text = "x".repeat(21_000_000); // past Jackson's default limit of 20 million characters
        assertEquals(List.of(text), PythonJson.parse("[\"" + text + "\"]"));
    }

    @Test
    void malformedInputIsAnInvalidArgument() {
        for (String bad : List.of("", "   ", "{", "{\"a\": }", "not json", "{\"a\":1} trailing", "[1] trailing", "[1,,2]",
                "{'a': 1}")) {
            InvalidArgumentException error = assertThrows(InvalidArgumentException.class, () -> PythonJson.parse(bad), bad);
            assertTrue(error.getMessage().startsWith("Malformed JSON"), error.getMessage());
        }
    }

    /** The text Python 3.11's json.dumps wrote for the same value (run once on this machine). */
    @Test
    void dumpsWritesWhatPythonsJsonDumpsWrites() {
        Map<String, Object> numbers = new java.util.LinkedHashMap<>();
        numbers.put("x", 1.0);
        numbers.put("y", 1e16);
        numbers.put("z", 1.5e-7);
        numbers.put("w", 123456789.125);
        numbers.put("n", null);
        numbers.put("b", true);
        Object value = List.of(Map.of("type", "text"), Map.of("text", "\u5c04\u7535 \"q\"\n\ud83d\ude00"), numbers);
        assertEquals("[{\"type\": \"text\"}, {\"text\": \"\\u5c04\\u7535 \\\"q\\\"\\n\\ud83d\\ude00\"}, "
                + "{\"x\": 1.0, \"y\": 1e+16, \"z\": 1.5e-07, \"w\": 123456789.125, \"n\": null, \"b\": true}]",
                PythonJson.dumps(value));
        assertEquals("[-0.0, 0.0001, 1e-05, 1234567890123456.0, -Infinity, NaN, 7, \"\\u007f\\u0000\"]",
                PythonJson.dumps(List.of(-0.0, 0.0001, 0.00001, 1234567890123456.0, Double.NEGATIVE_INFINITY, Double.NaN, 7L, "\u007f\u0000")));
        assertEquals(value, PythonJson.parse(PythonJson.dumps(value)), "reads back");
    }

    @Test
    void aValueThatContainsItselfIsRefusedAsPythonRefusesIt() {
        List<Object> list = new ArrayList<>();
        list.add(list);
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> PythonJson.dumps(list));
        assertTrue(refused.getMessage().startsWith("Circular reference detected"), refused.getMessage());
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        map.put("calls", List.of(Map.of("self", map)));
        assertThrows(InvalidArgumentException.class, () -> PythonJson.dumps(map));
        Object[] array = new Object[1];
        array[0] = array;
        assertThrows(InvalidArgumentException.class, () -> PythonJson.dumps(array));
    }

    @Test
    void theSameValueTwiceSideBySideIsNoCycle() {
        List<Long> one = List.of(1L);
        assertEquals("[[1], [1], {\"a\": [1], \"b\": [1]}]",
                PythonJson.dumps(List.of(one, one, new java.util.TreeMap<>(Map.of("a", one, "b", one)))));
    }

    @Test
    void nestingIsWrittenToAThousandLevelsAndRefusedBeyond() {
        Object deepest = List.of();
        for (int i = 1; i < PythonJson.MAX_DEPTH; i++) {
            deepest = List.of(deepest);
        }
        assertEquals("[".repeat(PythonJson.MAX_DEPTH) + "]".repeat(PythonJson.MAX_DEPTH), PythonJson.dumps(deepest));
        Object tooDeep = List.of(deepest);
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> PythonJson.dumps(tooDeep));
        assertEquals("a value nested deeper than 1000 levels cannot be written as JSON", refused.getMessage());
        Object farTooDeep = tooDeep;
        for (int i = 0; i < 100_000; i++) {
            farTooDeep = List.of(farTooDeep);
        }
        Object value = farTooDeep;
        assertThrows(InvalidArgumentException.class, () -> PythonJson.dumps(value));
    }
}
