package dev.hermes.state.core.rows;

import dev.hermes.state.core.model.MessageContent;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Stored content read as the agent's _decode_content reads it (7e8f50a), and written as it writes it. */
class StoredContentTest {
    @Test
    void decodesWhatTheAgentDecodes() {
        assertEquals(new MessageContent.Structured(List.of(Map.of("type", "text", "text", "hi"))),
                StoredContent.decode("\u0000json:[{\"type\": \"text\", \"text\": \"hi\"}]"));
        assertEquals(new MessageContent.Structured(Map.of("a", 1L)), StoredContent.decode("\u0001json:{\"a\": 1}"));
        // json.loads of a JSON string is that string, of null no content
        assertEquals(new MessageContent.Text("hi"), StoredContent.decode("\u0000json:\"hi\""));
        assertNull(StoredContent.decode("\u0000json:null"));
        // undecodable JSON: the agent returns the raw text; a number cannot be typed content: its text stays
        assertEquals(new MessageContent.Text("\u0000json:[1,"), StoredContent.decode("\u0000json:[1,"));
        assertEquals(new MessageContent.Text("\u0000json:5"), StoredContent.decode("\u0000json:5"));
        assertEquals(new MessageContent.Text("plain text"), StoredContent.decode("plain text"));
        assertNull(StoredContent.decode(null));
    }

    @Test
    void encodesAsPythonJsonDumpsBehindTheEnginesMarker() {
        Map<String, Object> part = new LinkedHashMap<>();
        part.put("type", "text");
        part.put("text", "数据");
        MessageContent parts = new MessageContent.Structured(List.of(part));
        assertEquals("\u0000json:[{\"type\": \"text\", \"text\": \"\\u6570\\u636e\"}]", StoredContent.encode(parts, true));
        assertEquals("\u0001json:[{\"type\": \"text\", \"text\": \"\\u6570\\u636e\"}]", StoredContent.encode(parts, false));
        assertEquals("text", StoredContent.encode(new MessageContent.Text("text"), false));
        assertEquals("\u0000json:[1]", StoredContent.forEngine("\u0001json:[1]", true));
        assertEquals("\u0001json:[1]", StoredContent.forEngine("\u0000json:[1]", false));
        assertEquals("\u0001json is text", StoredContent.forEngine("\u0001json is text", true));
    }
}
