package dev.hermes.state.core;

import org.jooq.JSON;
import org.jooq.Record;

import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** Turns fetched rows into the API's records, with Hermes' decoding rules for the JSON columns. */
final class Rows {

    private Rows() {
    }

    /** Every column of a sessions row; a NULL counter reads as 0. */
    static Session session(Record row) {
        return new Session(
                row.get(SESSIONS.ID),
                row.get(SESSIONS.SOURCE),
                row.get(SESSIONS.USER_ID),
                row.get(SESSIONS.MODEL),
                text(row.get(SESSIONS.MODEL_CONFIG)),
                row.get(SESSIONS.SYSTEM_PROMPT),
                row.get(SESSIONS.PARENT_SESSION_ID),
                row.get(SESSIONS.STARTED_AT),
                row.get(SESSIONS.ENDED_AT),
                row.get(SESSIONS.END_REASON),
                count(row.get(SESSIONS.MESSAGE_COUNT)),
                count(row.get(SESSIONS.TOOL_CALL_COUNT)),
                count(row.get(SESSIONS.INPUT_TOKENS)),
                count(row.get(SESSIONS.OUTPUT_TOKENS)),
                count(row.get(SESSIONS.CACHE_READ_TOKENS)),
                count(row.get(SESSIONS.CACHE_WRITE_TOKENS)),
                count(row.get(SESSIONS.REASONING_TOKENS)),
                row.get(SESSIONS.BILLING_PROVIDER),
                row.get(SESSIONS.BILLING_BASE_URL),
                row.get(SESSIONS.BILLING_MODE),
                row.get(SESSIONS.ESTIMATED_COST_USD),
                row.get(SESSIONS.ACTUAL_COST_USD),
                row.get(SESSIONS.COST_STATUS),
                row.get(SESSIONS.COST_SOURCE),
                row.get(SESSIONS.PRICING_VERSION),
                row.get(SESSIONS.TITLE));
    }

    /**
     * A messages row as {@code get_messages} returns it: tool_calls decoded (text that is not JSON
     * becomes an empty list, as in Hermes; an empty text stays as it is, since Hermes only decodes
     * non-empty values), reasoning_details and codex_reasoning_items left as JSON text.
     */
    static Message message(Record row) {
        String toolCalls = text(row.get(MESSAGES.TOOL_CALLS));
        Object decodedToolCalls = toolCalls == null || toolCalls.isEmpty() ? toolCalls : decodeOr(toolCalls, List.of());
        return new Message(
                row.get(MESSAGES.ID),
                row.get(MESSAGES.SESSION_ID),
                row.get(MESSAGES.ROLE),
                row.get(MESSAGES.CONTENT),
                row.get(MESSAGES.TOOL_CALL_ID),
                decodedToolCalls,
                row.get(MESSAGES.TOOL_NAME),
                row.get(MESSAGES.TIMESTAMP),
                row.get(MESSAGES.TOKEN_COUNT),
                row.get(MESSAGES.FINISH_REASON),
                row.get(MESSAGES.REASONING),
                text(row.get(MESSAGES.REASONING_DETAILS)),
                text(row.get(MESSAGES.CODEX_REASONING_ITEMS)));
    }

    /**
     * A messages row in the OpenAI chat shape ({@code get_messages_as_conversation}): tool_calls
     * decoded when non-empty (left out when not JSON); reasoning fields only for assistant messages,
     * decoded when non-empty (null when not JSON).
     */
    static ChatMessage chatMessage(Record row) {
        String role = row.get(MESSAGES.ROLE);
        boolean assistant = "assistant".equals(role);
        return new ChatMessage(
                role,
                row.get(MESSAGES.CONTENT),
                emptyToNull(row.get(MESSAGES.TOOL_CALL_ID)),
                emptyToNull(row.get(MESSAGES.TOOL_NAME)),
                decodeOr(emptyToNull(text(row.get(MESSAGES.TOOL_CALLS))), null),
                assistant ? emptyToNull(row.get(MESSAGES.REASONING)) : null,
                assistant ? decodeOr(emptyToNull(text(row.get(MESSAGES.REASONING_DETAILS))), null) : null,
                assistant ? decodeOr(emptyToNull(text(row.get(MESSAGES.CODEX_REASONING_ITEMS))), null) : null);
    }

    private static Object decodeOr(String text, Object fallback) {
        if (text == null) {
            return null;
        }
        try {
            return JsonValues.decode(text);
        } catch (Exception notJson) {
            return fallback;
        }
    }

    private static String text(JSON json) {
        return json == null ? null : json.data();
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static long count(Long value) {
        return value == null ? 0 : value;
    }
}
