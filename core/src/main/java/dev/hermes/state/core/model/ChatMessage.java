package dev.hermes.state.core.model;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One message in the OpenAI chat shape ({@code get_messages_as_conversation}). Absent values are null;
 * {@link #toMap()} gives the Hermes dict with exactly the keys Hermes includes.
 *
 * @param toolCalls           decoded JSON (plain Java values), null when absent/empty
 * @param reasoningDetails    decoded JSON, assistant messages only, null when absent/empty/undecodable
 * @param codexReasoningItems decoded JSON, assistant messages only, null when absent/empty/undecodable
 * @param reasoningDetailsStored    the assistant message stores non-empty reasoning_details text, even
 *                                  if it did not decode (or decoded to JSON null): Hermes then has the
 *                                  key, with value None, which {@link #toMap()} reproduces
 * @param codexReasoningItemsStored the same for codex_reasoning_items
 * @param toolCallsStored           the message stores non-empty tool_calls text that is JSON, even JSON
 *                                  null: Hermes then has the key, with the decoded value (None for null)
 */
public record ChatMessage(
        String role,
        @Nullable String content,
        @Nullable String toolCallId,
        @Nullable String toolName,
        @Nullable Object toolCalls,
        @Nullable String reasoning,
        @Nullable Object reasoningDetails,
        @Nullable Object codexReasoningItems,
        boolean reasoningDetailsStored,
        boolean codexReasoningItemsStored,
        boolean toolCallsStored) {

    /**
     * The Hermes dict: always {@code role} and {@code content} (content may be null); the other keys
     * only when present (SPEC section 4, get_messages_as_conversation).
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("role", role);
        map.put("content", content);
        if (toolCallId != null && !toolCallId.isEmpty()) {
            map.put("tool_call_id", toolCallId);
        }
        if (toolName != null && !toolName.isEmpty()) {
            map.put("tool_name", toolName);
        }
        if (toolCallsStored || toolCalls != null) {
            map.put("tool_calls", toolCalls);
        }
        if (reasoning != null && !reasoning.isEmpty()) {
            map.put("reasoning", reasoning);
        }
        if (reasoningDetailsStored || reasoningDetails != null) {
            map.put("reasoning_details", reasoningDetails);
        }
        if (codexReasoningItemsStored || codexReasoningItems != null) {
            map.put("codex_reasoning_items", codexReasoningItems);
        }
        return map;
    }
}
