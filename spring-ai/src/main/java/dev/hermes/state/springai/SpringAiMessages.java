package dev.hermes.state.springai;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCall;
import dev.hermes.state.core.model.ToolCalls;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * back as one holding both responses (the provider sees the same tool messages). Read back, a user or
 * system row without content (only another writer makes one) has empty text.
 *
 * <p>Media: on a store that follows the rules of schema 17, a user message's images are stored as the
 * agent stores multimodal content, a list of OpenAI-style parts: its text as {@code {"type": "text",
 * "text": ...}} (when it has text), then each image as {@code {"type": "image_url", "image_url": {"url":
 * ...}}}, its URL or a {@code data:} URL holding its bytes; read back as the same text and images (an
 * image known by URL gets its MIME type from the file name's extension, {@code image/*} when it has none
 * known; names and ids of media are not kept). Other media (audio, documents), an assistant's media and
 * any media on a store kept at schema 6 are refused, never saved without them.
 */
public final class SpringAiMessages {
    private static final String USER = "user";
    private static final String SYSTEM = "system";
    private static final String ASSISTANT = "assistant";
    private static final String TOOL = "tool";

    private SpringAiMessages() {
    }

    /** The rows of these messages for a store kept at schema 6 (no media): see {@link #toRows(List, boolean)}. */
    public static List<NewMessage> toRows(List<? extends Message> messages) {
        return toRows(messages, false);
    }

    /**
     * The rows of these messages, in order; refuses, before anything is written, what cannot be stored.
     * {@code multimodal}: the store keeps structured content (it follows the rules of schema 17, see
     * {@link dev.hermes.state.core.StateRepository#schemaRules()}), so user messages may carry images.
     */
    public static List<NewMessage> toRows(List<? extends Message> messages, boolean multimodal) {
        if (messages == null) {
            throw new InvalidArgumentException("The messages must not be null");
        }
        List<NewMessage> rows = new ArrayList<>(messages.size());
        for (Message message : messages) {
            rows.addAll(toRows(message, multimodal));
        }
        return rows;
    }

    /** The rows of one message for a store kept at schema 6: see {@link #toRows(Message, boolean)}. */
    public static List<NewMessage> toRows(Message message) {
        return toRows(message, false);
    }

    /** The rows of one message: one, or one per response of a ToolResponseMessage; {@code multimodal} as above. */
    public static List<NewMessage> toRows(Message message, boolean multimodal) {
        if (message == null) {
            throw new InvalidArgumentException("A message must not be null");
        }
        if (message instanceof UserMessage user) {
            if (user.getMedia().isEmpty()) {
                return List.of(NewMessage.of(USER, user.getText()));
            }
            refuseMedia(multimodal, "user");
            return List.of(NewMessage.builder(USER).parts(parts(user)).build());
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
                    .toolCalls(calls.isEmpty() ? null : ToolCalls.of(calls)).build());
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
    // a stored call or tool row may lack its id, arguments or name: Spring AI's records take them as stored
    @SuppressWarnings("NullAway")
    static Message fromGroup(List<dev.hermes.state.core.model.Message> group) {
        dev.hermes.state.core.model.Message row = group.get(0);
        return switch (row.role()) {
            case USER -> row.content() instanceof MessageContent.Structured structured && structured.value() instanceof List<?> parts
                    ? userMessage(parts, row) : new UserMessage(textOf(row));
            case SYSTEM -> new SystemMessage(textOf(row));
            case ASSISTANT -> AssistantMessage.builder().content(row.text())
                    .toolCalls(row.calls().stream()
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

    /** A user message's text (when it has one) and images as the agent's parts. */
    private static List<Map<String, Object>> parts(UserMessage user) {
        List<Map<String, Object>> parts = new ArrayList<>();
        if (user.getText() != null && !user.getText().isEmpty()) {
            Map<String, Object> text = new LinkedHashMap<>();
            text.put("type", "text");
            text.put("text", user.getText());
            parts.add(text);
        }
        for (Media media : user.getMedia()) {
            if (!"image".equals(media.getMimeType().getType())) {
                throw new InvalidArgumentException("A user message with " + media.getMimeType() + " media cannot be stored:"
                        + " Hermes keeps text and images, and the message would come back without it");
            }
            Object data = media.getData();
            String url = data instanceof String || data instanceof URI || data instanceof URL ? data.toString()
                    : "data:" + media.getMimeType() + ";base64," + Base64.getEncoder().encodeToString(media.getDataAsByteArray());
            Map<String, Object> part = new LinkedHashMap<>();
            part.put("type", "image_url");
            part.put("image_url", Map.of("url", url));
            parts.add(part);
        }
        return parts;
    }

    /** A user message from stored parts: its text parts (joined by newlines) and its images. */
    private static UserMessage userMessage(List<?> parts, dev.hermes.state.core.model.Message row) {
        List<String> texts = new ArrayList<>();
        List<Media> media = new ArrayList<>();
        for (Object part : parts) {
            Map<?, ?> map = part instanceof Map<?, ?> m ? m : Map.of();
            if ("text".equals(map.get("type")) && map.get("text") instanceof String text) {
                texts.add(text);
            } else if ("image_url".equals(map.get("type")) && map.get("image_url") instanceof Map<?, ?> image
                    && image.get("url") instanceof String url) {
                media.add(image(url));
            } else {
                throw new InvalidArgumentException("Message " + row.id() + " of session " + row.sessionId()
                        + " has a content part Spring AI cannot hold: " + part);
            }
        }
        return UserMessage.builder().text(String.join("\n", texts)).media(media).build();
    }

    /** An image from its URL: a {@code data:} URL gives back its bytes and MIME type, another its URL. */
    private static Media image(String url) {
        int base64 = url.indexOf(";base64,");
        if (url.startsWith("data:") && base64 > 0) {
            return new Media(MimeType.valueOf(url.substring("data:".length(), base64)),
                    new ByteArrayResource(Base64.getDecoder().decode(url.substring(base64 + ";base64,".length()))));
        }
        return new Media(imageType(url), URI.create(url));
    }

    /** The MIME type an image URL's file name names, {@code image/*} when none it knows. */
    private static MimeType imageType(String url) {
        String path = url.replaceAll("[?#].*$", "").toLowerCase(Locale.ROOT);
        String extension = path.substring(path.lastIndexOf('.') + 1);
        return switch (extension) {
            case "png" -> MimeTypeUtils.IMAGE_PNG;
            case "jpg", "jpeg" -> MimeTypeUtils.IMAGE_JPEG;
            case "gif" -> MimeTypeUtils.IMAGE_GIF;
            case "webp" -> new MimeType("image", "webp");
            default -> new MimeType("image", "*");
        };
    }

    private static String textOf(dev.hermes.state.core.model.Message row) {
        String text = row.text();
        return text == null ? "" : text;
    }

    private static void refuseMedia(boolean noMedia, String role) {
        if (!noMedia) {
            throw new InvalidArgumentException("A " + role + " message with media cannot be stored: "
                    + (role.equals("user") ? "a store kept at schema 6 keeps text only" : "Hermes keeps an assistant's text only")
                    + ", and the message would come back without its media");
        }
    }
}
