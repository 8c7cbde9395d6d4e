package dev.hermes.state.cli.demo;

import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.TokenUsage;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * A small, realistic week of agent sessions, written through the store's public API exactly as the
 * agent would write them: four sources, a compression chain titled with the lineage rule
 * ({@code my project}, {@code my project #2}, ...) plus a delegate, tool calls and their results,
 * reasoning, token counts and costs, Chinese, Japanese and emoji text.
 */
public final class DemoData {
    /** The title of the compression chain the demo shows as a lineage tree. */
    public static final String CHAIN_TITLE = "my project";
    /** A search the demo runs: it finds the chain and more. */
    public static final String ENGLISH_QUERY = "\"database migration\"";
    /** A two-character Chinese word inside a longer run: found by the CJK fallback. */
    public static final String CHINESE_QUERY = "迁移";

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");
    private static final String CLAUDE = "anthropic/claude-sonnet-4";
    private static final String GPT = "openai/gpt-4o";
    private static final String QWEN = "qwen/qwen3-coder";
    private static final String SYSTEM_PROMPT = "You are Hermes, a helpful agent with terminal and file tools.";

    private final StateRepository store;
    private final DemoClock clock;
    private final Instant now;
    private final Random random = new Random(20260310L);
    private Instant time;
    private int calls;
    private int sessions;
    private int messages;

    private DemoData(StateRepository store, DemoClock clock, Instant now) {
        this.store = store;
        this.clock = clock;
        this.now = now;
        this.time = now;
    }

    /** What was written. */
    public record Summary(int sessions, int messages) {
    }

    /** Writes the sample sessions, timed over the week before {@code now}; the clock is reset after. */
    public static Summary fill(StateRepository store, DemoClock clock, Instant now) {
        DemoData data = new DemoData(store, clock, now);
        try {
            data.write();
        } finally {
            clock.set(null);
        }
        return new Summary(data.sessions, data.messages);
    }

    private void write() {
        compressionChain();
        chineseQuestion();
        authBug();
        dockerPort();
        launchPlan();
        japaneseDeploy();
        resumeEditing();
        kubernetesRollout();
    }

    private void compressionChain() {
        String root = start("cli", CLAUDE, null, hoursAgo(150));
        say(root, "user", "Help me plan the database migration for my project: listing sessions got slow.");
        tool(root, "", "terminal", "{\"command\": \"sqlite3 ~/.hermes/state.db '.indexes sessions'\"}",
                "idx_sessions_source\nidx_sessions_parent");
        String delegate = start("cli", CLAUDE, root, time.plusSeconds(60));
        say(delegate, "user", "Summarise which queries of state.db lack an index.");
        tool(delegate, "", "read_file", "{\"path\": \"hermes_state.py\"}", "def list_sessions_rich(...): ... ORDER BY started_at DESC");
        say(delegate, "assistant", "list_sessions_rich sorts by started_at, which has no index.");
        end(delegate, "delegate_complete");
        say(root, "assistant", "Plan: 1) add an index on started_at, 2) run the database migration in a quiet hour, "
                + "3) check the plan with EXPLAIN QUERY PLAN.");
        say(root, "user", "Sounds good. Let's continue tomorrow.");
        title(root, CHAIN_TITLE);
        tokens(root, CLAUDE, 5_230, 1_210, 0.0338);
        end(root, "compression");

        String second = start("cli", CLAUDE, root, time.plusSeconds(5));
        say(second, "user", "Continue: write the migration script for the new index.");
        reasoned(second, "Here is an idempotent script:\nCREATE INDEX IF NOT EXISTS idx_sessions_started "
                + "ON sessions(started_at DESC);\nRun it with a dry-run first.",
                "The script must be safe to run twice, so IF NOT EXISTS.");
        title(second, store.getNextTitleInLineage(CHAIN_TITLE));
        tokens(second, CLAUDE, 3_980, 640, 0.0215);
        end(second, "compression");

        String third = start("cli", CLAUDE, second, hoursAgo(100));
        say(third, "user", "The dry-run of the database migration passed. How do I deploy it to the server?");
        toolCalls(third, "I'll copy the script and run it on the server.", List.of(
                call("terminal", "{\"command\": \"scp migrate.sql prod:/tmp/\"}"),
                call("terminal", "{\"command\": \"ssh prod 'sqlite3 /srv/hermes/state.db < /tmp/migrate.sql'\"}")));
        toolResult(third, "terminal", "call_" + (calls - 1), "migrate.sql  100%  142B");
        toolResult(third, "terminal", "call_" + calls, "(no output: index created)");
        say(third, "assistant", "Deployed. Listing sessions is now about 40x faster.");
        title(third, store.getNextTitleInLineage(CHAIN_TITLE));
        tokens(third, CLAUDE, 6_420, 980, 0.0339);
        end(third, "compression");

        String fourth = start("cli", CLAUDE, third, hoursAgo(30));
        say(fourth, "user", "Any follow-ups after the database migration?");
        say(fourth, "assistant", "Two: watch the size of the -wal file, and VACUUM after pruning old sessions.");
        title(fourth, store.getNextTitleInLineage(CHAIN_TITLE));
        tokens(fourth, CLAUDE, 2_110, 320, 0.0111);
    }

    private void chineseQuestion() {
        String id = start("telegram", QWEN, null, hoursAgo(120));
        say(id, "user", "数据库迁移的时候出现了锁等待超时，怎么办？");
        say(id, "assistant", "SQLite 在 WAL 模式下允许并发读取，但同一时间只能有一个写入者。建议：1）写事务使用 BEGIN IMMEDIATE；"
                + "2）设置 busy_timeout；3）把大的迁移拆成小批次。");
        say(id, "user", "明白了，谢谢！🙏");
        title(id, "数据库迁移");
        tokens(id, QWEN, 1_480, 360, 0.0009);
        end(id, "session_reset");
    }

    private void authBug() {
        String id = start("slack", CLAUDE, null, hoursAgo(76));
        say(id, "user", "Users get a 401 right after the token refresh. Can you look at auth/middleware.py?");
        toolCalls(id, "", List.of(call("read_file", "{\"path\": \"auth/middleware.py\"}")),
                "The refreshed token has to be stored before the request is retried; check that first.");
        toolResult(id, "read_file", "call_" + calls,
                "def refresh(request):\n    token = issue_token(request.user)\n    return retry(request)  # token never stored");
        say(id, "assistant", "Found it: refresh() issues a new token but never stores it, so the retry still sends the "
                + "expired one. Save the token on the session before calling retry().");
        title(id, "Debugging Auth");
        tokens(id, CLAUDE, 4_870, 730, 0.0256);
        end(id, "session_reset");
    }

    private void dockerPort() {
        String id = start("cli", GPT, null, hoursAgo(52));
        say(id, "user", "Why does docker compose fail with 'port 5432 is already allocated'?");
        tool(id, "", "terminal", "{\"command\": \"docker ps --filter publish=5432\"}",
                "CONTAINER ID   IMAGE         PORTS\n3f2a9c1b7d4e   postgres:16   0.0.0.0:5432->5432/tcp");
        say(id, "assistant", "An older postgres container still holds port 5432. Stop it (docker stop 3f2a9c1b7d4e) "
                + "or publish the new one on 5433.");
        tokens(id, GPT, 2_340, 410, 0.0100);
        end(id, "cli_close");
    }

    private void launchPlan() {
        String id = start("discord", GPT, null, hoursAgo(28));
        say(id, "user", "Can you draft the launch announcement for v2.0? Keep it short 🚀");
        say(id, "assistant", "🚀 v2.0 is out! Your agent's sessions from Java: typed, searchable in every language, "
                + "and nothing lost under load. 🎉");
        title(id, "🚀 Launch plan");
        tokens(id, GPT, 1_150, 190, 0.0048);
    }

    private void japaneseDeploy() {
        String id = start("telegram", QWEN, null, hoursAgo(9));
        say(id, "user", "デプロイの手順を教えてください");
        say(id, "assistant", "まずステージングで database migration のドライランを実行し、問題がなければ本番にデプロイします。");
        tokens(id, QWEN, 980, 240, 0.0006);
    }

    private void resumeEditing() {
        String id = start("discord", GPT, null, hoursAgo(4));
        say(id, "user", "Can you polish the summary of my résumé? It's for a backend role.");
        say(id, "assistant", "Backend engineer who ships reliable data paths: SQLite and PostgreSQL, Java and Python, "
                + "zero-downtime migrations.");
        title(id, "Résumé éditing");
        tokens(id, GPT, 860, 150, 0.0036);
    }

    private void kubernetesRollout() {
        String id = start("slack", CLAUDE, null, hoursAgo(1.5));
        say(id, "user", "Deploy the kubernetes manifests to prod");
        toolCalls(id, "", List.of(call("terminal", "{\"command\": \"kubectl apply -f k8s/\"}"),
                call("terminal", "{\"command\": \"kubectl rollout status deploy/api\"}")));
        toolResult(id, "terminal", "call_" + (calls - 1), "deployment.apps/api configured");
        toolResult(id, "terminal", "call_" + calls, "deployment \"api\" successfully rolled out");
        say(id, "assistant", "Rollout complete: 3/3 pods of api are ready.");
        tokens(id, CLAUDE, 3_050, 420, 0.0155);
    }

    // ------------------------------------------------------------------ writing, the agent's way

    private String start(String source, String model, @Nullable String parent, Instant at) {
        time = at;
        clock.set(time);
        String id = ID_TIME.format(at.atZone(ZoneId.systemDefault())) + "_" + String.format("%06x", random.nextInt(1 << 24));
        store.createSession(NewSession.builder(id, source).model(model).systemPrompt(SYSTEM_PROMPT).parentSessionId(parent).build());
        sessions++;
        return id;
    }

    private void say(String session, String role, String content) {
        append(session, NewMessage.of(role, content));
    }

    private void reasoned(String session, String content, String reasoning) {
        append(session, NewMessage.builder("assistant").content(content).reasoning(reasoning).finishReason("stop").build());
    }

    /** An assistant turn calling one tool, then the tool's answer. */
    private void tool(String session, String content, String tool, String arguments, String result) {
        toolCalls(session, content, List.of(call(tool, arguments)));
        toolResult(session, tool, "call_" + calls, result);
    }

    private void toolCalls(String session, String content, List<Map<String, Object>> toolCalls) {
        toolCalls(session, content, toolCalls, null);
    }

    private void toolCalls(String session, String content, List<Map<String, Object>> toolCalls, @Nullable String reasoning) {
        append(session, NewMessage.builder("assistant").content(content).toolCalls(ToolCalls.json(toolCalls)).reasoning(reasoning)
                .finishReason("tool_calls").build());
    }

    private void toolResult(String session, String tool, String callId, String result) {
        append(session, NewMessage.builder("tool").content(result).toolName(tool).toolCallId(callId).build());
    }

    private Map<String, Object> call(String tool, String arguments) {
        calls++;
        return Map.of("id", "call_" + calls, "type", "function", "function", Map.of("name", tool, "arguments", arguments));
    }

    private void append(String session, NewMessage message) {
        time = time.plusSeconds(20 + random.nextInt(70));
        clock.set(time);
        store.appendMessage(session, message);
        messages++;
    }

    private void title(String session, String title) {
        store.setSessionTitle(session, title);
    }

    private void tokens(String session, String model, long input, long output, double costUsd) {
        store.updateTokenCounts(session, TokenUsage.builder().inputTokens(input).outputTokens(output).model(model)
                .cacheReadTokens(input / 3).estimatedCostUsd(costUsd).costStatus("estimated").costSource("pricing_table")
                .billingProvider("openrouter").build());
    }

    private void end(String session, String reason) {
        time = time.plusSeconds(30);
        clock.set(time);
        store.endSession(session, reason);
    }

    private Instant hoursAgo(double hours) {
        return now.minus(Duration.ofSeconds(Math.round(hours * 3600)));
    }
}
