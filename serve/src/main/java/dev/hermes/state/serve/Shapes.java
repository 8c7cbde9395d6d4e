package dev.hermes.state.serve;

import dev.hermes.state.core.model.MessageRows;
import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.UsageReport;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's records as the agent's dashboard sends them: the column names as keys (snake_case),
 * timestamps as epoch seconds, and this server's additions next to them ({@code is_active},
 * {@code content_html}...). Only what the row was read from is written: a column an older file lacks
 * is left out, as the agent's own rows of such a file have no such key.
 */
final class Shapes {
    /** How long after its last message a session that has not ended counts as live (the dashboard's 5 minutes). */
    static final long LIVE_SECONDS = 300;

    private Shapes() {
    }

    /**
     * A row of the sessions page: the session's columns, {@code preview}, {@code last_active},
     * {@code is_active} (not ended and active in the last five minutes), {@code archived} as a boolean,
     * and {@code _lineage_root_id} on a compression root shown as its tip.
     */
    static Map<String, @Nullable Object> listed(RichSession r, Instant now) {
        Map<String, @Nullable Object> row = SessionRows.of(r);
        row.put("is_active", isLive(r.session(), r.lastActive(), now));
        row.put("archived", r.session().archived());
        return row;
    }

    static boolean isLive(Session session, Instant lastActive, Instant now) {
        return session.endedAt() == null && now.getEpochSecond() - lastActive.getEpochSecond() < LIVE_SECONDS;
    }

    /**
     * A message as {@code get_messages} returns it (tool calls decoded, content as its text or decoded
     * parts), with {@code active}/{@code compacted} as booleans and {@code content_html}: the content
     * as sanitized HTML ({@link MarkdownHtml}): Markdown for user and assistant text, a preformatted block
     * for tool output and system text.
     */
    static Map<String, @Nullable Object> message(Message m, boolean v17) {
        return message(m, v17, Shapes::contentHtml);
    }

    static Map<String, @Nullable Object> message(Message m, boolean v17, java.util.function.Function<Message, String> html) {
        Map<String, @Nullable Object> row = MessageRows.withoutFlags(m, v17);
        if (v17) {
            row.put("observed", m.observed());
        }
        row.put("active", m.active());
        row.put("compacted", m.compacted());
        row.put("content_html", html.apply(m));
        return row;
    }

    static String contentHtml(Message m) {
        MessageContent content = m.content();
        if (content == null) {
            return "";
        }
        String text = content instanceof MessageContent.Text plain ? plain.text() : content.plainText();
        if (content instanceof MessageContent.Structured structured && structured.value() instanceof Map<?, ?>) {
            return MarkdownHtml.preformatted(dev.hermes.state.core.json.PythonJson.dumps(structured.value()));
        }
        return switch (m.role()) {
            case "user", "assistant" -> MarkdownHtml.render(text);
            default -> MarkdownHtml.preformatted(text);
        };
    }

    /**
     * A sum of costs to a billionth of a dollar: the engines add the same figures in different orders, and
     * the last bits of a double sum differ (0.652138 on SQLite, 0.6521379999999999 on PostgreSQL).
     */
    static double dollars(double sum) {
        return Math.round(sum * 1e9) / 1e9;
    }

    /** A usage row with the dashboard's names, and this server's additions. */
    static Map<String, Object> usage(UsageReport.Usage u) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("input_tokens", u.inputTokens());
        row.put("output_tokens", u.outputTokens());
        row.put("cache_read_tokens", u.cacheReadTokens());
        row.put("cache_write_tokens", u.cacheWriteTokens());
        row.put("reasoning_tokens", u.reasoningTokens());
        row.put("estimated_cost", dollars(u.estimatedCostUsd()));
        row.put("actual_cost", dollars(u.actualCostUsd()));
        row.put("sessions", u.sessions());
        row.put("messages", u.messages());
        row.put("tool_calls", u.toolCalls());
        row.put("api_calls", u.apiCalls());
        Double hit = u.cacheHitPercent();
        row.put("cache_hit_percent", hit == null ? 0.0 : hit);
        return row;
    }

    static Map<String, Object> totals(UsageReport.Usage u) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("total_input", u.inputTokens());
        row.put("total_output", u.outputTokens());
        row.put("total_cache_read", u.cacheReadTokens());
        row.put("total_cache_write", u.cacheWriteTokens());
        row.put("total_reasoning", u.reasoningTokens());
        row.put("total_estimated_cost", dollars(u.estimatedCostUsd()));
        row.put("total_actual_cost", dollars(u.actualCostUsd()));
        row.put("total_sessions", u.sessions());
        row.put("total_messages", u.messages());
        row.put("total_tool_calls", u.toolCalls());
        row.put("total_api_calls", u.apiCalls());
        Double hit = u.cacheHitPercent();
        row.put("cache_hit_percent", hit == null ? 0.0 : hit);
        return row;
    }

}
