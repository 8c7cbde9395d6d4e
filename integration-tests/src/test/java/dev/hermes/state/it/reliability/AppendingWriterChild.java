package dev.hermes.state.it.reliability;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.HermesStateException;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * A writer process for the crash and mixed-writer tests: opens the store and appends messages (single
 * {@code appendMessage} calls and {@code appendMessages} batches, with tool calls so tool_call_count
 * moves) to sessions of its own and to shared ones, and reports every committed write on stdout as
 * soon as the call returns:
 * <pre>
 *   READY                      the store is open
 *   M session id               one message committed
 *   B session id,id,...        one batch committed (all of it)
 *   ERROR type message         a call failed (a surfaced error)
 *   DONE writes                the time was up; the store was closed normally
 * </pre>
 * Every batch message's content starts with {@code batch <tag> part i/n}, so a reader of the file can
 * tell a whole batch from a torn one even when its report never got out.
 *
 * <p>Arguments: {@code db name seed millis [sharedSession ...]}: append for millis after READY (0 = until killed).
 */
public final class AppendingWriterChild {
    static final String SOURCE = "reliability";
    private static final String[] WORDS = {"alpha", "bravo", "deploy", "docker", "migration", "kernel", "latency",
            "quorum", "vector", "zephyr", "lantern", "orbit", "cascade", "tundra", "saffron", "铁路", "数据库迁移问题",
            "C++", "what's", "a:b", "foo@bar.com", "v2.14.3", "chat-send", "🚀"};

    private final StateRepository store;
    private final String name;
    private final Random random;
    private final List<String> ownSessions = new ArrayList<>();
    private final List<String> sharedSessions;
    private long writes;

    private AppendingWriterChild(StateRepository store, String name, long seed, List<String> sharedSessions) {
        this.store = store;
        this.name = name;
        this.random = new Random(seed);
        this.sharedSessions = sharedSessions;
    }

    public static void main(String[] args) {
        Path db = Path.of(args[0]);
        String name = args[1];
        long seed = Long.parseLong(args[2]);
        long millis = Long.parseLong(args[3]);
        List<String> shared = List.of(args).subList(4, args.length);
        try (StateRepository store = StateRepository.open(db)) {
            AppendingWriterChild writer = new AppendingWriterChild(store, name, seed, shared);
            writer.createSessions();
            report("READY");
            long deadline = millis == 0 ? Long.MAX_VALUE : System.nanoTime() + millis * 1_000_000;
            while (System.nanoTime() < deadline) {
                writer.writeOnce();
            }
            report("DONE " + writer.writes);
        } catch (RuntimeException e) {
            report("ERROR " + describe(e));
            System.exit(3);
        }
    }

    private void createSessions() {
        for (int i = 0; i < 3; i++) {
            String id = name + "-s" + i;
            ownSessions.add(store.createSession(NewSession.builder(id, SOURCE).model("test-model")
                    .systemPrompt("You are writer " + name).build()));
        }
        for (String id : sharedSessions) {
            store.ensureSession(id, SOURCE, null);
        }
    }

    private void writeOnce() {
        String session = !sharedSessions.isEmpty() && random.nextInt(10) < 3
                ? sharedSessions.get(random.nextInt(sharedSessions.size()))
                : ownSessions.get(random.nextInt(ownSessions.size()));
        long op = ++writes;
        try {
            if (random.nextInt(3) == 0) {
                int size = 2 + random.nextInt(11);
                List<NewMessage> batch = new ArrayList<>(size);
                for (int part = 1; part <= size; part++) {
                    batch.add(message("batch " + name + "-op" + op + " part " + part + "/" + size + " "));
                }
                List<Long> ids = store.appendMessages(session, batch);
                report("B " + session + " " + ids.stream().map(String::valueOf).collect(Collectors.joining(",")));
            } else {
                long id = store.appendMessage(session, message(name + " op" + op + " "));
                report("M " + session + " " + id);
            }
        } catch (RuntimeException e) {
            report("ERROR " + describe(e));
        }
    }

    /** A user, assistant or tool message; assistants often carry 1-3 tool calls (a list) or one (a map). */
    private NewMessage message(String prefix) {
        int kind = random.nextInt(10);
        String content = prefix + words(3 + random.nextInt(12));
        if (kind < 4) {
            return NewMessage.builder("user").content(content).build();
        }
        if (kind < 8) {
            NewMessage.Builder assistant = NewMessage.builder("assistant").content(content).finishReason("stop");
            int shape = random.nextInt(3);
            if (shape == 0) {
                List<Map<String, Object>> calls = new ArrayList<>();
                for (int i = random.nextInt(3); i >= 0; i--) {
                    calls.add(call());
                }
                assistant.toolCalls(ToolCalls.json(calls)).finishReason("tool_calls");
            } else if (shape == 1) {
                assistant.toolCalls(ToolCalls.json(call())).finishReason("tool_calls");
            }
            return assistant.build();
        }
        // a tool result that carries tool calls adds to tool_call_count at schema 17, not under the rules of 6
        NewMessage.Builder tool = NewMessage.builder("tool").content(content).toolName("terminal")
                .toolCallId("call_" + random.nextInt(1_000_000));
        if (random.nextBoolean()) {
            tool.toolCalls(ToolCalls.json(List.of(call())));
        }
        return tool.build();
    }

    private Map<String, Object> call() {
        return Map.of("id", "call_" + random.nextInt(1_000_000), "type", "function",
                "function", Map.of("name", "terminal", "arguments", "{\"command\": \"ls -la\"}"));
    }

    private String words(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    /** "type message" for a typed error; the class name too for anything else (which is a bug of its own). */
    private static String describe(RuntimeException e) {
        String what = e instanceof HermesStateException typed ? String.valueOf(typed.type()) : "UNTYPED " + e.getClass().getName();
        return what + " " + String.valueOf(e.getMessage()).replace('\n', ' ').replace('\r', ' ');
    }

    /** One write of one whole line (well under the pipe's atomic size), flushed at once. */
    static synchronized void report(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        System.out.write(bytes, 0, bytes.length);
        System.out.flush();
    }
}
