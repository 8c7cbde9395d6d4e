package dev.hermes.state.core;

import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.WindowEntry;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A save of a conversation window that comes right after this store's own save of the same
 * conversation starts from the window that save left instead of reading it again; every write in
 * between, by anyone, must make it read again: another store on the same database, a plain second
 * connection (the Python agent), and this very store through another path (an append, a delete). Each
 * test makes the in-between write one whose effect a save that did not read again would miss.
 */
abstract class ConversationWindowWritersContract {

    /** A store at schema 17 on the test's database (the same database on every call). */
    abstract StateRepository open();

    /** A plain JDBC connection to the test's database, in its schema: no store, as another program writes. */
    abstract Connection plainConnection() throws SQLException;

    static WindowEntry fresh(String role, String content) {
        return WindowEntry.fresh(NewMessage.of(role, content));
    }

    /** The entries a memory saves after a save: each saved row kept, with the message it was saved as. */
    static List<WindowEntry> kept(List<WindowEntry> saved, SavedWindow result) {
        List<WindowEntry> entries = new ArrayList<>();
        for (int i = 0; i < saved.size(); i++) {
            entries.add(WindowEntry.stored(result.messageIds().get(i), saved.get(i).message()));
        }
        return entries;
    }

    static List<WindowEntry> plus(List<WindowEntry> entries, WindowEntry... more) {
        List<WindowEntry> all = new ArrayList<>(entries);
        all.addAll(List.of(more));
        return all;
    }

    static List<String> texts(List<Message> messages) {
        return messages.stream().map(Message::text).toList();
    }

    @Test
    void anotherStoreSavingTheConversationBetweenTwoSavesIsSeen() {
        try (StateRepository store = open(); StateRepository other = open()) {
            List<WindowEntry> first = List.of(fresh("user", "u0"), fresh("assistant", "a0"), fresh("user", "u1"));
            SavedWindow s1 = store.saveConversationWindow("c", "spring-ai", first);
            List<WindowEntry> second = plus(kept(first, s1), fresh("assistant", "a1"));
            SavedWindow s2 = store.saveConversationWindow("c", "spring-ai", second);
            assertEquals(1, s2.appended());

            // the other store keeps only a1 and adds u2: the window's rows are not those this store left
            SavedWindow theirs = other.saveConversationWindow("c", "spring-ai",
                    List.of(WindowEntry.stored(s2.messageIds().get(3), second.get(3).message()), fresh("user", "u2")));
            assertEquals(List.of("a1", "u2"), texts(store.loadConversationWindow("c")));

            List<WindowEntry> third = plus(kept(second, s2).subList(1, 4), fresh("user", "u3"));
            SavedWindow s3 = store.saveConversationWindow("c", "spring-ai", third);
            assertEquals("c", s3.sessionId());
            assertFalse(s3.continuedInChild());
            assertEquals(1, s3.appended());
            assertEquals(s2.messageIds().subList(1, 4), s3.messageIds().subList(0, 3));
            assertTrue(s3.messageIds().get(3) > theirs.messageIds().get(1));
            assertEquals(List.of("a0", "u1", "a1", "u3"), texts(store.loadConversationWindow("c")));
            assertEquals(s3.messageIds(), other.loadConversationWindow("c").stream().map(Message::id).toList());
            assertEquals(6, store.messageCount("c"));
        }
        try (StateRepository reopened = open()) {
            assertEquals(List.of("a0", "u1", "a1", "u3"), texts(reopened.loadConversationWindow("c")));
        }
    }

    @Test
    void aPlainSecondConnectionDeletingAWindowMessageBetweenTwoSavesIsSeen() throws SQLException {
        try (StateRepository store = open()) {
            List<WindowEntry> first = List.of(fresh("user", "u0"), fresh("assistant", "a0"), fresh("user", "u1"));
            SavedWindow s1 = store.saveConversationWindow("c", "langchain4j", first);
            List<WindowEntry> second = plus(kept(first, s1), fresh("assistant", "a1"));
            SavedWindow s2 = store.saveConversationWindow("c", "langchain4j", second);
            long deleted = s2.messageIds().get(3);

            // as the Python agent deletes a message: its window row stays behind, the message is gone
            try (Connection plain = plainConnection();
                 PreparedStatement delete = plain.prepareStatement("DELETE FROM messages WHERE id = ?")) {
                delete.setLong(1, deleted);
                assertEquals(1, delete.executeUpdate());
            }

            // the gone row is stored again as a new message, never lost
            SavedWindow s3 = store.saveConversationWindow("c", "langchain4j", plus(kept(second, s2), fresh("user", "u2")));
            assertEquals("c", s3.sessionId());
            assertFalse(s3.continuedInChild());
            assertEquals(2, s3.appended());
            assertEquals(s2.messageIds().subList(0, 3), s3.messageIds().subList(0, 3));
            assertNotEquals(deleted, s3.messageIds().get(3));
            assertEquals(List.of("u0", "a0", "u1", "a1", "u2"), texts(store.loadConversationWindow("c")));
            assertEquals(s3.messageIds(), store.loadConversationWindow("c").stream().map(Message::id).toList());
        }
    }

