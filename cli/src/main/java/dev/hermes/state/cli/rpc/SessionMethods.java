package dev.hermes.state.cli.rpc;

import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Titles;
import dev.hermes.state.core.model.TokenUsage;

import java.util.List;
import java.util.Map;

/** The RPC methods of sessions and their titles: create, end, reopen, token counts, read, resolve. */
// The JSON arguments reach the store as the caller gave them, nulls included: the store checks
// them and answers a typed error, as the agent's own store does for the same call.
@SuppressWarnings("NullAway")
final class SessionMethods {
    private SessionMethods() {
    }

    /** The keywords of create_session and ensure_session, read before the store is touched. */
    private static NewSession newSession(Params p, String source) {
        return NewSession.builder(p.requiredString("session_id"), source)
                .model(p.string("model"))
                .modelConfig(p.json("model_config"))
                .systemPrompt(p.string("system_prompt"))
                .userId(p.string("user_id"))
                .sessionKey(p.string("session_key"))
                .chatId(p.string("chat_id"))
                .chatType(p.string("chat_type"))
                .threadId(p.string("thread_id"))
                .parentSessionId(p.string("parent_session_id"))
                .cwd(p.string("cwd"))
                .build();
    }

    static void register(RpcMethods.Registry methods) {
        // ---- sessions
        // create_session(session_id, source, **kwargs) and ensure_session(session_id, source, model, **kwargs):
        // the keywords the agent's insert takes (at version 6's rules the schema-17 ones are refused)
        methods.add("create_session", List.of("session_id", "source", "model", "model_config", "system_prompt",
                "user_id", "session_key", "chat_id", "chat_type", "thread_id", "parent_session_id", "cwd"), p -> {
            NewSession session = newSession(p, p.requiredString("source"));
            return store -> store.get().createSession(session);
        });
        methods.add("ensure_session", List.of("session_id", "source", "model", "model_config", "system_prompt",
                "user_id", "session_key", "chat_id", "chat_type", "thread_id", "parent_session_id", "cwd"), p -> {
            NewSession session = newSession(p, p.string("source", "unknown"));
            return store -> {
                StateRepository repository = store.get();
                if (repository.rulesVersion() < 17) {
                    if (session.modelConfig() != null || session.systemPrompt() != null || session.userId() != null
                            || session.parentSessionId() != null || session.sessionKey() != null || session.chatId() != null
                            || session.chatType() != null || session.threadId() != null || session.cwd() != null) {
                        throw new InvalidArgumentException("ensure_session takes only session_id, source and model on a"
                                + " store kept at schema version 6");
                    }
                    repository.ensureSession(session.id(), session.source(), session.model());
                    return null;
                }
                repository.ensureSession(session);
                return session.id();
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
                "api_call_count", "absolute"), p -> {
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
                    .apiCallCount(p.longValue("api_call_count", 0))
                    .absolute(p.bool("absolute", false))
                    .build();
            return store -> {
                store.get().updateTokenCounts(id, usage);
                return null;
            };
        });
        methods.add("update_session_meta", List.of("session_id", "model_config_json", "model"), p -> {
            String id = p.requiredString("session_id");
            String config = p.requiredString("model_config_json");
            String model = p.string("model");
            return store -> {
                store.get().updateSessionMeta(id, config, model);
                return null;
            };
        });
        methods.add("update_session_model", List.of("session_id", "model"), p -> {
            String id = p.requiredString("session_id");
            String model = p.requiredString("model");
            return store -> {
                store.get().updateSessionModel(id, model);
                return null;
            };
        });
        methods.add("update_session_billing_route", List.of("session_id", "provider", "base_url", "billing_mode"), p -> {
            String id = p.requiredString("session_id");
            String provider = p.requiredString("provider");
            String baseUrl = p.requiredString("base_url");
            String mode = p.string("billing_mode");
            return store -> {
                store.get().updateSessionBillingRoute(id, provider, baseUrl, mode);
                return null;
            };
        });
        methods.add("update_session_cwd", List.of("session_id", "cwd", "git_branch", "git_repo_root"), p -> {
            String id = p.requiredString("session_id");
            String cwd = p.requiredString("cwd");
            String branch = p.string("git_branch");
            String root = p.string("git_repo_root");
            return store -> {
                if (id != null && !id.isEmpty() && cwd != null && !cwd.isEmpty()) {  // the agent's early return
                    store.get().updateSessionCwd(id, cwd, branch, root);
                }
                return null;
            };
        });
        methods.add("backfill_repo_roots", List.of("cwd_to_root"), p -> {
            Map<String, String> pairs = p.stringMap("cwd_to_root");
            return store -> {
                store.get().backfillRepoRoots(pairs);
                return null;
            };
        });
        methods.add("set_session_archived", List.of("session_id", "archived"), p -> {
            String id = p.requiredString("session_id");
            p.require("archived");
            boolean archived = p.bool("archived", false);
            return store -> store.get().setSessionArchived(id, archived);
        });
        methods.add("list_cron_job_runs", List.of("job_id", "limit", "offset"), p -> {
            String job = p.requiredText("job_id");
            int limit = p.count("limit", 20);
            int offset = p.count("offset", 0);
            return store -> HermesShapes.richRows(store.get().listCronJobRuns(job, limit, offset));
        });
        methods.add("get_session", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> store.get().getSession(id).map(SessionRows::of).orElse(null);
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
            return store -> store.get().getSessionByTitle(title).map(SessionRows::of).orElse(null);
        });
        methods.add("resolve_session_by_title", List.of("title"), p -> {
            String title = p.requiredString("title");
            return store -> store.get().resolveSessionByTitle(title).orElse(null);
        });
        methods.add("get_next_title_in_lineage", List.of("base_title"), p -> {
            String base = p.requiredString("base_title");
            return store -> store.get().getNextTitleInLineage(base);
        });

    }
}
