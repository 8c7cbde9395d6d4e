package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Titles;
import dev.hermes.state.core.model.TokenUsage;

import java.util.List;

/** The RPC methods of sessions and their titles: create, end, reopen, token counts, read, resolve. */
final class SessionMethods {
    private SessionMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- sessions
        methods.add("create_session", List.of("session_id", "source", "model", "model_config", "system_prompt",
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
        methods.add("ensure_session", List.of("session_id", "source", "model"), p -> {
            String id = p.requiredString("session_id");
            String source = p.string("source", "unknown");
            String model = p.string("model");
            return store -> {
                store.get().ensureSession(id, source, model);
                return null;
            };
        });
        methods.add("end_session", List.of("session_id", "end_reason"), p -> {
            String id = p.requiredString("session_id");
            String reason = p.requiredString("end_reason");
            return store -> {
                store.get().endSession(id, reason);
                return null;
            };
        });
        methods.add("reopen_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().reopenSession(id);
                return null;
            };
        });
        methods.add("update_system_prompt", List.of("session_id", "system_prompt"), p -> {
            String id = p.requiredString("session_id");
            String prompt = p.requiredString("system_prompt");
            return store -> {
                store.get().updateSystemPrompt(id, prompt);
                return null;
            };
        });
        methods.add("update_token_counts", List.of("session_id", "input_tokens", "output_tokens", "model",
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
        methods.add("get_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getSession(id).map(HermesShapes::session).orElse(null);
        });
        methods.add("resolve_session_id", List.of("session_id_or_prefix"), p -> {
            String reference = p.requiredString("session_id_or_prefix");
            return store -> store.get().resolveSessionId(reference).orElse(null);
        });
        methods.add("message_count", List.of("session_id"), p -> {
            String id = p.string("session_id");
            return store -> store.get().messageCount(id);
        });

        // ---- titles
        methods.add("sanitize_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> Titles.sanitize(title).orElse(null);
        });
        methods.add("set_session_title", List.of("session_id", "title"), p -> {
            String id = p.requiredString("session_id");
            String title = p.requiredString("title");
            return store -> store.get().setSessionTitle(id, title);
        });
        methods.add("get_session_title", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getSessionTitle(id).orElse(null);
        });
        methods.add("get_session_by_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> store.get().getSessionByTitle(title).map(HermesShapes::session).orElse(null);
        });
        methods.add("resolve_session_by_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> store.get().resolveSessionByTitle(title).orElse(null);
        });
        methods.add("get_next_title_in_lineage", List.of("base_title"), p -> {
            String base = p.requiredString("base_title");
            return store -> store.get().nextTitleInLineage(base);
        });

    }
}
