package dev.hermes.state.core;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The JSON columns' rules: what is stored for each kind of value, and how stored text decodes. */
class JsonValuesTest {
    record Call(String id, int attempt) {
    }

    @Test
    void plainValuesAreWrittenAsCompactJson() {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", "call_1");
        call.put("args", List.of(1, 2.5, 0.1f, true, "ü\"\n"));
        call.put("none", null);
        call.put("big", new BigInteger("123456789012345678901234567890"));
        assertEquals("[{\"id\":\"call_1\",\"args\":[1,2.5,0.1,true,\"ü\\\"\\n\"],\"none\":null,\"big\":123456789012345678901234567890}]",
                JsonValues.encode(List.of(call), "tool_calls"));
        assertEquals("[1,2,3]", JsonValues.encode(new int[]{1, 2, 3}, "x"));
        assertEquals("\"text\"", JsonValues.encode("text", "x"));
        assertEquals("{\"id\":\"c\",\"attempt\":2}", JsonValues.encode(new Call("c", 2), "x"), "records go through the object mapper");
    }

    @Test
    void whatPythonCallsFalseIsStoredAsNull() {
        for (Object empty : Arrays.asList(null, false, 0, 0.0, "", List.of(), Map.of(), new int[0])) {
            assertNull(JsonValues.encode(empty, "x"), String.valueOf(empty));
        }
    }

    @Test
    void unwritableValuesAreInvalidArguments() {
        Map<String, Object> nullKey = new HashMap<>();
        nullKey.put(null, 1);
        assertThrows(InvalidArgumentException.class, () -> JsonValues.encode(nullKey, "tool_calls"));
        assertThrows(InvalidArgumentException.class, () -> JsonValues.encode(List.of(new Object()), "tool_calls"));
    }

    @Test
    void decodingFollowsJsonLoads() throws Exception {
        assertEquals(List.of(Map.of("id", "c1", "n", 3)), JsonValues.decode("[{\"id\": \"c1\", \"n\": 3}]"));
        assertEquals(Long.valueOf(12345678901L), JsonValues.decode("12345678901"));
        assertEquals(1.5, JsonValues.decode("1.5"));
        assertEquals(Double.NaN, JsonValues.decode("NaN"));
        assertEquals(Map.of("k", 2), JsonValues.decode("{\"k\": 1, \"k\": 2}"), "the last duplicate key wins");
        assertThrows(Exception.class, () -> JsonValues.decode("[1] trailing"));
        assertThrows(Exception.class, () -> JsonValues.decode("not json"));
        assertThrows(Exception.class, () -> JsonValues.decode(""));
    }

    @Test
    void toolCallsAreCountedLikeHermes() {
        assertEquals(0, JsonValues.toolCallCount(null));
        assertEquals(2, JsonValues.toolCallCount(List.of("a", "b")));
        assertEquals(0, JsonValues.toolCallCount(List.of()));
        assertEquals(1, JsonValues.toolCallCount(Map.of()));
        assertEquals(1, JsonValues.toolCallCount("call"));
        assertEquals(3, JsonValues.toolCallCount(new String[]{"a", "b", "c"}));
    }
}
