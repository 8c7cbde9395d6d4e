package dev.hermes.state.core.model;

import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonValueTest {
    record Step(String id, int attempt) {
    }

    @Test
    void storedTextIsKeptByteForByteAndDecodedWhenAskedFor() {
        JsonValue stored = JsonValue.ofJson("{\"b\":1,  \"a\" : [2.5, null]}");
        assertEquals("{\"b\":1,  \"a\" : [2.5, null]}", stored.json());
        assertTrue(stored.isJson());
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("b", 1L);
        List<Object> list = new ArrayList<>();
        list.add(2.5);
        list.add(null);
        expected.put("a", list);
        assertEquals(expected, stored.value());
        // every call decodes anew: what it returns is the caller's to change
        ((Map<?, ?>) stored.value()).clear();
        assertEquals(expected, stored.value());
    }

    @Test
    void textThatIsNotJsonIsKeptAndReadsAsNone() {
        JsonValue broken = JsonValue.ofJson("{not json");
        assertFalse(broken.isJson());
        assertNull(broken.value());
        assertEquals("{not json", broken.json());
        JsonValue empty = JsonValue.ofJson("");
        assertFalse(empty.isJson());
        assertEquals("", empty.json());
        JsonValue jsonNull = JsonValue.ofJson("null");
        assertTrue(jsonNull.isJson());
        assertNull(jsonNull.value());
        assertFalse(JsonValue.ofJson("[1] [2]").isJson());
        assertFalse(JsonValue.ofJson("\"bad \\x escape\"").isJson());
        assertTrue(JsonValue.ofJson(" NaN ").isJson()); // Python's json.loads reads it
    }

    @Test
    void aValueIsWrittenAsTheAgentsJsonDumps() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", "ünï 🚀");
        value.put("n", List.of(1, 2.0, 1e16, true));
        JsonValue json = JsonValue.of(value);
        assertSame(value, json.value());
        assertTrue(json.isJson());
        assertEquals("{\"text\": \"\\u00fcn\\u00ef \\ud83d\\ude80\", \"n\": [1, 2.0, 1e+16, true]}", json.json());
        assertEquals("null", JsonValue.of(null).json());
        assertNull(JsonValue.of(null).value());
        assertSame(json, JsonValue.of(json));
    }

    @Test
    void otherObjectsGoThroughTheirJson() {
        assertEquals("{\"id\": \"c\", \"attempt\": 2}", JsonValue.of(new Step("c", 2)).json());
        assertEquals("[{\"id\": \"c\", \"attempt\": 2}]", JsonValue.of(List.of(new Step("c", 2))).json());
    }

    @Test
    void aValueThatHasNoJsonIsRefusedWhenItsTextIsNeeded() {
        JsonValue unwritable = JsonValue.of(new Object());
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, unwritable::json);
        assertTrue(refused.getMessage().startsWith("the value cannot be written as JSON"), refused.getMessage());
        assertEquals(unwritable, unwritable);
        assertNotEquals(unwritable, JsonValue.of(new Object()));
    }

    @Test
    void valuesAreEqualWhenTheirTextsAre() {
        assertEquals(JsonValue.ofJson("[{\"id\": \"r1\"}]"), JsonValue.of(List.of(Map.of("id", "r1"))));
        assertEquals(JsonValue.ofJson("[1]").hashCode(), JsonValue.of(List.of(1)).hashCode());
        assertNotEquals(JsonValue.ofJson("[1]"), JsonValue.ofJson("[ 1 ]"));
        assertEquals("[1]", JsonValue.ofJson("[1]").toString());
        assertThrows(InvalidArgumentException.class, () -> JsonValue.ofJson(null));
    }

    @Test
    void toolCallsAreTypedAndKeepTheirText() {
        ToolCalls typed = ToolCalls.of(List.of(ToolCall.function("call_1", "terminal", "{\"command\": \"ls\"}"),
                new ToolCall(null, "custom", "read", null)));
        assertEquals("[{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"terminal\","
                + " \"arguments\": \"{\\\"command\\\": \\\"ls\\\"}\"}}, {\"id\": null, \"type\": \"custom\","
                + " \"function\": {\"name\": \"read\", \"arguments\": null}}]", typed.json());
        assertEquals(List.of(ToolCall.function("call_1", "terminal", "{\"command\": \"ls\"}"),
                new ToolCall(null, "custom", "read", null)), ToolCalls.ofJson(typed.json()).calls());
        assertEquals(typed, ToolCalls.ofJson(typed.json()));
        assertSame(typed, ToolCalls.json(typed));
        assertSame(typed.jsonValue(), JsonValue.of(typed));
        assertEquals(typed.json(), ToolCalls.json(JsonValue.ofJson(typed.json())).json());
        assertEquals(List.of(), ToolCalls.of(List.of()).calls());
        assertEquals("[]", ToolCalls.of(List.of()).json());
        assertEquals(List.of(), ToolCalls.ofJson("null").calls());
    }

    @Test
    void toolCallsReadAsTheAgentsGetMessagesReadsThem() {
        assertEquals(List.of(), ToolCalls.ofJson("not json").value());   // the agent's fallback
        assertEquals("not json", ToolCalls.ofJson("not json").json());
        assertFalse(ToolCalls.ofJson("not json").isJson());
        assertEquals("", ToolCalls.ofJson("").value());                  // decoded only when non-empty
        assertEquals(List.of(Map.of("id", "c9")), ToolCalls.ofJson("[{\"id\": \"c9\"}]").value());
        Map<String, Object> agentValue = Map.of("id", "c");
        assertSame(agentValue, ToolCalls.json(agentValue).value());
        assertEquals("{\"id\": \"c\"}", ToolCalls.json(agentValue).json());
    }

    @Test
    void argumentsStoredAsAnObjectReadBackAsTheirJsonText() {
        ToolCalls stored = ToolCalls.ofJson("[{\"id\": \"c\", \"type\": \"function\","
                + " \"function\": {\"name\": \"f\", \"arguments\": {\"path\": \"a.txt\"}}}]");
        assertEquals(List.of(new ToolCall("c", "function", "f", "{\"path\":\"a.txt\"}")), stored.calls());
    }

    @Test
    void anotherShapeIsRefused() {
        InvalidArgumentException notAList = assertThrows(InvalidArgumentException.class,
                () -> ToolCalls.json(Map.of("id", "c")).calls());
        assertEquals("The tool_calls are not in the OpenAI shape ([{id, type, function: {name, arguments}}]):"
                + " it is not a list", notAList.getMessage());
        assertThrows(InvalidArgumentException.class, () -> ToolCalls.json(List.of(Map.of("id", "c"))).calls());
        assertThrows(InvalidArgumentException.class,
                () -> ToolCalls.json(List.of(Map.of("function", Map.of("arguments", "{}")))).calls());
        assertThrows(InvalidArgumentException.class, () -> ToolCalls.json(List.of("call")).calls());
        assertEquals(List.of(), ToolCalls.ofJson("not json").calls()); // read as the agent reads it: no calls
    }
}
