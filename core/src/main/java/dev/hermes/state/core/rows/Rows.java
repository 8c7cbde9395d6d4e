package dev.hermes.state.core.rows;

import dev.hermes.state.core.json.PythonJson;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.JsonValue;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionColumns;
import dev.hermes.state.core.model.ToolCalls;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.Record;
import org.jooq.Row;
import org.jooq.Table;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/** Turns fetched rows into the API's records, with Hermes' decoding rules for the JSON columns. */
public final class Rows {

    private Rows() {
    }

    /**
     * Every column of a sessions row; a NULL counter reads as 0, a NULL flag as false, a column the
     * row lacks (an older file) as its default ({@link Session#columns()} tells which it has).
     */
    public static Session session(Record row) {
        SessionColumns columns = columnsOf(row);
        return new Session(
                notNull(row, SESSIONS.ID),
                notNull(row, SESSIONS.SOURCE),
                get(row, SESSIONS.USER_ID),
                get(row, SESSIONS.MODEL),
                text(get(row, SESSIONS.MODEL_CONFIG)),
                get(row, SESSIONS.SYSTEM_PROMPT),
                get(row, SESSIONS.PARENT_SESSION_ID),
                notNull(row, SESSIONS.STARTED_AT),
                get(row, SESSIONS.ENDED_AT),
                get(row, SESSIONS.END_REASON),
                count(get(row, SESSIONS.MESSAGE_COUNT)),
                count(get(row, SESSIONS.TOOL_CALL_COUNT)),
                count(get(row, SESSIONS.INPUT_TOKENS)),
                count(get(row, SESSIONS.OUTPUT_TOKENS)),
                count(get(row, SESSIONS.CACHE_READ_TOKENS)),
                count(get(row, SESSIONS.CACHE_WRITE_TOKENS)),
                count(get(row, SESSIONS.REASONING_TOKENS)),
                get(row, SESSIONS.BILLING_PROVIDER),
                get(row, SESSIONS.BILLING_BASE_URL),
                get(row, SESSIONS.BILLING_MODE),
                get(row, SESSIONS.ESTIMATED_COST_USD),
                get(row, SESSIONS.ACTUAL_COST_USD),
                get(row, SESSIONS.COST_STATUS),
                get(row, SESSIONS.COST_SOURCE),
                get(row, SESSIONS.PRICING_VERSION),
                get(row, SESSIONS.TITLE),
                present(row, columns, SESSIONS.SESSION_KEY),
                present(row, columns, SESSIONS.CHAT_ID),
                present(row, columns, SESSIONS.CHAT_TYPE),
                present(row, columns, SESSIONS.THREAD_ID),
                present(row, columns, SESSIONS.CWD),
                present(row, columns, SESSIONS.GIT_BRANCH),
                present(row, columns, SESSIONS.GIT_REPO_ROOT),
                count(present(row, columns, SESSIONS.API_CALL_COUNT)),
                present(row, columns, SESSIONS.HANDOFF_STATE),
                present(row, columns, SESSIONS.HANDOFF_PLATFORM),
                present(row, columns, SESSIONS.HANDOFF_ERROR),
                present(row, columns, SESSIONS.COMPRESSION_FAILURE_COOLDOWN_UNTIL),
                present(row, columns, SESSIONS.COMPRESSION_FAILURE_ERROR),
                count(present(row, columns, SESSIONS.REWIND_COUNT)),
                Boolean.TRUE.equals(present(row, columns, SESSIONS.ARCHIVED)),
                columns);
    }

    /** The value of a column that only some files have; null when the row lacks it. */
    private static <T> @Nullable T present(Record row, SessionColumns columns, Field<T> field) {
        return columns.contains(field.getName()) ? get(row, field) : null;
    }

    /** The columns of the last shape of session row read: the rows of one query share their fields. */
    private record ShapeColumns(Row shape, SessionColumns columns) {
    }

    private static volatile @Nullable ShapeColumns lastShape;

    /** The sessions columns among the row's fields (by name: a listing reads them from an aliased table). */
    private static SessionColumns columnsOf(Record row) {
        Row shape = row.fieldsRow();
        ShapeColumns last = lastShape;
        if (last != null && last.shape() == shape) {
            return last.columns();
        }
        List<String> names = new ArrayList<>(row.size());
        for (Field<?> field : row.fields()) {
            names.add(field.getName());
        }
        SessionColumns columns = SessionColumns.of(names);
        lastShape = new ShapeColumns(shape, columns);
        return columns;
    }

