package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.Titles;
import dev.hermes.state.core.model.TokenUsage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every method of the RPC: the Hermes {@code SessionDB} method name, its keyword parameters in
 * Hermes' order with Hermes' defaults, and the store call that answers it, shaped like Hermes'
 * return value (None → null, dicts with Hermes' keys). Each method first reads and checks all its
 * arguments, and only then touches the store: a bad argument never opens, let alone writes, the
 * file. Methods Hermes lacks are marked "extension".
 */
final class RpcMethods {
    /** Reads and checks a call's arguments, and returns what to run on the store with them. */
    @FunctionalInterface
    interface Binder {
        Call bind(Params params);
    }

    /** A call with its arguments bound; {@code store} opens the store on first use. */
    @FunctionalInterface
    interface Call {
        Object run(Supplier<StateRepository> store);
    }

    /** A method: its parameter names (Hermes' order) and how to bind them. */
    record Method(String name, List<String> parameters, Binder binder) {
    }

    /** The keyword parameters of append_message after session_id (also the keys of an append_messages item). */
    private static final List<String> MESSAGE_FIELDS = List.of("role", "content", "tool_name", "tool_calls",
            "tool_call_id", "token_count", "finish_reason", "reasoning", "reasoning_details", "codex_reasoning_items");

    private static final Map<String, Method> METHODS = define();

    private RpcMethods() {
    }

    static Method find(String name) {
        return METHODS.get(name);
    }

    static List<String> names() {
        return List.copyOf(METHODS.keySet());
    }

    private static Map<String, Method> define() {
        Map<String, Method> methods = new LinkedHashMap<>();

        // ---- sessions
        add(methods, "create_session", List.of("session_id", "source", "model", "model_config", "system_prompt",
                "user_id", "parent_session_id"), p -> {
            NewSession session = NewSession.builder(p.requiredString("session_id"), p.requiredString("source"))
                    .model(p.string("model"))
                    .modelConfig(p.json("model_config"))
                    .systemPrompt(p.string("system_prompt"))
                    .userId(p.string("user_id"))
                    .parentSessionId(p.string("parent_session_id"))
                    .build();
            return store -> store.get().createSession(session);
        });
        add(methods, "ensure_session", List.of("session_id", "source", "model"), p -> {
            String id = p.requiredString("session_id");
            String source = p.string("source", "unknown");
            String model = p.string("model");
            return store -> {
                store.get().ensureSession(id, source, model);
                return null;
            };
        });
        add(methods, "end_session", List.of("session_id", "end_reason"), p -> {
            String id = p.requiredString("session_id");
            String reason = p.requiredString("end_reason");
            return store -> {
                store.get().endSession(id, reason);
                return null;
            };
        });
        add(methods, "reopen_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().reopenSession(id);
                return null;
            };
        });
        add(methods, "update_system_prompt", List.of("session_id", "system_prompt"), p -> {
            String id = p.requiredString("session_id");
            String prompt = p.requiredString("system_prompt");
            return store -> {
                store.get().updateSystemPrompt(id, prompt);
                return null;
            };
        });
        add(methods, "update_token_counts", List.of("session_id", "input_tokens", "output_tokens", "model",
                "cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "estimated_cost_usd", "actual_cost_usd",
                "cost_status", "cost_source", "pricing_version", "billing_provider", "billing_base_url", "billing_mode",
                "absolute"), p -> {
            String id = p.requiredString("session_id");
            TokenUsage usage = TokenUsage.builder()
                    .inputTokens(p.longValue("input_tokens", 0))
                    .outputTokens(p.longValue("output_tokens", 0))
                    .model(p.string("model"))
                    .cacheReadTokens(p.longValue("cache_read_tokens", 0))
                    .cacheWriteTokens(p.longValue("cache_write_tokens", 0))
                    .reasoningTokens(p.longValue("reasoning_tokens", 0))
                    .estimatedCostUsd(p.optionalDouble("estimated_cost_usd"))
                    .actualCostUsd(p.optionalDouble("actual_cost_usd"))
                    .costStatus(p.string("cost_status"))
                    .costSource(p.string("cost_source"))
                    .pricingVersion(p.string("pricing_version"))
                    .billingProvider(p.string("billing_provider"))
                    .billingBaseUrl(p.string("billing_base_url"))
                    .billingMode(p.string("billing_mode"))
                    .absolute(p.bool("absolute", false))
                    .build();
            return store -> {
                store.get().updateTokenCounts(id, usage);
                return null;
            };
        });
        add(methods, "get_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getSession(id).map(HermesShapes::session).orElse(null);
        });
        add(methods, "resolve_session_id", List.of("session_id_or_prefix"), p -> {
            String reference = p.requiredString("session_id_or_prefix");
            return store -> store.get().resolveSessionId(reference).orElse(null);
        });
        add(methods, "session_count", List.of("source"), p -> {
            String source = p.string("source");
            return store -> store.get().sessionCount(source);
        });
        add(methods, "message_count", List.of("session_id"), p -> {
            String id = p.string("session_id");
            return store -> store.get().messageCount(id);
        });
        add(methods, "search_sessions", List.of("source", "limit", "offset"), p -> {
            String source = p.string("source");
            int limit = p.count("limit", 20);
            int offset = p.count("offset", 0);
            return store -> HermesShapes.sessions(store.get().searchSessions(source, limit, offset));
        });

        // ---- messages
        List<String> appendParameters = new ArrayList<>();
        appendParameters.add("session_id");
        appendParameters.addAll(MESSAGE_FIELDS);
        add(methods, "append_message", appendParameters, p -> {
            String id = p.requiredString("session_id");
            NewMessage message = newMessage(p);
            return store -> store.get().appendMessage(id, message);
        });
        add(methods, "append_messages", List.of("session_id", "messages"), p -> {  // extension: one transaction
            String id = p.requiredString("session_id");
            List<NewMessage> messages = new ArrayList<>();
            for (Map<String, Object> item : p.objectList("messages")) {
                messages.add(newMessage(new Params("append_messages() item", item, MESSAGE_FIELDS)));
            }
            return store -> store.get().appendMessages(id, messages);
        });
        add(methods, "get_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> HermesShapes.messages(store.get().getMessages(id));
        });
        add(methods, "get_messages_as_conversation", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                List<Map<String, Object>> conversation = new ArrayList<>();
                for (ChatMessage message : store.get().getMessagesAsConversation(id)) {
                    conversation.add(message.toMap());
                }
                return conversation;
            };
        });
        add(methods, "clear_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().clearMessages(id);
                return null;
            };
        });

        // ---- titles
        add(methods, "sanitize_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> Titles.sanitize(title).orElse(null);
        });
        add(methods, "set_session_title", List.of("session_id", "title"), p -> {
            String id = p.requiredString("session_id");
            String title = p.requiredString("title");
            return store -> store.get().setSessionTitle(id, title);
        });
        add(methods, "get_session_title", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getSessionTitle(id).orElse(null);
        });
        add(methods, "get_session_by_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> store.get().getSessionByTitle(title).map(HermesShapes::session).orElse(null);
        });
        add(methods, "resolve_session_by_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> store.get().resolveSessionByTitle(title).orElse(null);
        });
        add(methods, "get_next_title_in_lineage", List.of("base_title"), p -> {
            String base = p.requiredString("base_title");
            return store -> store.get().nextTitleInLineage(base);
        });

        // ---- lineage
        add(methods, "get_compression_tip", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().compressionTip(id);
        });
        add(methods, "get_lineage_ancestors", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().ancestors(id));
        });
        add(methods, "get_lineage_tree", List.of("session_id"), p -> {  // extension
            String id = p.requiredString("session_id");
            return store -> HermesShapes.lineage(store.get().lineageTree(id));
        });

        // ---- listing and search
        add(methods, "list_sessions_rich", List.of("source", "exclude_sources", "limit", "offset", "include_children",
                "project_compression_tips"), p -> {
            ListSessionsQuery query = ListSessionsQuery.builder()
                    .source(p.string("source"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .includeChildren(p.bool("include_children", false))
                    .projectCompressionTips(p.bool("project_compression_tips", true))
                    .build();
            return store -> HermesShapes.richRows(store.get().listSessionsRich(query));
        });
        add(methods, "search_messages", List.of("query", "source_filter", "exclude_sources", "role_filter", "limit",
                "offset"), p -> {
            SearchQuery query = SearchQuery.builder(p.requiredString("query"))
                    .sourceFilter(p.stringList("source_filter"))
                    .excludeSources(p.stringList("exclude_sources"))
                    .roleFilter(p.stringList("role_filter"))
                    .limit(p.count("limit", 20))
                    .offset(p.count("offset", 0))
                    .build();
            return store -> HermesShapes.hits(store.get().searchMessages(query));
        });

        // ---- export, delete, prune
        add(methods, "export_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().exportSession(id).map(HermesShapes::export).orElse(null);
        });
        add(methods, "export_all", List.of("source"), p -> {
            String source = p.string("source");
            return store -> {
                // Hermes returns one list; a response is one JSON line, so it is built in memory here.
                // The streaming export is the command line's `sessions export`.
                List<Map<String, Object>> exports = new ArrayList<>();
                store.get().exportAll(source, export -> exports.add(HermesShapes.export(export)));
                return exports;
            };
        });
        add(methods, "delete_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().deleteSession(id);
        });
        add(methods, "prune_sessions", List.of("older_than_days", "source"), p -> {
            double days = p.number("older_than_days", 90);
            String source = p.string("source");
            return store -> store.get().pruneSessions(days, source);
        });
        add(methods, "vacuum", List.of(), p -> store -> store.get().vacuum());  // extension: bytes reclaimed
        // close: the server closes the store after answering and ends the session
        add(methods, RpcServer.CLOSE, List.of(), p -> store -> null);
        return Collections.unmodifiableMap(methods);
    }

    private static NewMessage newMessage(Params p) {
        return NewMessage.builder(p.requiredString("role"))
                .content(p.string("content"))
                .toolName(p.string("tool_name"))
                .toolCalls(p.json("tool_calls"))
                .toolCallId(p.string("tool_call_id"))
                .tokenCount(p.optionalLong("token_count"))
                .finishReason(p.string("finish_reason"))
                .reasoning(p.string("reasoning"))
                .reasoningDetails(p.json("reasoning_details"))
                .codexReasoningItems(p.json("codex_reasoning_items"))
                .build();
    }

    private static void add(Map<String, Method> methods, String name, List<String> parameters, Binder binder) {
        methods.put(name, new Method(name, List.copyOf(parameters), binder));
    }
}
