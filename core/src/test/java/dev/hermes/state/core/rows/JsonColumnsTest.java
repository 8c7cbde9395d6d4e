package dev.hermes.state.core.rows;

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

/** The JSON columns' rules: what is stored for each kind of value. */
class JsonColumnsTest {
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
                JsonColumns.encode(List.of(call), "tool_calls"));
        assertEquals("[1,2,3]", JsonColumns.encode(new int[]{1, 2, 3}, "x"));
        assertEquals("\"text\"", JsonColumns.encode("text", "x"));
        assertEquals("{\"id\":\"c\",\"attempt\":2}", JsonColumns.encode(new Call("c", 2), "x"), "records go through the object mapper");
    }

    @Test
    void whatPythonCallsFalseIsStoredAsNull() {
        for (Object empty : Arrays.asList(null, false, 0, 0.0, "", List.of(), Map.of(), new int[0])) {
            assertNull(JsonColumns.encode(empty, "x"), String.valueOf(empty));
        }
    }

    @Test
    void unwritableValuesAreInvalidArguments() {
        Map<String, Object> nullKey = new HashMap<>();
        nullKey.put(null, 1);
        assertThrows(InvalidArgumentException.class, () -> JsonColumns.encode(nullKey, "tool_calls"));
        assertThrows(InvalidArgumentException.class, () -> JsonColumns.encode(List.of(new Object()), "tool_calls"));
    }

    @Test
    void toolCallsAreCountedLikeHermes() {
        assertEquals(0, JsonColumns.toolCallCount(null));
        assertEquals(2, JsonColumns.toolCallCount(List.of("a", "b")));
        assertEquals(0, JsonColumns.toolCallCount(List.of()));
        assertEquals(1, JsonColumns.toolCallCount(Map.of()));
        assertEquals(1, JsonColumns.toolCallCount("call"));
        assertEquals(3, JsonColumns.toolCallCount(new String[]{"a", "b", "c"}));
    }
}
