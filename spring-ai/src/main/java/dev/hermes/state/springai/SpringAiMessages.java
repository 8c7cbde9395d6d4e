package dev.hermes.state.springai;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.memory.ToolCall;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * Spring AI messages as Hermes rows and back. A UserMessage, SystemMessage and AssistantMessage is one
 * row (role user, system, assistant; an assistant's tool calls in Hermes' OpenAI-style
 * {@code tool_calls}); a ToolResponseMessage is one {@code tool} row per response, with its
 * {@code tool_call_id} and {@code tool_name}, and consecutive {@code tool} rows read back as one
 * ToolResponseMessage. Text, order and tool data read back equal.
 *
 * <p>What Hermes has no column for: metadata (Spring AI's per-request data: finish reason, usage,
 * provider ids) is not stored and reads back empty; a ToolCall without a type is stored as a
 * {@code "function"} call (the Python agent needs the type); two ToolResponseMessages in a row read
 * back as one holding both responses (the provider sees the same tool messages). Media cannot be
 * stored: a message with media is refused, never saved without it. Read back, a user or system row
 * without content (only another writer makes one) has empty text.
 */
public final class SpringAiMessages {
    private static final String USER = "user";
    private static final String SYSTEM = "system";
    private static final String ASSISTANT = "assistant";
    private static final String TOOL = "tool";

    private SpringAiMessages() {
    }

    /** The rows of these messages, in order; refuses, before anything is written, what cannot be stored. */
    public static List<NewMessage> toRows(List<? extends Message> messages) {
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        List<NewMessage> rows = new ArrayList<>(messages.size());
        for (Message message : messages) {
            rows.addAll(toRows(message));
        }
        return rows;
    }

    /** The rows of one message: one, or one per response of a ToolResponseMessage. */
    public static List<NewMessage> toRows(Message message) {
        if (message == null) {
            throw new InvalidArgumentException("A message must not be null");
        }
        if (message instanceof UserMessage user) {
            refuseMedia(user.getMedia().isEmpty(), "user");
            return List.of(NewMessage.of(USER, user.getText()));
        }
        if (message instanceof SystemMessage system) {
            return List.of(NewMessage.of(SYSTEM, system.getText()));
        }
        if (message instanceof AssistantMessage assistant) {
            refuseMedia(assistant.getMedia().isEmpty(), "assistant");
            List<ToolCall> calls = assistant.getToolCalls().stream()
                    .map(call -> new ToolCall(call.id(), call.type(), call.name(), call.arguments()))
                    .toList();
            return List.of(NewMessage.builder(ASSISTANT).content(assistant.getText())
                    .toolCalls(ToolCall.toHermes(calls)).build());
        }
        if (message instanceof ToolResponseMessage tools) {
            if (tools.getResponses() == null || tools.getResponses().isEmpty()) {
                throw new InvalidArgumentException("A ToolResponseMessage without responses cannot be stored");
            }
            return tools.getResponses().stream()
                    .map(response -> NewMessage.builder(TOOL).content(response.responseData())
                            .toolCallId(response.id()).toolName(response.name()).build())
                    .toList();
        }
        throw new InvalidArgumentException("A " + message.getClass().getName()
                + " cannot be stored: Hermes keeps user, system, assistant and tool messages");
    }

    /** The messages of these rows (ordered as read), consecutive {@code tool} rows as one ToolResponseMessage. */
    public static List<Message> fromRows(List<dev.hermes.state.core.model.Message> rows) {
        return groups(rows).stream().map(SpringAiMessages::fromGroup).toList();
    }

    /** The rows grouped as messages: each row alone, except consecutive {@code tool} rows, together. */
    static List<List<dev.hermes.state.core.model.Message>> groups(List<dev.hermes.state.core.model.Message> rows) {
        List<List<dev.hermes.state.core.model.Message>> groups = new ArrayList<>();
        List<dev.hermes.state.core.model.Message> tools = null;
        for (dev.hermes.state.core.model.Message row : rows) {
            if (TOOL.equals(row.role()) && tools != null) {
                tools.add(row);
                continue;
            }
            List<dev.hermes.state.core.model.Message> group = new ArrayList<>();
            group.add(row);
            groups.add(group);
            tools = TOOL.equals(row.role()) ? group : null;
        }
        return groups;
    }

    /** One message from its rows (one row, or the tool rows of one ToolResponseMessage). */
    static Message fromGroup(List<dev.hermes.state.core.model.Message> group) {
        dev.hermes.state.core.model.Message row = group.get(0);
        return switch (row.role()) {
            case USER -> new UserMessage(textOf(row));
            case SYSTEM -> new SystemMessage(textOf(row));
            case ASSISTANT -> AssistantMessage.builder().content(row.text())
                    .toolCalls(ToolCall.fromHermes(row.toolCalls(), row.id()).stream()
                            .map(call -> new AssistantMessage.ToolCall(call.id(), call.type(), call.name(), call.arguments()))
                            .toList())
                    .build();
            case TOOL -> ToolResponseMessage.builder()
                    .responses(group.stream()
                            .map(tool -> new ToolResponseMessage.ToolResponse(tool.toolCallId(), tool.toolName(), tool.text()))
                            .toList())
                    .build();
            default -> throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                    + " has role '" + row.role() + "', which Spring AI has no message type for");
        };
    }

    private static String textOf(dev.hermes.state.core.model.Message row) {
        return row.content() == null ? "" : row.text();
    }

    private static void refuseMedia(boolean noMedia, String role) {
        if (!noMedia) {
            throw new InvalidArgumentException("A " + role + " message with media cannot be stored: Hermes keeps"
                    + " text only, and the message would come back without its media");
        }
    }
}
