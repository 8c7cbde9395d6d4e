package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.TelegramTopicBinding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The RPC methods of Telegram DM topic mode (the agent's keyword-only parameters; ids given as
 * numbers are read as Python's {@code str()} writes them, as the agent converts them).
 */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
final class TelegramMethods {
    private TelegramMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        methods.add("apply_telegram_topic_migration", List.of(), p -> store -> {
            store.get().telegramTopics().applyMigration();
            return null;
        });
        methods.add("enable_telegram_topic_mode", List.of("chat_id", "user_id", "has_topics_enabled",
                "allows_users_to_create_topics"), p -> {
            String chat = p.requiredText("chat_id");
            String user = p.requiredText("user_id");
            Boolean topics = p.optionalBool("has_topics_enabled");
            Boolean create = p.optionalBool("allows_users_to_create_topics");
            return store -> {
                store.get().telegramTopics().enable(chat, user, topics, create);
                return null;
            };
        });
        methods.add("disable_telegram_topic_mode", List.of("chat_id", "clear_bindings"), p -> {
            String chat = p.requiredText("chat_id");
            boolean clear = p.bool("clear_bindings", true);
            return store -> {
                store.get().telegramTopics().disable(chat, clear);
                return null;
            };
        });
        methods.add("is_telegram_topic_mode_enabled", List.of("chat_id", "user_id"), p -> {
            String chat = p.requiredText("chat_id");
            String user = p.requiredText("user_id");
            return store -> store.get().telegramTopics().isEnabled(chat, user);
        });
        methods.add("get_telegram_topic_binding", List.of("chat_id", "thread_id"), p -> {
            String chat = p.requiredText("chat_id");
            String thread = p.requiredText("thread_id");
            return store -> store.get().telegramTopics().binding(chat, thread).map(TelegramMethods::binding).orElse(null);
        });
        methods.add("list_telegram_topic_bindings_for_chat", List.of("chat_id"), p -> {
            String chat = p.requiredText("chat_id");
            return store -> {
                List<Map<String, Object>> rows = new ArrayList<>();
                store.get().telegramTopics().bindingsForChat(chat).forEach(binding -> rows.add(binding(binding)));
                return rows;
            };
        });
        methods.add("get_telegram_topic_binding_by_session", List.of("session_id"), p -> {
            String id = p.requiredText("session_id");
            return store -> store.get().telegramTopics().bindingBySession(id).map(TelegramMethods::binding).orElse(null);
        });
        methods.add("delete_telegram_topic_binding", List.of("chat_id", "thread_id"), p -> {
            String chat = p.requiredText("chat_id");
            String thread = p.requiredText("thread_id");
            return store -> store.get().telegramTopics().deleteBinding(chat, thread);
        });
        methods.add("bind_telegram_topic", List.of("chat_id", "thread_id", "user_id", "session_key", "session_id",
                "managed_mode"), p -> {
            String chat = p.requiredText("chat_id");
            String thread = p.requiredText("thread_id");
            String user = p.requiredText("user_id");
            String key = p.requiredText("session_key");
            String id = p.requiredText("session_id");
            String mode = p.string("managed_mode", "auto");
            return store -> {
                store.get().telegramTopics().bind(chat, thread, user, key, id, mode);
                return null;
            };
        });
        methods.add("is_telegram_session_linked_to_topic", List.of("session_id"), p -> {
            String id = p.requiredText("session_id");
            return store -> store.get().telegramTopics().isSessionLinked(id);
        });
        methods.add("list_unlinked_telegram_sessions_for_user", List.of("chat_id", "user_id", "limit"), p -> {
            String chat = p.requiredText("chat_id");
            String user = p.requiredText("user_id");
            int limit = p.count("limit", 10);
            return store -> HermesShapes.richRows(store.get().telegramTopics().unlinkedSessions(chat, user, limit));
        });
    }

    /** A binding row as the agent's {@code dict(row)}: the table's columns in its order. */
    private static Map<String, Object> binding(TelegramTopicBinding binding) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("chat_id", binding.chatId());
        row.put("thread_id", binding.threadId());
        row.put("user_id", binding.userId());
        row.put("session_key", binding.sessionKey());
        row.put("session_id", binding.sessionId());
        row.put("managed_mode", binding.managedMode());
        row.put("linked_at", binding.linkedAt());
        row.put("updated_at", binding.updatedAt());
        return row;
    }
}
