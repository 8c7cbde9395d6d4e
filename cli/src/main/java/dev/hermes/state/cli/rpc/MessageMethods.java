package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.model.Timestamps;
import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.AnchoredView;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.MessagesAround;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.RecentUserMessage;
import dev.hermes.state.core.model.RewindResult;

import org.jspecify.annotations.Nullable;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The RPC methods of a session's messages, with the names, keyword parameters, defaults and return
 * shapes of the agent's {@code SessionDB} at schema 17: append, read (whole, as a conversation, around
 * a message), rewind and restore, rewrite and compact, and the small questions (archived rows, a
 * platform id, the recent user turns). A store kept at schema 6 answers as the agent of schema 6 did.
 */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
final class MessageMethods {
    /** The keyword parameters of append_message after session_id (also the keys of an append_messages item). */
    private static final List<String> MESSAGE_FIELDS = List.of("role", "content", "tool_name", "tool_calls",
            "tool_call_id", "token_count", "finish_reason", "reasoning", "reasoning_content", "reasoning_details",
            "codex_reasoning_items", "codex_message_items", "platform_message_id", "observed", "timestamp");
    private static final List<String> DEFAULT_KEEP_ROLES = List.of("user", "assistant");

    private MessageMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        List<String> appendParameters = new ArrayList<>();
        appendParameters.add("session_id");
        appendParameters.addAll(MESSAGE_FIELDS);
        methods.add("append_message", appendParameters, p -> {
            String id = p.requiredString("session_id");
            NewMessage message = newMessage(p);
            return store -> store.get().appendMessage(id, message);
        });
        methods.add("append_messages", List.of("session_id", "messages"), p -> {  // extension: one transaction
            String id = p.requiredString("session_id");
            List<NewMessage> messages = new ArrayList<>();
            for (Map<String, Object> item : p.objectList("messages")) {
                messages.add(newMessage(new Params("append_messages() item", item, MESSAGE_FIELDS)));
            }
            return store -> store.get().appendMessages(id, messages);
        });
        methods.add("get_messages", List.of("session_id", "include_inactive"), p -> {
            String id = p.requiredString("session_id");
            boolean includeInactive = p.bool("include_inactive", false);
            return store -> HermesShapes.messages(store.get().getMessages(id, includeInactive), v17(store.get()));
        });
        methods.add("get_messages_as_conversation", List.of("session_id", "include_ancestors", "include_inactive"), p -> {
            String id = p.requiredString("session_id");
            ConversationOptions options = new ConversationOptions(p.bool("include_ancestors", false),
                    p.bool("include_inactive", false));
            return store -> {
                List<Map<String, Object>> conversation = new ArrayList<>();
                for (ChatMessage message : store.get().getMessagesAsConversation(id, options)) {
                    conversation.add(message.toMap());
                }
                return conversation;
            };
        });
        methods.add("clear_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().clearMessages(id);
                return null;
            };
        });
        methods.add("rewind_to_message", List.of("session_id", "target_message_id"), p -> {
            String id = p.requiredString("session_id");
            long target = p.requiredLong("target_message_id");
            return store -> rewound(store.get().rewindToMessage(id, target));
        });
        methods.add("restore_rewound", List.of("session_id", "since_message_id"), p -> {
            String id = p.requiredString("session_id");
            long since = p.requiredLong("since_message_id");
            return store -> store.get().restoreRewound(id, since);
        });
        methods.add("list_recent_user_messages", List.of("session_id", "limit", "include_inactive"), p -> {
            String id = p.requiredString("session_id");
            int limit = p.count("limit", 20);
            boolean includeInactive = p.bool("include_inactive", false);
            return store -> {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (RecentUserMessage message : store.get().listRecentUserMessages(id, limit, includeInactive)) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("id", message.id());
                    row.put("timestamp", message.timestamp());
                    row.put("preview", message.preview());
                    rows.add(row);
                }
                return rows;
            };
        });
        methods.add("has_archived_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().hasArchivedMessages(id);
        });
        methods.add("has_platform_message_id", List.of("session_id", "platform_message_id"), p -> {
            String id = p.requiredString("session_id");
            p.require("platform_message_id");
            // a number compares as its text, as SQLite compares it with the TEXT column
            String platformId = text(p.json("platform_message_id"), "platform_message_id");
            return store -> store.get().hasPlatformMessageId(id, platformId);
        });
        methods.add("replace_messages", List.of("session_id", "messages", "active_only"), p -> {
            String id = p.requiredString("session_id");
            List<NewMessage> messages = transcript(p.objectList("messages"));
            boolean activeOnly = p.bool("active_only", false);
            return store -> {
                store.get().replaceMessages(id, messages, activeOnly);
                return null;
            };
        });
        methods.add("archive_and_compact", List.of("session_id", "compacted_messages"), p -> {
            String id = p.requiredString("session_id");
            List<NewMessage> messages = transcript(p.objectList("compacted_messages"));
            return store -> store.get().archiveAndCompact(id, messages);
        });
        methods.add("get_messages_around", List.of("session_id", "around_message_id", "window"), p -> {
            String id = p.requiredString("session_id");
            long anchor = p.requiredLong("around_message_id");
            int window = p.count("window", 5);
            return store -> around(store.get().getMessagesAround(id, anchor, window), v17(store.get()));
        });
        methods.add("get_anchored_view", List.of("session_id", "around_message_id", "window", "bookend", "keep_roles"), p -> {
            String id = p.requiredString("session_id");
            long anchor = p.requiredLong("around_message_id");
            int window = p.count("window", 5);
            int bookend = p.count("bookend", 3);
            List<String> keepRoles = p.has("keep_roles") ? p.stringList("keep_roles") : DEFAULT_KEEP_ROLES;
            return store -> anchored(store.get().getAnchoredView(id, anchor, window, bookend, keepRoles),
                    v17(store.get()));
        });
    }

    /** True when the store answers as the agent of schema 17 (its dicts carry that schema's keys). */
    static boolean v17(StateRepository store) {
        return store.schemaRules() == SchemaRules.V17;
    }

    private static NewMessage newMessage(Params p) {
        return NewMessage.builder(p.requiredString("role"))
                .content(content(p.json("content")))
                .toolName(p.string("tool_name"))
                .toolCalls(toolCalls(p.json("tool_calls")))
                .toolCallId(p.string("tool_call_id"))
                .tokenCount(p.optionalLong("token_count"))
                .finishReason(p.string("finish_reason"))
                .reasoning(p.string("reasoning"))
                .reasoningContent(p.string("reasoning_content"))
                .reasoningDetails(jsonValue(p.json("reasoning_details")))
                .codexReasoningItems(jsonValue(p.json("codex_reasoning_items")))
                .codexMessageItems(jsonValue(p.json("codex_message_items")))
                .platformMessageId(text(p.json("platform_message_id"), "platform_message_id"))
                .observed(truthy(p.json("observed")))
                .timestamp(timestamp(p.json("timestamp")))
                .build();
    }

    /**
     * The messages of replace_messages / archive_and_compact: dicts read as the agent reads them, each key
     * looked up and any other ignored; role defaults to {@code unknown}, the platform id is
     * {@code platform_message_id} or else {@code message_id}.
     */
    private static List<NewMessage> transcript(List<Map<String, Object>> items) {
        List<NewMessage> messages = new ArrayList<>(items.size());
        for (Map<String, Object> item : items) {
            Object role = item.get("role");
            String platformId = text(item.get("platform_message_id"), "platform_message_id");
            if (platformId == null || platformId.isEmpty()) {
                String messageId = text(item.get("message_id"), "message_id");
                platformId = messageId == null || messageId.isEmpty() ? platformId : messageId;
            }
            messages.add(NewMessage.builder(role == null ? "unknown" : text(role, "role"))
                    .content(content(item.get("content")))
                    .toolName(text(item.get("tool_name"), "tool_name"))
                    .toolCalls(toolCalls(item.get("tool_calls")))
                    .toolCallId(text(item.get("tool_call_id"), "tool_call_id"))
                    .tokenCount(integer(item.get("token_count"), "token_count"))
                    .finishReason(text(item.get("finish_reason"), "finish_reason"))
                    .reasoning(text(item.get("reasoning"), "reasoning"))
                    .reasoningContent(text(item.get("reasoning_content"), "reasoning_content"))
                    .reasoningDetails(jsonValue(item.get("reasoning_details")))
                    .codexReasoningItems(jsonValue(item.get("codex_reasoning_items")))
                    .codexMessageItems(jsonValue(item.get("codex_message_items")))
                    .platformMessageId(platformId)
                    .observed(truthy(item.get("observed")))
                    .timestamp(timestamp(item.get("timestamp")))
                    .build());
        }
        return messages;
    }

    /** The agent's tool_calls value as it hands it over (absent or None: none). */
    private static @Nullable ToolCalls toolCalls(@Nullable Object value) {
        return value == null ? null : ToolCalls.json(value);
    }

    /** A JSON column's value as the agent hands it over (absent or None: none, which stores NULL as None would). */
    private static @Nullable JsonValue jsonValue(@Nullable Object value) {
        return value == null ? null : JsonValue.of(value);
    }

    /** Content as the agent stores it: a list or dict is structured, text stays text, a number its text. */
    private static MessageContent content(Object value) {
        if (value instanceof List<?> || value instanceof Map<?, ?>) {
            return MessageContent.of(value);
        }
        return MessageContent.text(text(value, "content"));
    }

    /**
     * A text column's value: a string, or a number or boolean as SQLite stores one in a text column (its
     * text: {@code 5}, {@code 1.5}, {@code 1} for true); a list or dict, which the agent cannot bind, is refused.
     */
    private static String text(Object value, String name) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        if (value instanceof Boolean flag) {
            return flag ? "1" : "0";
        }
        if (value instanceof Long || value instanceof BigInteger) {
            return value.toString();
        }
        if (value instanceof Double number) {
            return PythonJson.dumps(number);
        }
        throw new InvalidArgumentException("parameter '" + name + "' must be a string, got "
                + (value instanceof List<?> ? "a list" : value instanceof Map<?, ?> ? "an object" : value.getClass().getSimpleName()));
    }

    private static Long integer(Object value, String name) {
        if (value == null || value instanceof Long) {
            return (Long) value;
        }
        if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 9.0e15) {
            return number.longValue();
        }
        if (value instanceof Boolean flag) {
            return flag ? 1L : 0L;
        }
        throw new InvalidArgumentException("parameter '" + name + "' must be an integer, got " + value);
    }

    /** Python's truth of a value ({@code 1 if observed else 0}). */
    private static boolean truthy(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof Number number) {
            return value instanceof BigInteger big ? big.signum() != 0 : number.doubleValue() != 0;
        }
        if (value instanceof String text) {
            return !text.isEmpty();
        }
        if (value instanceof Collection<?> list) {
            return !list.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        return true;
    }

    /**
     * An explicit timestamp as the agent reads one: a number of epoch seconds; a string holding a number,
     * or a date and time (what a Python {@code datetime} becomes on its way here: {@code str(dt)}, local
     * time when it has no offset). Anything else is ignored, as the agent ignores it: the row is stamped now.
     */
    private static Instant timestamp(Object value) {
        Double seconds = null;
        if (value instanceof Boolean flag) {
            seconds = flag ? 1.0 : 0.0;
        } else if (value instanceof Number number) {
            seconds = value instanceof BigDecimal decimal ? decimal.doubleValue() : number.doubleValue();
        } else if (value instanceof String text) {
            seconds = parseSeconds(text.strip());
        }
        if (seconds == null || !Double.isFinite(seconds)) {
            return null;
        }
        try {
            return Timestamps.ofEpochSeconds(seconds);
        } catch (InvalidArgumentException outOfRange) {
            return null;
        }
    }

    private static Double parseSeconds(String text) {
        try {
            return Double.parseDouble(text.replace("_", ""));
        } catch (NumberFormatException notANumber) {
            // a datetime's str()
        }
        String iso = text.replace(' ', 'T');
        try {
            OffsetDateTime withOffset = OffsetDateTime.parse(iso);
            return Timestamps.epochSeconds(withOffset.toInstant());
        } catch (DateTimeParseException noOffset) {
            // naive: local time
        }
        try {
            return Timestamps.epochSeconds(LocalDateTime.parse(iso).atZone(ZoneId.systemDefault()).toInstant());
        } catch (DateTimeParseException notADate) {
            return null;
        }
    }

    /**
     * rewind_to_message's dict; the target row with its tool_calls as JSON text, as the agent hands them
     * back: the value get_messages reads, written as Python's json.dumps writes it (an empty text as it is).
     */
    private static Map<String, Object> rewound(RewindResult result) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("rewound_count", (long) result.rewoundCount());
        Map<String, Object> target = HermesShapes.message(result.targetMessage(), true);
        ToolCalls stored = result.targetMessage().toolCalls();
        Object toolCalls = stored == null ? null : stored.value();
        target.put("tool_calls", toolCalls == null || toolCalls instanceof String ? toolCalls : PythonJson.dumps(toolCalls));
        answer.put("target_message", target);
        answer.put("new_head_id", result.newHeadId());
        return answer;
    }

    private static Map<String, Object> around(MessagesAround around, boolean v17) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("window", HermesShapes.messages(around.window(), v17));
        answer.put("messages_before", (long) around.messagesBefore());
        answer.put("messages_after", (long) around.messagesAfter());
        return answer;
    }

    private static Map<String, Object> anchored(AnchoredView view, boolean v17) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("window", HermesShapes.messages(view.window(), v17));
        answer.put("messages_before", (long) view.messagesBefore());
        answer.put("messages_after", (long) view.messagesAfter());
        answer.put("bookend_start", HermesShapes.messages(view.bookendStart(), v17));
        answer.put("bookend_end", HermesShapes.messages(view.bookendEnd(), v17));
        return answer;
    }
}
