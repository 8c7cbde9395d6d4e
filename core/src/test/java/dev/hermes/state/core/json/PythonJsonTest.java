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
}
