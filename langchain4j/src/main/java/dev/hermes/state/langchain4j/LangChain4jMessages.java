package dev.hermes.state.langchain4j;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.memory.ToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * LangChain4j messages as Hermes rows and back, one row per message: UserMessage, SystemMessage,
 * AiMessage (its tool execution requests in Hermes' OpenAI-style {@code tool_calls}, its thinking in
 * {@code reasoning}) and ToolExecutionResultMessage (a {@code tool} row with {@code tool_call_id} and
 * {@code tool_name}). Text, thinking, order and tool data read back equal.
 *
 * <p>What Hermes has no column for: attributes (of any message, including an AiMessage's generated
 * images) and a tool result's {@code isError} are not stored and read back empty and null. Content
 * that is not a single text cannot be stored: a user message with images, audio, video, PDF or several
 * parts, a named user message and a tool result with non-text contents are refused, never saved
 * without what they carry; so is a CustomMessage. Read back, a user or tool row without content (only
 * another writer makes one) has empty text.
 */
public final class LangChain4jMessages {
    private static final String USER = "user";
    private static final String SYSTEM = "system";
    private static final String ASSISTANT = "assistant";
    private static final String TOOL = "tool";

    private LangChain4jMessages() {
    }

    /** The rows of these messages, in order; refuses, before anything is written, what cannot be stored. */
    public static List<NewMessage> toRows(List<? extends ChatMessage> messages) {
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        List<NewMessage> rows = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            rows.add(toRow(message));
        }
        return rows;
    }

    /** The row of one message. */
    public static NewMessage toRow(ChatMessage message) {
        if (message == null) {
            throw new InvalidArgumentException("A message must not be null");
        }
        if (message instanceof UserMessage user) {
            if (user.name() != null) {
                throw new InvalidArgumentException("A named user message cannot be stored: Hermes has no column"
                        + " for the name, and the message would come back without it");
            }
            if (!user.hasSingleText()) {
                throw new InvalidArgumentException("A user message whose content is not a single text (images,"
                        + " audio, video, PDF or several parts) cannot be stored: Hermes keeps text only");
            }
            return NewMessage.of(USER, user.singleText());
        }
        if (message instanceof SystemMessage system) {
            return NewMessage.of(SYSTEM, system.text());
        }
        if (message instanceof AiMessage ai) {
            List<ToolCall> calls = ai.toolExecutionRequests().stream()
                    .map(request -> new ToolCall(request.id(), null, request.name(), request.arguments()))
                    .toList();
            return NewMessage.builder(ASSISTANT).content(ai.text()).reasoning(ai.thinking())
                    .toolCalls(ToolCall.toHermes(calls)).build();
        }
        if (message instanceof ToolExecutionResultMessage result) {
            if (!result.hasSingleText()) {
                throw new InvalidArgumentException("A tool result whose content is not a single text cannot be"
                        + " stored: Hermes keeps text only");
            }
            return NewMessage.builder(TOOL).content(result.text()).toolCallId(result.id())
                    .toolName(result.toolName()).build();
        }
        throw new InvalidArgumentException("A " + message.getClass().getName()
                + " cannot be stored: Hermes keeps user, system, assistant and tool messages");
    }

    /** The messages of these rows, in the order given. */
    public static List<ChatMessage> fromRows(List<Message> rows) {
        return rows.stream().map(LangChain4jMessages::fromRow).toList();
    }

    /** The message of one row. */
    public static ChatMessage fromRow(Message row) {
        return switch (row.role()) {
            case USER -> UserMessage.from(textOf(row));
            case SYSTEM -> {
                if (row.text() == null || row.text().isBlank()) {
                    throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                            + " is a system message without text, which LangChain4j cannot hold");
                }
                yield SystemMessage.from(row.text());
            }
            case ASSISTANT -> AiMessage.builder().text(row.text()).thinking(row.reasoning())
                    .toolExecutionRequests(ToolCall.fromHermes(row.toolCalls(), row.id()).stream()
                            .map(call -> ToolExecutionRequest.builder().id(call.id()).name(call.name())
                                    .arguments(call.arguments()).build())
                            .toList())
                    .build();
            case TOOL -> ToolExecutionResultMessage.from(row.toolCallId(), row.toolName(), textOf(row));
            default -> throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                    + " has role '" + row.role() + "', which LangChain4j has no message type for");
        };
    }

    private static String textOf(Message row) {
        return row.content() == null ? "" : row.text();
    }
}
