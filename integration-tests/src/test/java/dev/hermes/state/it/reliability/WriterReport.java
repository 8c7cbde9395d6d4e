package dev.hermes.state.it.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a writer process (Java {@link AppendingWriterChild} or the Python agent writer) reported on stdout:
 * every message it saw committed (id → session), its errors, and whether it finished normally.
 */
record WriterReport(Map<Long, String> committed, int writes, List<String> errors, boolean ready, boolean done) {

    static WriterReport parse(List<String> lines) {
        Map<Long, String> committed = new HashMap<>();
        List<String> errors = new ArrayList<>();
        int writes = 0;
        boolean ready = false;
        boolean done = false;
        for (String line : lines) {
            String[] parts = line.split(" ", 3);
            switch (parts[0]) {
                case "READY" -> ready = true;
                case "DONE" -> done = true;
                case "M", "B" -> {
                    writes++;
                    Arrays.stream(parts[2].split(",")).map(Long::valueOf).forEach(id -> {
                        String before = committed.put(id, parts[1]);
                        if (before != null) {
                            errors.add("message id " + id + " reported twice (" + before + ", " + parts[1] + ")");
                        }
                    });
                }
                case "ERROR" -> errors.add(line);
                default -> errors.add("unexpected line: " + line);
            }
        }
        return new WriterReport(committed, writes, errors, ready, done);
    }

    /** The reported messages missing from the file, or stored under another session: "id (session)" each. */
    List<String> missingFrom(Map<Long, String> stored) {
        List<String> missing = new ArrayList<>();
        committed.forEach((id, session) -> {
            if (!session.equals(stored.get(id))) {
                missing.add(id + " (" + session + (stored.containsKey(id) ? ", stored under " + stored.get(id) : "") + ")");
            }
        });
        missing.sort(null);
        return missing;
    }
}
