package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One message in the OpenAI chat shape ({@code get_messages_as_conversation}). Absent values are null;
 * {@link #toMap()} gives the Hermes dict with exactly the keys Hermes includes, in its order.
 *
 * <p>The keys of schema 17 ({@code timestamp}, {@code message_id}, {@code observed}, {@code finish_reason},
 * {@code reasoning_content}, {@code codex_message_items}) are only ever set by a store that follows that
 * schema's rules; a store kept at 6 leaves them absent, as the agent of schema 6 did.
 *
 * <p>A null field is a key the agent's dict does not have. A JSON field that is present holds the
 * stored text ({@link JsonValue}, {@link ToolCalls}), decoded when asked for: its value is what the
 * agent's dict holds for the key, None ({@code null}) included (text that is JSON null, or, for the
 * reasoning fields, text that does not decode).
 *
 * @param content             under the rules of schema 17, decoded, and for user and assistant text with
 *                            the agent's injected memory context removed and the text stripped
 * @param timestamp           when non-zero (schema 17 only)
 * @param toolCalls           when the agent has the key: non-empty stored text that is JSON, or under the
 *                            rules of schema 17 any non-empty text (its value then an empty list)
 * @param messageId           the platform's message id ({@code platform_message_id}), when non-empty
 * @param observed            a group-chat line the agent saw but was not addressed by
 * @param finishReason        assistant messages only, when non-empty (schema 17 only)
 * @param reasoningContent    assistant messages only, whenever stored, even empty
 * @param reasoningDetails    assistant messages only, when the stored text is non-empty (its value None when
 *                            the text does not decode)
 * @param codexReasoningItems the same for codex_reasoning_items
 * @param codexMessageItems   the same for codex_message_items (schema 17 only)
 */
public record ChatMessage(
        String role,
        @Nullable MessageContent content,
        @Nullable Instant timestamp,
        @Nullable String toolCallId,
        @Nullable String toolName,
        @Nullable ToolCalls toolCalls,
        @Nullable String messageId,
        boolean observed,
        @Nullable String finishReason,
        @Nullable String reasoning,
        @Nullable String reasoningContent,
        @Nullable JsonValue reasoningDetails,
        @Nullable JsonValue codexReasoningItems,
        @Nullable JsonValue codexMessageItems) {

    /**
     * The Hermes dict: always {@code role} and {@code content} (content may be null; structured content as
     * its list or dict); the other keys only when present, in the order the agent adds them.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("role", role);
        map.put("content", content == null ? null : content.value());
        if (timestamp != null) {
            map.put("timestamp", timestamp);
        }
        if (toolCallId != null && !toolCallId.isEmpty()) {
            map.put("tool_call_id", toolCallId);
        }
        if (toolName != null && !toolName.isEmpty()) {
            map.put("tool_name", toolName);
        }
        if (toolCalls != null) {
            map.put("tool_calls", toolCalls.value());
        }
        if (messageId != null && !messageId.isEmpty()) {
            map.put("message_id", messageId);
        }
        if (observed) {
            map.put("observed", true);
        }
        if (finishReason != null && !finishReason.isEmpty()) {
            map.put("finish_reason", finishReason);
        }
        if (reasoning != null && !reasoning.isEmpty()) {
            map.put("reasoning", reasoning);
        }
        if (reasoningContent != null) {
            map.put("reasoning_content", reasoningContent);
        }
        if (reasoningDetails != null) {
            map.put("reasoning_details", reasoningDetails.value());
        }
        if (codexReasoningItems != null) {
            map.put("codex_reasoning_items", codexReasoningItems.value());
        }
        if (codexMessageItems != null) {
            map.put("codex_message_items", codexMessageItems.value());
        }
        return map;
    }

    /** The content as one text, for code that handles only text (see {@link MessageContent#plainText()}). */
    public @Nullable String text() {
        return content == null ? null : content.plainText();
    }
}