    @Test
    void thisStoreAppendingThroughTheRepositoryBetweenTwoSavesIsSeen() {
        try (StateRepository store = open()) {
            store.createSession(NewSession.builder("c", "spring-ai").build());
            // another continuation of c, started before the one the window's rewrite starts
            store.createSession(NewSession.builder("t2", "spring-ai").parentSessionId("c").build());
            List<WindowEntry> first = List.of(fresh("user", "one"), fresh("assistant", "two"));
            SavedWindow s1 = store.saveConversationWindow("c", "spring-ai", first);
            assertEquals("c", s1.sessionId());

            // a kept row that reads otherwise rewrites history: c ends with compression, t1 continues it
            List<WindowEntry> rewritten = List.of(WindowEntry.stored(s1.messageIds().get(0), NewMessage.of("user", "one, edited")),
                    fresh("assistant", "three"));
            SavedWindow s2 = store.saveConversationWindow("c", "spring-ai", rewritten);
            assertTrue(s2.continuedInChild());
            String t1 = s2.sessionId();
            assertEquals(t1, store.getCompressionTip("c"));
            List<WindowEntry> extended = plus(kept(rewritten, s2), fresh("user", "four"));
            SavedWindow s3 = store.saveConversationWindow("c", "spring-ai", extended);
            assertEquals(t1, s3.sessionId());
            assertFalse(s3.continuedInChild());

            // a message appended to t2 makes it the newest continuation: the conversation's tip moves there
            store.appendMessage("t2", NewMessage.of("user", "said in the other continuation"));
            assertEquals("t2", store.getCompressionTip("c"));

            // the save goes to t2, where t1's rows are not the conversation's (c, t2): each entry a new message
            SavedWindow s4 = store.saveConversationWindow("c", "spring-ai", plus(kept(extended, s3), fresh("assistant", "five")));
            assertEquals("t2", s4.sessionId());
            assertFalse(s4.continuedInChild());
            assertEquals(4, s4.appended());
            assertEquals(List.of("one, edited", "three", "four", "five"), texts(store.loadConversationWindow("c")));
            assertEquals(s4.messageIds(), store.loadConversationWindow("t2").stream().map(Message::id).toList());
            assertEquals(3, store.messageCount(t1));
            assertEquals(5, store.messageCount("t2"));
        }
    }

    @Test
    void deletingTheSessionBetweenTwoSavesIsSeenWhicheverStoreDeletesIt() {
        try (StateRepository store = open(); StateRepository other = open()) {
            for (StateRepository deleting : List.of(store, other)) {
                List<WindowEntry> first = List.of(fresh("user", "u0"), fresh("assistant", "a0"));
                SavedWindow s1 = store.saveConversationWindow("c", "spring-ai", first);
                List<WindowEntry> second = plus(kept(first, s1), fresh("user", "u1"));
                SavedWindow s2 = store.saveConversationWindow("c", "spring-ai", second);
                assertEquals(1, s2.appended());

                assertTrue(deleting.deleteSession("c"));

                // the kept ids are gone with their session: the save starts the conversation again, every entry new
                SavedWindow s3 = store.saveConversationWindow("c", "spring-ai", plus(kept(second, s2), fresh("assistant", "a1")));
                assertEquals("c", s3.sessionId());
                assertFalse(s3.continuedInChild());
                assertEquals(4, s3.appended());
                assertTrue(s3.messageIds().get(0) > s2.messageIds().get(2));
                assertEquals(List.of("u0", "a0", "u1", "a1"), texts(store.loadConversationWindow("c")));
                assertEquals(4, store.messageCount("c"));
                assertEquals(4L, store.getSession("c").orElseThrow().messageCount());
                assertTrue(store.deleteSession("c"));
            }
        }
    }
}
