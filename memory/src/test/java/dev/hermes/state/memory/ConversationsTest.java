package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.StateRepository;
import dev.hermes.state.core.model.SearchQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConversationsTest {
    @TempDir
    Path dir;

    /** Conversation "a" continued by compression in a2, then a3; "d" a delegate of "a" (started before a ended). */
    private static void chain(StateRepository store) {
        store.createSession("a", "spring-ai");
        store.appendMessage("a", NewMessage.of("user", "first words about kestrels"));
        store.createSession(NewSession.builder("d", "spring-ai").parentSessionId("a").build());
        store.appendMessage("d", NewMessage.of("user", "delegate work on herons"));
        store.endSession("a", "compression");
        store.createSession(NewSession.builder("a2", "spring-ai").parentSessionId("a").build());
        store.appendMessage("a2", NewMessage.of("user", "second part about kestrels"));
        store.endSession("a2", "compression");
        store.createSession(NewSession.builder("a3", "spring-ai").parentSessionId("a2").build());
        store.appendMessage("a3", NewMessage.of("assistant", "third part about kestrels"));
    }

    @Test
    void eachConversationOfTheSourceIsListedOnce() {
        try (StateRepository store = TestStore.open(dir)) {
            chain(store);
            store.createSession("b", "spring-ai");
            store.createSession("c", "cli");
            store.createSession("e", "langchain4j");
            assertEquals(List.of("a", "b"), new Conversations(store, "spring-ai").ids());
            assertEquals(List.of("e"), new Conversations(store, "langchain4j").ids());
            assertEquals(List.of(), new Conversations(store, "telegram").ids());
        }
    }

    @Test
    void deletingAConversationDeletesItsWholeCompressionChainAndNothingElse() {
        try (StateRepository store = TestStore.open(dir)) {
            chain(store);
            store.createSession("b", "spring-ai");
            store.appendMessage("b", NewMessage.of("user", "kestrels elsewhere"));

            assertTrue(new Conversations(store, "spring-ai").delete("a"));

            assertEquals(List.of("b", "d"), store.dsl().select(SESSIONS.ID).from(SESSIONS).orderBy(SESSIONS.ID).fetch(SESSIONS.ID));
            assertNull(store.getSession("d").orElseThrow().parentSessionId(), "the delegate became a root");
            assertEquals(List.of("b", "d"), store.dsl().selectDistinct(MESSAGES.SESSION_ID).from(MESSAGES)
                    .orderBy(MESSAGES.SESSION_ID).fetch(MESSAGES.SESSION_ID));
            assertEquals(List.of("b"), store.searchMessages(SearchQuery.of("kestrels")).stream().map(hit -> hit.sessionId()).toList());
        }
    }

    @Test
    void deletingFromTheMiddleOfAChainKeepsWhatCameBefore() {
        try (StateRepository store = TestStore.open(dir)) {
            chain(store);
            assertTrue(new Conversations(store, "spring-ai").delete("a2"));
            assertEquals(List.of("a", "d"), store.dsl().select(SESSIONS.ID).from(SESSIONS).orderBy(SESSIONS.ID).fetch(SESSIONS.ID));
        }
    }

    @Test
    void anUnknownConversationIsNotDeleted() {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("b", "spring-ai");
            assertFalse(new Conversations(store, "spring-ai").delete("nope"));
            assertEquals(1, store.sessionCount());
        }
    }

    @Test
    void badArgumentsAreRefused() {
        try (StateRepository store = TestStore.open(dir)) {
            assertThrows(InvalidArgumentException.class, () -> new Conversations(null, "x"));
            assertThrows(InvalidArgumentException.class, () -> new Conversations(store, " "));
            assertThrows(InvalidArgumentException.class, () -> new Conversations(store, null));
            Conversations conversations = new Conversations(store, "x");
            assertThrows(InvalidArgumentException.class, () -> conversations.delete(""));
            assertThrows(InvalidArgumentException.class, () -> conversations.delete(null));
        }
    }
}
