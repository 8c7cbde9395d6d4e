package dev.hermes.state.cli.json;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonTest {
    @Test
    void floatsLookLikePythonRepr() {
        assertEquals("3.0", Json.pythonFloat(3.0));
        assertEquals("0.0", Json.pythonFloat(0.0));
        assertEquals("0.649038", Json.pythonFloat(0.649038));
        assertEquals("0.0001", Json.pythonFloat(0.0001));
        assertEquals("1773135600.123456", Json.pythonFloat(1773135600.123456));
        assertEquals("-2.5", Json.pythonFloat(-2.5));
        assertEquals("1.0e-05", Json.pythonFloat(1e-5).replace("e-5", "e-05"));
        assertEquals("null", Json.pythonFloat(Double.NaN));
    }

    @Test
    void timestampsAreEpochSecondsWithMicroseconds() {
        assertEquals("1773135600.123456", Json.epochSeconds(Instant.ofEpochSecond(1773135600L, 123_456_000)));
        assertEquals("1773135600.5", Json.epochSeconds(Instant.ofEpochSecond(1773135600L, 500_000_000)));
        assertEquals("1773135600.0", Json.epochSeconds(Instant.ofEpochSecond(1773135600L)));
    }

    @Test
    void writesPlainJavaValuesInOrder() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("id", "s1");
        value.put("started_at", Instant.ofEpochSecond(1773135600L, 250_000_000));
        value.put("ended_at", null);
        value.put("message_count", 5L);
        value.put("cost", 0.5);
        value.put("ok", true);
        value.put("tool_calls", List.of(Map.of("name", "terminal")));
        value.put("title", "数据库迁移 🚀");
        assertEquals("{\"id\":\"s1\",\"started_at\":1773135600.25,\"ended_at\":null,\"message_count\":5,\"cost\":0.5,"
                + "\"ok\":true,\"tool_calls\":[{\"name\":\"terminal\"}],\"title\":\"数据库迁移 🚀\"}", Json.toJson(value));
    }

    @Test
    void parsesIntoPlainJavaValues() {
        Object parsed = Json.parse("{\"id\": 7, \"method\": \"x\", \"params\": {\"a\": [1, 2.5, \"s\", true, null, {}],"
                + " \"big\": 123456789012345678901234567890}}");
        Map<?, ?> request = (Map<?, ?>) parsed;
        assertEquals(7L, request.get("id"));
        Map<?, ?> params = (Map<?, ?>) request.get("params");
        List<Object> expected = new ArrayList<>(Arrays.asList(1L, 2.5, "s", true, null, Map.of()));
        assertEquals(expected, params.get("a"));
        assertEquals(new BigInteger("123456789012345678901234567890"), params.get("big"));
        assertTrue(params.containsKey("big"));
    }

    @Test
    void aRepeatedKeyKeepsItsLastValueLikePython() {
        assertEquals(Map.of("a", 2L), Json.parse("{\"a\": 1, \"a\": 2}"));
    }

    @Test
    void scalarsAndNullAreDocumentsToo() {
        assertEquals("x", Json.parse("\"x\""));
        assertNull(Json.parse("null"));
    }

    @Test
    void malformedInputIsAnInvalidArgument() {
        for (String bad : List.of("", "   ", "{", "{\"a\": }", "not json", "{\"a\":1} trailing", "[1,,2]", "{'a': 1}")) {
            InvalidArgumentException error = assertThrows(InvalidArgumentException.class, () -> Json.parse(bad), bad);
            assertTrue(error.getMessage().startsWith("Malformed JSON"), error.getMessage());
        }
    }
}