    /**
     * A messages row as {@code get_messages} returns it: the JSON columns as stored, nothing decoded
     * (tool_calls decode when asked for, by Hermes' rule: text that is not JSON reads as an empty list,
     * an empty text as itself); {@code decode}: content decoded (the rules of schema 17), else the stored
     * text. A column the row lacks (a file of an older schema) reads as the agent's default for it.
     */
    public static Message message(Record row, boolean decode) {
        String content = get(row, MESSAGES.CONTENT);
        return message(notNull(row, MESSAGES.ID), notNull(row, MESSAGES.SESSION_ID), notNull(row, MESSAGES.ROLE),
                decode ? StoredContent.decode(content) : MessageContent.text(content),
                get(row, MESSAGES.TOOL_CALL_ID), text(get(row, MESSAGES.TOOL_CALLS)),
                get(row, MESSAGES.TOOL_NAME), notNull(row, MESSAGES.TIMESTAMP), get(row, MESSAGES.TOKEN_COUNT),
                get(row, MESSAGES.FINISH_REASON), get(row, MESSAGES.REASONING),
                text(get(row, MESSAGES.REASONING_DETAILS)), text(get(row, MESSAGES.CODEX_REASONING_ITEMS)),
                getOr(row, MESSAGES.REASONING_CONTENT, null), text(getOr(row, MESSAGES.CODEX_MESSAGE_ITEMS, null)),
                getOr(row, MESSAGES.PLATFORM_MESSAGE_ID, null), flag(row, MESSAGES.OBSERVED, false),
                flag(row, MESSAGES.ACTIVE, true), flag(row, MESSAGES.COMPACTED, false));
    }

    /** {@link #message(Record, boolean)} from the stored values (the JSON columns as their text, content as read). */
    public static Message message(long id, String sessionId, String role, @Nullable MessageContent content,
                                  @Nullable String toolCallId, @Nullable String toolCalls, @Nullable String toolName,
                                  Instant timestamp, @Nullable Long tokenCount, @Nullable String finishReason,
                                  @Nullable String reasoning, @Nullable String reasoningDetails,
                                  @Nullable String codexReasoningItems, @Nullable String reasoningContent,
                                  @Nullable String codexMessageItems, @Nullable String platformMessageId,
                                  boolean observed, boolean active, boolean compacted) {
        return new Message(id, sessionId, role, content, toolCallId, toolCalls(toolCalls), toolName, timestamp, tokenCount,
                finishReason, reasoning, json(reasoningDetails), json(codexReasoningItems), reasoningContent,
                json(codexMessageItems), platformMessageId, observed, active, compacted);
    }

    /** get_messages' tool_calls: the stored text, null for NULL. */
    public static @Nullable ToolCalls toolCalls(@Nullable String toolCalls) {
        return toolCalls == null ? null : ToolCalls.ofJson(toolCalls);
    }

    /**
     * A messages row in the OpenAI chat shape ({@code get_messages_as_conversation}) under the rules of
     * schema 6: tool_calls when non-empty and JSON (present with null when the text is JSON null);
     * reasoning fields only for assistant messages, when non-empty (their value null when not JSON, as
     * Hermes' {@code except: None}); content the stored text.
     */
    public static ChatMessage chatMessage(Record row) {
        return chatMessage(notNull(row, MESSAGES.ROLE), get(row, MESSAGES.CONTENT), get(row, MESSAGES.TOOL_CALL_ID),
                get(row, MESSAGES.TOOL_NAME), text(get(row, MESSAGES.TOOL_CALLS)), get(row, MESSAGES.REASONING),
                text(get(row, MESSAGES.REASONING_DETAILS)), text(get(row, MESSAGES.CODEX_REASONING_ITEMS)));
    }

    /** {@link #chatMessage(Record)} from the stored values (the JSON columns as their text). */
    public static ChatMessage chatMessage(String role, @Nullable String content, @Nullable String toolCallId,
                                          @Nullable String toolName, @Nullable String toolCallsText,
                                          @Nullable String reasoning, @Nullable String reasoningDetailsText,
                                          @Nullable String codexReasoningItemsText) {
        boolean assistant = "assistant".equals(role);
        String toolCalls = emptyToNull(toolCallsText);
        return new ChatMessage(
                role,
                MessageContent.text(content),
                null,
                emptyToNull(toolCallId),
                emptyToNull(toolName),
                // schema 6's agent leaves the key out when the text does not decode: checked, not decoded
                toolCalls == null || !PythonJson.isJson(toolCalls) ? null : ToolCalls.ofJson(toolCalls),
                null,
                false,
                null,
                assistant ? emptyToNull(reasoning) : null,
                null,
                assistant ? nonEmptyJson(reasoningDetailsText) : null,
                assistant ? nonEmptyJson(codexReasoningItemsText) : null,
                null);
    }

