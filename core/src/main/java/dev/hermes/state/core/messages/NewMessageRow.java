package dev.hermes.state.core.messages;

import dev.hermes.state.core.model.Timestamps;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.rows.JsonColumns;
import dev.hermes.state.core.rows.StoredContent;
import org.jooq.TableField;
import org.jspecify.annotations.Nullable;

import static dev.hermes.state.db.Tables.MESSAGES;

/**
 * One new message's columns, checked and encoded before the write transaction starts: the text each
 * column gets, as the agent whose rules the store follows writes it.
 *
 * @param content       the stored text: structured content behind the engine's marker (schema 17 rules)
 * @param observed      0 or 1
 * @param timestamp     the caller's own timestamp (epoch seconds), null for the write's clock reading
 * @param toolCallCount what the message adds to its session's tool_call_count
 */
public record NewMessageRow(String role, @Nullable String content, @Nullable String toolName, @Nullable String toolCalls,
                            @Nullable String toolCallId, @Nullable Long tokenCount, @Nullable String finishReason,
                            @Nullable String reasoning, @Nullable String reasoningDetails,
                            @Nullable String codexReasoningItems, @Nullable String reasoningContent,
                            @Nullable String codexMessageItems, @Nullable String platformMessageId, long observed,
                            @Nullable Double timestamp, int toolCallCount) {

    /**
     * The row of {@code message} for a store of {@code schema}; {@code nulInText} is false where text cannot
     * hold NUL (the marker of structured content then differs, see {@link StoredContent}).
     *
     * @throws InvalidArgumentException bad values, or values the store cannot keep: structured content
     *                                  or a column of schema 7 and later on a store kept at 6
     */
    public static NewMessageRow of(@Nullable NewMessage given, StoreSchema schema, boolean nulInText) {
        NewMessage message = Arguments.required(given, "message");
        String role = Arguments.label(message.role(), "role");
        boolean v17 = schema.v17();
        // Schema 6's rule: tool results never count as tool calls. Today's agent counts whatever a row carries.
        ToolCalls toolCalls = message.toolCalls();
        int toolCallCount = (!v17 && "tool".equals(role)) || toolCalls == null ? 0 : JsonColumns.toolCallCount(toolCalls.value());
        MessageContent content = message.content();
        if (content instanceof MessageContent.Structured && !v17) {
            throw new InvalidArgumentException("This store follows the rules of schema 6, which stores text content"
                    + " only: structured (multimodal) content needs a store at schema 17");
        }
        String reasoningContent = Arguments.optionalText(message.reasoningContent(), "reasoning content");
        String codexMessageItems = JsonColumns.encode(message.codexMessageItems(), "codex_message_items", true);
        String platformMessageId = Arguments.optionalText(message.platformMessageId(), "platform message id");
        boolean wide = hasV17Columns(schema);
        kept(wide, schema, MESSAGES.REASONING_CONTENT, reasoningContent != null);
        kept(wide, schema, MESSAGES.CODEX_MESSAGE_ITEMS, codexMessageItems != null);
        kept(wide, schema, MESSAGES.PLATFORM_MESSAGE_ID, platformMessageId != null);
        kept(wide, schema, MESSAGES.OBSERVED, message.observed());
        Double timestamp = message.timestamp() == null ? null : Timestamps.epochSeconds(message.timestamp());
        return new NewMessageRow(role,
                Arguments.optionalText(StoredContent.encode(content, nulInText), "content"),
                Arguments.optionalLabel(message.toolName(), "tool name"),
                Arguments.optionalText(JsonColumns.encode(toolCalls == null ? null : toolCalls.jsonValue(), "tool_calls", v17), "tool_calls"),
                Arguments.optionalLabel(message.toolCallId(), "tool call id"),
                message.tokenCount(),
                Arguments.optionalLabel(message.finishReason(), "finish reason"),
                Arguments.optionalText(message.reasoning(), "reasoning"),
                Arguments.optionalText(JsonColumns.encode(message.reasoningDetails(), "reasoning_details", v17), "reasoning_details"),
                Arguments.optionalText(JsonColumns.encode(message.codexReasoningItems(), "codex_reasoning_items", v17),
                        "codex_reasoning_items"),
                reasoningContent,
                Arguments.optionalText(codexMessageItems, "codex_message_items"),
                platformMessageId,
                message.observed() ? 1 : 0,
                timestamp,
                toolCallCount);
    }

    /** The timestamp to store: the caller's, else {@code now}. */
    double timestampOr(double now) {
        return timestamp != null ? timestamp : now;
    }

    /**
     * True when the store's messages have every column an append of schema 17 writes, so appends write them
     * (a store written at 17 has them all; one kept at 6 none).
     */
    static boolean hasV17Columns(StoreSchema schema) {
        return schema.has(MESSAGES.REASONING_CONTENT) && schema.has(MESSAGES.CODEX_MESSAGE_ITEMS)
                && schema.has(MESSAGES.PLATFORM_MESSAGE_ID) && schema.has(MESSAGES.OBSERVED);
    }

    /** A value for a column the appends do not write is refused, never dropped. */
    private static void kept(boolean wide, StoreSchema schema, TableField<?, ?> column, boolean given) {
        if (given && !wide) {
            throw new InvalidArgumentException("This store (schema version " + schema.version() + ") does not keep "
                    + column.getName() + ": the message cannot be stored with it");
        }
    }
}
