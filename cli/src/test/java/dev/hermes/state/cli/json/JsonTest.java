package dev.hermes.state.cli.json;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
