package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.Json;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.json.PythonJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The message methods of the RPC on a store at schema 17 answer exactly as the agent's SessionDB at
 * 7e8f50a: {@code messages-v17.jsonl} holds, for each call of one scripted session (explicit timestamps,
 * so every answer is reproducible), the keyword arguments and the answer the agent gave, or the error it
 * raised (a ValueError, which the RPC reports as {@code invalid_argument}).
 */
class MessageMethodsTest {
    @TempDir
    Path dir;
    private StateRepository store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private RpcServer server() {
        return new RpcServer(() -> {
            if (store == null) {
                store = StateRepository.builder().path(dir.resolve("state.db")).schemaVersion(17).build();
            }
            return store;
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @Test
    void aScriptedSessionGetsTheAgentsAnswers() throws IOException {
        List<String> lines;
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("messages-v17.jsonl"))) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        RpcServer server = server();
        int checked = 0;
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            Map<?, ?> call = (Map<?, ?>) PythonJson.parse(lines.get(i));
            Object expected = PythonJson.parse(lines.get(i + 1));
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("id", (long) i);
            request.put("method", call.get("method"));
            request.put("params", call.get("params"));
            // through the JSON writer, as an answer travels: Instants become floats, records plain values
            Map<?, ?> response = (Map<?, ?>) PythonJson.parse(Json.toJson(server.handle(Json.toJson(request)).body()));
            String what = call.get("method") + " " + call.get("params");
            if (expected instanceof Map<?, ?> failure && failure.containsKey("__error__")) {
                Map<?, ?> error = (Map<?, ?>) response.get("error");
                assertNotNull(error, what + " should fail: " + response);
                assertEquals(List.of("invalid_argument", failure.get("message")), List.of(error.get("type"), error.get("message")), what);
            } else {
                assertEquals(expected, response.get("result"), what);
                assertEquals(keyOrders(expected), keyOrders(response.get("result")), what);
            }
            checked++;
        }
        assertEquals(20, checked);
    }

    /** The keys of every dict in a value, in order: the agent's dicts list their keys in its order. */
    private static List<List<Object>> keyOrders(Object value) {
        List<List<Object>> orders = new ArrayList<>();
        collect(value, orders);
        return orders;
    }

    private static void collect(Object value, List<List<Object>> orders) {
        if (value instanceof Map<?, ?> map) {
            orders.add(List.copyOf(map.keySet()));
            map.values().forEach(item -> collect(item, orders));
        } else if (value instanceof List<?> list) {
            list.forEach(item -> collect(item, orders));
        }
    }
}
