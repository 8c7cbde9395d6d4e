package dev.hermes.state.cli.rpc;

import dev.hermes.state.cli.json.HermesShapes;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.NewMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The RPC methods of a session's messages: append, read, as a conversation, clear. */
final class MessageMethods {
    /** The keyword parameters of append_message after session_id (also the keys of an append_messages item). */
    private static final List<String> MESSAGE_FIELDS = List.of("role", "content", "tool_name", "tool_calls",
            "tool_call_id", "token_count", "finish_reason", "reasoning", "reasoning_details", "codex_reasoning_items");

    private MessageMethods() {
    }

    static void register(RpcMethods.Registry methods) {
        // ---- messages
        List<String> appendParameters = new ArrayList<>();
        appendParameters.add("session_id");
        appendParameters.addAll(MESSAGE_FIELDS);
        methods.add("append_message", appendParameters, p -> {
            String id = p.requiredString("session_id");
            NewMessage message = newMessage(p);
            return store -> store.get().appendMessage(id, message);
        });
        methods.add("append_messages", List.of("session_id", "messages"), p -> {  // extension: one transaction
            String id = p.requiredString("session_id");
            List<NewMessage> messages = new ArrayList<>();
            for (Map<String, Object> item : p.objectList("messages")) {
                messages.add(newMessage(new Params("append_messages() item", item, MESSAGE_FIELDS)));
            }
            return store -> store.get().appendMessages(id, messages);
        });
        methods.add("get_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> HermesShapes.messages(store.get().getMessages(id));
        });
        methods.add("get_messages_as_conversation", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                List<Map<String, Object>> conversation = new ArrayList<>();
                for (ChatMessage message : store.get().getMessagesAsConversation(id)) {
                    conversation.add(message.toMap());
                }
                return conversation;
            };
        });
        methods.add("clear_messages", List.of("session_id"), p -> {
            String id = p.requiredString("session_id");
            return store -> {
                store.get().clearMessages(id);
                return null;
            };
        });

    }

    private static NewMessage newMessage(Params p) {
        return NewMessage.builder(p.requiredString("role"))
                .content(p.string("content"))
                .toolName(p.string("tool_name"))
                .toolCalls(p.json("tool_calls"))
                .toolCallId(p.string("tool_call_id"))
                .tokenCount(p.optionalLong("token_count"))
                .finishReason(p.string("finish_reason"))
                .reasoning(p.string("reasoning"))
                .reasoningDetails(p.json("reasoning_details"))
                .codexReasoningItems(p.json("codex_reasoning_items"))
                .build();
    }

}
