package dev.hermes.state.cli.export;

import dev.hermes.state.cli.json.Json;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What the human-readable formats show of a shaped session row: its heading, facts and messages. */
final class Rendered {
    /** The session columns shown as facts, in this order, when present and not null. */
    static final List<String> FACTS = List.of("id", "source", "model", "billing_provider", "started_at", "ended_at",
            "end_reason", "message_count", "tool_call_count", "input_tokens", "output_tokens", "estimated_cost_usd",
            "actual_cost_usd", "parent_session_id", "cwd", "git_branch", "archived");

    private Rendered() {
    }

    static String heading(Map<String, Object> session) {
        Object title = session.get("title");
        return title instanceof String text && !text.isEmpty() ? text : String.valueOf(session.get("id"));
    }

    /** A value as text: instants in ISO UTC, strings as they are, structures as JSON. */
    static String text(@Nullable Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Instant instant) {
            return instant.toString();
        }
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return Json.toJson(value);
        }
        return String.valueOf(value);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> messages(Map<String, Object> session) {
        Object messages = session.get("messages");
        return messages instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }
}
