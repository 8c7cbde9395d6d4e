package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.rows.Rows;
import dev.hermes.state.core.rows.StoredContent;
import dev.hermes.state.core.text.PythonText;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The conversation a resumed agent replays, as today's agent builds it from the store
 * ({@code get_messages_as_conversation} under the rules of schema 17):
 * <ul>
 *   <li>structured content decoded; user and assistant text with the recalled-memory block removed
 *       ({@link MemoryContext}) and stripped;</li>
 *   <li>with the ancestors, every session from the chain's root to this one, in one list by message id,
 *       where a user turn that repeats the previous user turn with no assistant answer in between (the
 *       prompt replayed when the conversation was resumed in a child) is left out;</li>
 *   <li>the turns of the agent's background review (a prompt that starts "Review the conversation above
 *       and ...", which older agents wrote into the very session they reviewed) left out, with the
 *       assistant reply that follows each.</li>
 * </ul>
 */
final class ConversationReplay {
    /** The openings of the background review's prompts (the agent's own, matched case-sensitively). */
    private static final List<String> REVIEW_PROMPTS = List.of(
            "Review the conversation above and update the skill library",
            "Review the conversation above and consider saving to memory");
    /** How far up the parent chain the ancestors reach, as in the agent. */
    private static final int MAX_CHAIN = 100;
    private static final PreparedQuery PARENT = PreparedQuery.of(() -> DSL
            .select(SESSIONS.PARENT_SESSION_ID).from(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))), "sessionId");

    private ConversationReplay() {
    }

    /** One stored row of the conversation query, content decoded. */
    record Row(String role, @Nullable MessageContent content, @Nullable String toolCallId, @Nullable String toolCalls,
               @Nullable String toolName, @Nullable String finishReason, @Nullable String reasoning,
               @Nullable String reasoningContent, @Nullable String reasoningDetails,
               @Nullable String codexReasoningItems, @Nullable String codexMessageItems,
               @Nullable String platformMessageId, boolean observed, double timestamp) {
    }

    /** A row of the conversation query ({@link Messages}' column order). */
    @SuppressWarnings("NullAway") // role is NOT NULL in the schema
    static Row row(ResultSet row) throws SQLException {
        return new Row(MessageRows.text(row, 1), StoredContent.decode(MessageRows.text(row, 2)), MessageRows.text(row, 3),
                MessageRows.text(row, 4), MessageRows.text(row, 5), MessageRows.text(row, 6), MessageRows.text(row, 7),
                MessageRows.text(row, 8), MessageRows.text(row, 9), MessageRows.text(row, 10), MessageRows.text(row, 11),
                MessageRows.text(row, 12), row.getLong(13) != 0, row.getDouble(14));
    }

    /**
     * The session and its parents up the chain, root first: at most {@value #MAX_CHAIN} sessions, ending
     * at an unknown parent or where the chain comes back on itself. The session alone when it is unknown.
     */
    static List<String> rootToTip(Transaction transaction, String sessionId) throws SQLException {
        List<String> chain = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String current = sessionId;
        for (int hop = 0; hop < MAX_CHAIN && current != null && !current.isEmpty() && seen.add(current); hop++) {
            chain.add(current);
            Result<Record> parent = PARENT.fetch(transaction, current);
            if (parent.isEmpty()) {
                break;
            }
            current = parent.get(0).get(SESSIONS.PARENT_SESSION_ID);
        }
        List<String> rootFirst = new ArrayList<>(chain.size());
        for (int i = chain.size() - 1; i >= 0; i--) {
            rootFirst.add(chain.get(i));
        }
        return rootFirst.isEmpty() ? List.of(sessionId) : rootFirst;
    }

    /** The conversation of the rows (in id order); {@code ancestors}: replayed user turns left out. */
    static List<ChatMessage> replay(List<Row> rows, boolean ancestors) {
        List<ChatMessage> messages = new ArrayList<>(rows.size());
        for (Row row : rows) {
            MessageContent content = row.content();
            if (("user".equals(row.role()) || "assistant".equals(row.role())) && content instanceof MessageContent.Text text) {
                content = new MessageContent.Text(PythonText.strip(MemoryContext.remove(text.text())));
            }
            ChatMessage message = Rows.chatMessage(row.role(), content, row.timestamp(), row.toolCallId(), row.toolName(),
                    row.toolCalls(), row.platformMessageId(), row.observed(), row.finishReason(), row.reasoning(),
                    row.reasoningContent(), row.reasoningDetails(), row.codexReasoningItems(), row.codexMessageItems());
            if (ancestors && replayedUserTurn(messages, message)) {
                continue;
            }
            messages.add(message);
        }
        return withoutReviewTurns(messages);
    }

    /**
     * A user turn whose text equals an earlier user turn's with no answer between them: nothing but
     * empty assistant turns (no content, no tool calls) and other roles since that turn.
     */
    private static boolean replayedUserTurn(List<ChatMessage> before, ChatMessage message) {
        if (!"user".equals(message.role()) || !(message.content() instanceof MessageContent.Text text) || text.text().isEmpty()) {
            return false;
        }
        for (int i = before.size() - 1; i >= 0; i--) {
            ChatMessage earlier = before.get(i);
            if ("user".equals(earlier.role()) && text.equals(earlier.content())) {
                return true;
            }
            if ("assistant".equals(earlier.role()) && (truthy(earlier.content()) || truthy(earlier.toolCalls()))) {
                return false;
            }
        }
        return false;
    }

    /** Python's truth of a replayed value: not null, not an empty text, list or dict. */
    private static boolean truthy(@Nullable Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof MessageContent content) {
            return truthy(content.value());
        }
        if (value instanceof ToolCalls calls) {
            return truthy(calls.value()); // decoded only for this look back over the ancestors' turns
        }
        if (value instanceof CharSequence text) {
            return !text.isEmpty();
        }
        if (value instanceof Collection<?> list) {
            return !list.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof Number number) {
            return number.doubleValue() != 0;
        }
        return true;
    }

    /** The messages without the background review's prompts and the assistant reply right after each. */
    private static List<ChatMessage> withoutReviewTurns(List<ChatMessage> messages) {
        List<ChatMessage> kept = new ArrayList<>(messages.size());
        boolean dropNextAssistant = false;
        for (ChatMessage message : messages) {
            if (reviewPrompt(message)) {
                dropNextAssistant = true;
                continue;
            }
            if (dropNextAssistant) {
                dropNextAssistant = false;
                if ("assistant".equals(message.role())) {
                    continue;
                }
            }
            kept.add(message);
        }
        return kept;
    }

    private static boolean reviewPrompt(ChatMessage message) {
        if (!("user".equals(message.role()) || "system".equals(message.role()))
                || !(message.content() instanceof MessageContent.Text text)) {
            return false;
        }
        String head = leftStrip(text.text());
        for (String prompt : REVIEW_PROMPTS) {
            if (head.startsWith(prompt)) {
                return true;
            }
        }
        return false;
    }

    /** {@code str.lstrip()}. */
    private static String leftStrip(String text) {
        int start = 0;
        while (start < text.length()) {
            int codePoint = text.codePointAt(start);
            if (!PythonText.isSpace(codePoint)) {
                break;
            }
            start += Character.charCount(codePoint);
        }
        return text.substring(start);
    }
}
