package dev.hermes.state.core;

import dev.hermes.state.core.model.ToolCalls;
import dev.hermes.state.core.model.AnchoredView;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessageContent;
import dev.hermes.state.core.model.MessagesAround;
import dev.hermes.state.core.model.NewMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * get_messages_around and get_anchored_view under the rules of schema 17: ids, counts and bookends as the
 * agent at 7e8f50a returns them for the same session (every row counts, rewound ones too).
 */
class MessagesAroundV17Test extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 17;
    }

    /**
     * s1: 1 user goal, 2 assistant plan, 3 assistant (tool call only), 4 tool; 5 is s2's; 6 user, 7 assistant,
     * 8 tool, 9 user, 10 assistant, 11 user, 12 assistant (tool call only), 13 assistant; rewound from 9 on.
     */
    @BeforeEach
    void twelveRowsAndAStranger() {
        store.createSession("s1", "cli");
        store.createSession("s2", "cli");
        String[][] rows = {{"user", "goal"}, {"assistant", "plan"}, {"assistant", ""}, {"tool", "t1"}, {"user", "q2"},
                {"assistant", "a2"}, {"tool", "t2"}, {"user", "q3"}, {"assistant", "a3"}, {"user", "q4"}, {"assistant", ""},
                {"assistant", "resolution"}};
        for (int i = 0; i < rows.length; i++) {
            store.appendMessage("s1", NewMessage.builder(rows[i][0]).content(rows[i][1])
                    .toolCalls(ToolCalls.json(rows[i][1].isEmpty() ? List.of(Map.of("id", "x")) : null)).build());
            if (i == 3) {
                store.appendMessage("s2", NewMessage.of("user", "other session"));
            }
        }
        store.rewindToMessage("s1", 9);
    }

    private static List<Long> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }

    private static void assertAround(List<Long> window, int before, int after, MessagesAround around) {
        assertEquals(window, ids(around.window()));
        assertEquals(before, around.messagesBefore());
        assertEquals(after, around.messagesAfter());
    }

    @Test
    void theWindowHoldsEveryRowOfTheSessionAroundTheAnchor() {
        assertAround(List.of(4L, 6L, 7L, 8L, 9L), 2, 2, store.getMessagesAround("s1", 7, 2));
        assertAround(List.of(1L, 2L, 3L, 4L), 0, 3, store.getMessagesAround("s1", 1, 3));
        assertAround(List.of(10L, 11L, 12L, 13L), 3, 0, store.getMessagesAround("s1", 13, 3));
        assertAround(List.of(7L), 0, 0, store.getMessagesAround("s1", 7, 0));
        assertAround(List.of(7L), 0, 0, store.getMessagesAround("s1", 7, -4));
        assertAround(List.of(), 0, 0, store.getMessagesAround("s1", 5, 2));
        assertAround(List.of(), 0, 0, store.getMessagesAround("s1", 99));
        MessagesAround whole = store.getMessagesAround("s1", 7, Integer.MAX_VALUE);
        assertEquals(12, whole.window().size());
        Message toolOnly = store.getMessagesAround("s1", 3, 0).window().get(0);
        assertEquals(List.of(Map.of("id", "x")), toolOnly.toolCalls().value());
        assertEquals(new MessageContent.Text(""), toolOnly.content());
    }

    private static void assertView(List<Long> window, int before, int after, List<Long> start, List<Long> end,
                                   AnchoredView view) {
        assertEquals(List.of(window, before, after, start, end), List.of(ids(view.window()), view.messagesBefore(),
                view.messagesAfter(), ids(view.bookendStart()), ids(view.bookendEnd())));
    }

    @Test
    void theViewKeepsTheAnchorAndAddsTheSessionsOpeningAndClosingTurns() {
        assertView(List.of(7L, 8L, 9L), 1, 1, List.of(1L, 2L), List.of(11L, 13L),
                store.getAnchoredView("s1", 8, 1, 2, List.of("user", "assistant")));
        assertView(List.of(6L, 7L, 8L), 1, 1, List.of(1L, 2L, 4L), List.of(10L, 11L, 13L),
                store.getAnchoredView("s1", 7, 1, 3, null));
        assertView(List.of(7L, 8L), 1, 1, List.of(4L), List.of(),
                store.getAnchoredView("s1", 7, 1, 3, List.of("tool")));
        assertView(List.of(1L, 2L, 3L, 6L, 7L, 9L, 10L, 11L, 12L, 13L), 1, 10, List.of(), List.of(),
                store.getAnchoredView("s1", 2, 10, 3, List.of("user", "assistant")));
        assertView(List.of(6L, 7L), 1, 1, List.of(), List.of(), store.getAnchoredView("s1", 7, 1, -1, List.of("user", "assistant")));
        assertView(List.of(7L), 1, 1, List.of(), List.of(), store.getAnchoredView("s1", 7, 1, 3, List.of()));
        assertView(List.of(), 0, 0, List.of(), List.of(), store.getAnchoredView("s1", 5));
        assertView(List.of(3L, 6L, 7L, 9L, 10L, 11L, 12L, 13L), 5, 4, List.of(1L, 2L), List.of(),
                store.getAnchoredView("s1", 9));
    }
}
