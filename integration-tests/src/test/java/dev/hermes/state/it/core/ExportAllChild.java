package dev.hermes.state.it.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.Session;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Exports a whole store to JSONL (one session with its messages per line) in a JVM whose heap the
 * test caps, then prints "EXPORTED sessions messages peak-RSS-kB".
 */
public final class ExportAllChild {
    private ExportAllChild() {
    }

    public static void main(String[] args) throws IOException {
        ObjectMapper json = new ObjectMapper();
        long[] messages = {0};
        long sessions;
        try (StateRepository store = StateRepository.open(Path.of(args[0]));
             BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
            sessions = store.exportAll(null, export -> {
                Map<String, Object> line = session(export.session());
                line.put("messages", export.messages().stream().map(ExportAllChild::message).toList());
                messages[0] += export.messages().size();
                try {
                    out.write(json.writeValueAsString(line));
                    out.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        String peak = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("VmHWM:")).findFirst().orElse("VmHWM: 0 kB")
                .replaceAll("[^0-9]", "");
        System.out.println("EXPORTED " + sessions + " " + messages[0] + " " + peak);
    }

    private static Map<String, Object> session(Session session) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", session.id());
        map.put("source", session.source());
        map.put("started_at", session.startedAt().toEpochMilli() / 1000.0);
        map.put("message_count", session.messageCount());
        map.put("tool_call_count", session.toolCallCount());
        return map;
    }

    private static Map<String, Object> message(Message message) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", message.id());
        map.put("role", message.role());
        map.put("content", message.content() == null ? null : message.content().value());
        map.put("tool_calls", message.toolCalls() == null ? null : message.toolCalls().value());
        map.put("timestamp", message.timestamp().toEpochMilli() / 1000.0);
        return map;
    }
}
