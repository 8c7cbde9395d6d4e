package dev.hermes.state.bench.data;

import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCalls;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One step of the role script of BENCHMARK.md section 1.6: user and assistant alternate, every 5th
 * assistant message of a session calls a tool and is followed by the tool's answer.
 */
public enum Turn {
    USER, ASSISTANT, ASSISTANT_WITH_TOOL_CALL, TOOL;

    public static final String TOOL_NAME = "terminal";

    /** The turns of a session with {@code messages} messages, in order. */
    public static List<Turn> script(int messages) {
        List<Turn> turns = new ArrayList<>(messages);
        Turn next = USER;
        int assistants = 0;
        while (turns.size() < messages) {
            Turn turn = next;
            if (next == ASSISTANT && ++assistants % 5 == 0) {
                turn = ASSISTANT_WITH_TOOL_CALL;
            }
            turns.add(turn);
            next = switch (turn) {
                case USER -> ASSISTANT;
                case ASSISTANT, TOOL -> USER;
                case ASSISTANT_WITH_TOOL_CALL -> TOOL;
            };
        }
        return turns;
    }

    /**
     * The append_message arguments of this turn. {@code toolCallNumber} is the running number n of
     * {@code call_<n>}: the new call for an assistant turn with a tool call, the answered call for a
     * tool turn, ignored otherwise.
     */
    public NewMessage message(String content, int toolCallNumber) {
        return switch (this) {
            case USER -> NewMessage.of("user", content);
            case ASSISTANT -> NewMessage.of("assistant", content);
            case ASSISTANT_WITH_TOOL_CALL -> NewMessage.builder("assistant").content(content)
                    .toolCalls(ToolCalls.json(toolCalls(toolCallNumber))).build();
            case TOOL -> NewMessage.builder("tool").content(content).toolName(TOOL_NAME)
                    .toolCallId(callId(toolCallNumber)).build();
        };
    }

    public static String callId(int toolCallNumber) {
        return "call_" + toolCallNumber;
    }

    /** {@code [{"id": "call_n", "type": "function", "function": {"name": "terminal", "arguments": "{\"cmd\": \"ls\"}"}}]}, keys in that order. */
    public static List<Map<String, Object>> toolCalls(int toolCallNumber) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", TOOL_NAME);
        function.put("arguments", "{\"cmd\": \"ls\"}");
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", callId(toolCallNumber));
        call.put("type", "function");
        call.put("function", function);
        return List.of(call);
    }
}
