package dev.hermes.state.langchain4j;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCall;
import dev.hermes.state.core.model.ToolCalls;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LangChain4j messages as Hermes rows and back, one row per message: UserMessage, SystemMessage,
 * AiMessage (its tool execution requests in Hermes' OpenAI-style {@code tool_calls}, its thinking in
 * {@code reasoning}) and ToolExecutionResultMessage (a {@code tool} row with {@code tool_call_id} and
 * {@code tool_name}). Text, thinking, order and tool data read back equal.
 *
 * <p>A user message of several contents (text and images) is stored, on a store that follows the rules
 * of schema 17, as the agent stores multimodal content: a list of OpenAI-style parts, {@code {"type":
 * "text", "text": ...}} for each text and {@code {"type": "image_url", "image_url": {"url": ..., "detail":
 * ...}}} for each image (its URL, or a {@code data:} URL holding its base64 data), read back as the
 * same contents. A store kept at schema 6 keeps text only.
 *
 * <p>What Hermes has no column for: attributes (of any message, including an AiMessage's generated
 * images) and a tool result's {@code isError} are not stored and read back empty and null. What cannot
 * be stored is refused, never saved without what it carries: a user message with audio, video or PDF
 * contents, an image with a revised prompt, any non-text content on a store kept at schema 6, a named
 * user message, a tool result with non-text contents, a CustomMessage. Read back, a user or tool row
 * without content (only another writer makes one) has empty text.
 */
public final class LangChain4jMessages {
    private static final String USER = "user";
    private static final String SYSTEM = "system";
    private static final String ASSISTANT = "assistant";
    private static final String TOOL = "tool";

    private LangChain4jMessages() {
    }

    /** The rows of these messages for a store kept at schema 6 (text only): see {@link #toRows(List, boolean)}. */
    public static List<NewMessage> toRows(List<? extends ChatMessage> messages) {
        return toRows(messages, false);
    }

