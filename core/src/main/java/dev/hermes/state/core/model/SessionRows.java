package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code sessions} row as the Python agent's {@code get_session} dict holds it: the column names as
 * keys, every column the row was read from (so a column an older file lacks has no key, as in the
 * agent's dict of such a file), in the order {@link Session#columns()} gives, JSON columns as stored
 * text, flags as the 0 or 1 the file holds, timestamps as {@link java.time.Instant}s. The command
 * line's {@code --json} and RPC and the HTTP server write sessions through it, each adding its own keys.
 */
public final class SessionRows {
    private SessionRows() {
    }

    /** The row of {@code s}, a new map the caller may add to. */
    public static Map<String, @Nullable Object> of(Session s) {
        Map<String, @Nullable Object> row = new LinkedHashMap<>();
        for (String column : s.columns().names()) {
            row.put(column, column(s, column));
        }
        return row;
    }

    /**
     * The row of a listed session ({@code list_sessions_rich}): its columns, the tip's workspace on a row
     * projected onto the tip of its compression chain, {@code preview}, {@code last_active}, and
     * {@code _lineage_root_id} on such a projected row alone (Hermes adds the key to those rows only, and
     * its callers test for it: {@code "_lineage_root_id" in row}).
     */
    public static Map<String, @Nullable Object> of(RichSession r) {
        Map<String, @Nullable Object> row = of(r.session());
        RichSession.Workspace workspace = r.workspace();
        if (workspace != null) { // a projected row's are the tip's, not its root's
            row.put("cwd", workspace.cwd());
            row.put("git_branch", workspace.gitBranch());
            row.put("git_repo_root", workspace.gitRepoRoot());
        }
        row.put("preview", r.preview());
        row.put("last_active", r.lastActive());
        if (r.lineageRootId() != null) {
            row.put("_lineage_root_id", r.lineageRootId());
        }
        return row;
    }

    private static @Nullable Object column(Session s, String column) {
        return switch (column) {
            case "id" -> s.id();
            case "source" -> s.source();
            case "user_id" -> s.userId();
            case "session_key" -> s.sessionKey();
            case "chat_id" -> s.chatId();
            case "chat_type" -> s.chatType();
            case "thread_id" -> s.threadId();
            case "model" -> s.model();
            case "model_config" -> s.modelConfig();
            case "system_prompt" -> s.systemPrompt();
            case "parent_session_id" -> s.parentSessionId();
            case "started_at" -> s.startedAt();
            case "ended_at" -> s.endedAt();
            case "end_reason" -> s.endReason();
            case "message_count" -> s.messageCount();
            case "tool_call_count" -> s.toolCallCount();
            case "input_tokens" -> s.inputTokens();
            case "output_tokens" -> s.outputTokens();
            case "cache_read_tokens" -> s.cacheReadTokens();
            case "cache_write_tokens" -> s.cacheWriteTokens();
            case "reasoning_tokens" -> s.reasoningTokens();
            case "cwd" -> s.cwd();
            case "git_branch" -> s.gitBranch();
            case "git_repo_root" -> s.gitRepoRoot();
            case "billing_provider" -> s.billingProvider();
            case "billing_base_url" -> s.billingBaseUrl();
            case "billing_mode" -> s.billingMode();
            case "estimated_cost_usd" -> s.estimatedCostUsd();
            case "actual_cost_usd" -> s.actualCostUsd();
            case "cost_status" -> s.costStatus();
            case "cost_source" -> s.costSource();
            case "pricing_version" -> s.pricingVersion();
            case "title" -> s.title();
            case "api_call_count" -> s.apiCallCount();
            case "handoff_state" -> s.handoffState();
            case "handoff_platform" -> s.handoffPlatform();
            case "handoff_error" -> s.handoffError();
            case "compression_failure_cooldown_until" -> s.compressionFailureCooldownUntil();
            case "compression_failure_error" -> s.compressionFailureError();
            case "rewind_count" -> s.rewindCount();
            case "archived" -> s.archived() ? 1L : 0L;
            // SessionColumns names only these columns
            default -> throw new IllegalStateException("not a sessions column: " + column);
        };
    }
}
