package dev.hermes.state.memory;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.StateRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PastConversationsTest {
    @TempDir
    Path dir;

    @Test
    void hitsCarryTheMarkedSnippetAndTheSession() {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("s1", "spring-ai");
            store.appendMessage("s1", NewMessage.of("user", "How do I roll back the postgres migration?"));
            store.createSession("s2", "cli");
            store.appendMessage("s2", NewMessage.of("assistant", "Nothing about databases here"));

            List<PastConversations.Hit> hits = new PastConversations(store, null).search("migration", null);

            assertEquals(List.of(new PastConversations.Hit("s1", "spring-ai", "user",
                    "How do I roll back the postgres >>>migration<<<?", "2026-03-10T09:00:02Z", null)), hits);
        }
    }

    @Test
    void theLimitIsCappedAndSourcesFilter() {
        try (StateRepository store = TestStore.open(dir)) {
            store.createSession("a", "spring-ai");
            store.createSession("b", "cli");
            for (int i = 0; i < 60; i++) {
                store.appendMessage(i % 2 == 0 ? "a" : "b", NewMessage.of("user", "heron sighting number " + i));
            }
            PastConversations all = new PastConversations(store, null);
            assertEquals(PastConversations.DEFAULT_LIMIT, all.search("heron", null).size());
            assertEquals(PastConversations.MAX_LIMIT, all.search("heron", 1000).size());
            assertEquals(3, all.search("heron", 3).size());
            List<PastConversations.Hit> cliOnly = new PastConversations(store, List.of("cli")).search("heron", 50);
            assertEquals(30, cliOnly.size());
            assertEquals(List.of("b"), cliOnly.stream().map(PastConversations.Hit::sessionId).distinct().toList());
            assertEquals(List.of(), all.search("  ", null));
            assertThrows(InvalidArgumentException.class, () -> all.search("heron", 0));
        }
    }
}
