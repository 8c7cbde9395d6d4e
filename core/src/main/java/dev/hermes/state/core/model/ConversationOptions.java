package dev.hermes.state.core.model;

/**
 * The options of {@code get_messages_as_conversation}.
 *
 * @param includeAncestors the conversation from its root: the session's parent chain, root first, in one
 *                         list by message id, a user turn replayed at a resume left out
 * @param includeInactive  rewound and compacted-away rows too
 */
public record ConversationOptions(boolean includeAncestors, boolean includeInactive) {
    /** The session's own live messages (the agent's defaults). */
    public static final ConversationOptions DEFAULT = new ConversationOptions(false, false);

    public ConversationOptions withAncestors(boolean include) {
        return new ConversationOptions(include, includeInactive);
    }

    public ConversationOptions withInactive(boolean include) {
        return new ConversationOptions(includeAncestors, include);
    }
}