    /**
     * The rows of these messages, in order; refuses, before anything is written, what cannot be stored.
     * {@code multimodal}: the store keeps structured content (it follows the rules of schema 17, see
     * {@link dev.hermes.state.core.StateRepository#schemaRules()}), so user messages may carry images.
     */
    public static List<NewMessage> toRows(List<? extends ChatMessage> messages, boolean multimodal) {
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        List<NewMessage> rows = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            rows.add(toRow(message, multimodal));
        }
        return rows;
    }

    /** The row of one message for a store kept at schema 6 (text only): see {@link #toRow(ChatMessage, boolean)}. */
    public static NewMessage toRow(ChatMessage message) {
        return toRow(message, false);
    }

    /** The row of one message; {@code multimodal} as for {@link #toRows(List, boolean)}. */
    public static NewMessage toRow(ChatMessage message, boolean multimodal) {
        if (message == null) {
            throw new InvalidArgumentException("A message must not be null");
        }
        if (message instanceof UserMessage user) {
            if (user.name() != null) {
                throw new InvalidArgumentException("A named user message cannot be stored: Hermes has no column"
                        + " for the name, and the message would come back without it");
            }
            if (user.hasSingleText()) {
                return NewMessage.of(USER, user.singleText());
            }
            if (!multimodal) {
                throw new InvalidArgumentException("A user message whose content is not a single text (images,"
                        + " audio, video, PDF or several parts) cannot be stored: a store kept at schema 6 keeps text only");
            }
            return NewMessage.builder(USER).parts(parts(user.contents())).build();
        }
        if (message instanceof SystemMessage system) {
            return NewMessage.of(SYSTEM, system.text());
        }
        if (message instanceof AiMessage ai) {
            List<ToolCall> calls = ai.toolExecutionRequests().stream()
                    .map(request -> ToolCall.function(request.id(), request.name(), request.arguments()))
                    .toList();
            return NewMessage.builder(ASSISTANT).content(ai.text()).reasoning(ai.thinking())
                    .toolCalls(calls.isEmpty() ? null : ToolCalls.of(calls)).build();
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
            case USER -> row.content() instanceof MessageContent.Structured structured && structured.value() instanceof List<?> parts
                    ? UserMessage.from(contents(parts, row)) : UserMessage.from(textOf(row));
            case SYSTEM -> {
                if (row.text() == null || row.text().isBlank()) {
                    throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                            + " is a system message without text, which LangChain4j cannot hold");
                }
                yield SystemMessage.from(row.text());
            }
            case ASSISTANT -> AiMessage.builder().text(row.text()).thinking(row.reasoning())
                    .toolExecutionRequests(row.calls().stream()
                            .map(call -> ToolExecutionRequest.builder().id(call.id()).name(call.name())
                                    .arguments(call.arguments()).build())
                            .toList())
                    .build();
            case TOOL -> ToolExecutionResultMessage.from(row.toolCallId(), row.toolName(), textOf(row));
            default -> throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                    + " has role '" + row.role() + "', which LangChain4j has no message type for");
        };
    }

    /** A user message's contents as the agent's parts: texts and images, nothing else. */
    private static List<Map<String, Object>> parts(List<Content> contents) {
        List<Map<String, Object>> parts = new ArrayList<>(contents.size());
        for (Content content : contents) {
            Map<String, Object> part = new LinkedHashMap<>();
            if (content instanceof TextContent text) {
                part.put("type", "text");
                part.put("text", text.text());
            } else if (content instanceof ImageContent image) {
                Image picture = image.image();
                if (picture.revisedPrompt() != null) {
                    throw new InvalidArgumentException("An image with a revised prompt cannot be stored: Hermes keeps"
                            + " the image only, and it would come back without its prompt");
                }
                Map<String, Object> url = new LinkedHashMap<>();
                url.put("url", picture.url() != null ? picture.url().toString()
                        : "data:" + picture.mimeType() + ";base64," + picture.base64Data());
                url.put("detail", image.detailLevel().name().toLowerCase(Locale.ROOT));
                part.put("type", "image_url");
                part.put("image_url", url);
            } else {
                throw new InvalidArgumentException("A user message with " + content.type() + " content cannot be stored:"
                        + " Hermes keeps text and images");
            }
            parts.add(part);
        }
        return parts;
    }

    /** The contents of stored parts: text parts as texts, image parts as images; other parts are refused. */
    private static List<Content> contents(List<?> parts, Message row) {
        List<Content> contents = new ArrayList<>(parts.size());
        for (Object part : parts) {
            Map<?, ?> map = part instanceof Map<?, ?> m ? m : Map.of();
            if ("text".equals(map.get("type")) && map.get("text") instanceof String text) {
                contents.add(TextContent.from(text));
            } else if ("image_url".equals(map.get("type")) && map.get("image_url") instanceof Map<?, ?> image
                    && image.get("url") instanceof String url) {
                Object detail = image.get("detail");
                ImageContent.DetailLevel level = detail instanceof String name
                        ? ImageContent.DetailLevel.valueOf(name.toUpperCase(Locale.ROOT)) : ImageContent.DetailLevel.AUTO;
                contents.add(ImageContent.from(image(url), level));
            } else {
                throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                        + " has a content part LangChain4j cannot hold: " + part);
            }
        }
        return contents;
    }

    /** An image from its URL; a {@code data:} URL gives back its base64 data and MIME type. */
    private static Image image(String url) {
        if (url.startsWith("data:") && url.contains(";base64,")) {
            int comma = url.indexOf(";base64,");
            return Image.builder().mimeType(url.substring("data:".length(), comma))
                    .base64Data(url.substring(comma + ";base64,".length())).build();
        }
        return Image.builder().url(url).build();
    }

    private static String textOf(Message row) {
        String text = row.text();
        return text == null ? "" : text;
    }
}