    /**
     * A messages row in the chat shape under the rules of schema 17, from its stored values, content
     * already decoded (and cleaned by the caller): timestamp when non-zero; tool_calls when non-empty
     * (its value an empty list when not JSON); the platform id as {@code message_id}; {@code observed}
     * when set; for assistant messages finish_reason and reasoning when non-empty, reasoning_content
     * whenever stored, the three JSON columns when non-empty (their value null when not JSON).
     */
    public static ChatMessage chatMessage(String role, @Nullable MessageContent content, double timestamp,
                                          @Nullable String toolCallId, @Nullable String toolName,
                                          @Nullable String toolCallsText, @Nullable String platformMessageId,
                                          boolean observed, @Nullable String finishReason, @Nullable String reasoning,
                                          @Nullable String reasoningContent, @Nullable String reasoningDetailsText,
                                          @Nullable String codexReasoningItemsText,
                                          @Nullable String codexMessageItemsText) {
        boolean assistant = "assistant".equals(role);
        String toolCalls = emptyToNull(toolCallsText);
        return new ChatMessage(
                role,
                content,
                timestamp == 0 ? null : EpochSeconds.instant(timestamp),
                emptyToNull(toolCallId),
                emptyToNull(toolName),
                toolCalls == null ? null : ToolCalls.ofJson(toolCalls),
                emptyToNull(platformMessageId),
                observed,
                assistant ? emptyToNull(finishReason) : null,
                assistant ? emptyToNull(reasoning) : null,
                assistant ? reasoningContent : null,
                assistant ? nonEmptyJson(reasoningDetailsText) : null,
                assistant ? nonEmptyJson(codexReasoningItemsText) : null,
                assistant ? nonEmptyJson(codexMessageItemsText) : null);
    }

    /** A JSON column as stored, null for NULL. */
    private static @Nullable JsonValue json(@Nullable String text) {
        return text == null ? null : JsonValue.ofJson(text);
    }

    /** A JSON column the replay shows: non-empty stored text (Hermes' {@code if row[...]}). */
    private static @Nullable JsonValue nonEmptyJson(@Nullable String text) {
        return text == null || text.isEmpty() ? null : JsonValue.ofJson(text);
    }

    /** Where each column of the two tables sits in a row that selects the whole table (the usual case). */
    private static final IdentityHashMap<Field<?>, Integer> TABLE_POSITIONS = tablePositions();

    private static IdentityHashMap<Field<?>, Integer> tablePositions() {
        IdentityHashMap<Field<?>, Integer> positions = new IdentityHashMap<>();
        for (Table<?> table : List.of(SESSIONS, MESSAGES)) {
            Field<?>[] fields = table.fields();
            for (int i = 0; i < fields.length; i++) {
                positions.put(fields[i], i);
            }
        }
        return positions;
    }

    /** The value of a column the schema declares NOT NULL. */
    @SuppressWarnings("NullAway") // the database guarantees it
    private static <T> T notNull(Record row, Field<T> field) {
        return get(row, field);
    }

    /**
     * {@code row.get(field)}, found by identity: jOOQ's own lookup compares qualified names field by
     * field, which cost more than the rest of reading a conversation. Rows of the store's queries
     * hold the very field objects of the generated tables, usually at their table position.
     */
    @SuppressWarnings("unchecked")
    private static <T> @Nullable T get(Record row, Field<T> field) {
        int index = positionOf(row, field);
        return index < 0 ? row.get(field) : (T) row.get(index);
    }

    /** Where {@code row} holds this very field object, or -1. */
    private static int positionOf(Record row, Field<?> field) {
        Integer position = TABLE_POSITIONS.get(field);
        if (position != null && position < row.size() && row.field(position) == field) {
            return position;
        }
        for (int i = 0; i < row.size(); i++) {
            if (row.field(i) == field) {
                return i;
            }
        }
        return -1;
    }

    /** {@link #get}, or {@code absent} when the row does not have the column (a file of an older schema). */
    @SuppressWarnings("unchecked")
    private static <T> @Nullable T getOr(Record row, Field<T> field, @Nullable T absent) {
        int index = positionOf(row, field);
        if (index < 0) {
            index = row.indexOf(field);
        }
        return index < 0 ? absent : (T) row.get(index);
    }

    /** A flag column: its value, or the agent's default when the row lacks it (or it is NULL). */
    private static boolean flag(Record row, Field<Boolean> field, boolean absent) {
        Boolean value = getOr(row, field, null);
        return value == null ? absent : value;
    }

    private static @Nullable String text(@Nullable JSON json) {
        return json == null ? null : json.data();
    }

    private static @Nullable String emptyToNull(@Nullable String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static long count(@Nullable Long value) {
        return value == null ? 0 : value;
    }
}
