package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static dev.hermes.state.db.Tables.SESSIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/behaviour.md#titles, through the store: setting, uniqueness, numbering, resolving. */
class StoreTitlesTest extends FreshStoreTest {
    @BeforeEach
    void sessions() {
        for (String id : new String[]{"s1", "s2", "s3"}) {
            store.createSession(id, "cli");
        }
    }

    @Test
    void setTitleSanitizesAndBlankClears() {
        assertTrue(store.setSessionTitle("s1", "  my\u200b   project\t\n"));
        assertEquals("my project", store.getSessionTitle("s1").orElseThrow());
        assertTrue(store.setSessionTitle("s1", " \u00a0 "));
        assertTrue(store.getSessionTitle("s1").isEmpty());
        assertTrue(store.setSessionTitle("s1", "again"));
        assertTrue(store.setSessionTitle("s1", null));
        assertTrue(store.getSessionTitle("s1").isEmpty());
        assertFalse(store.setSessionTitle("nobody", "orphan title"), "false for an unknown id");
        assertTrue(store.getSessionTitle("nobody").isEmpty());
    }

    @Test
    void aTitleInUseElsewhereIsRefusedWithHermesMessage() {
        store.setSessionTitle("s1", "shared");
        InvalidArgumentException refused = assertThrows(InvalidArgumentException.class, () -> store.setSessionTitle("s2", " shared "));
        assertEquals("Title 'shared' is already in use by session s1", refused.getMessage());
        assertTrue(store.getSessionTitle("s2").isEmpty());
        assertTrue(store.setSessionTitle("s1", "shared"), "a session may keep its own title");
        assertTrue(store.setSessionTitle("s2", "Shared"), "titles are case-sensitive");
    }

    @Test
    void titleLengthIsCountedInCodePoints() {
        String hundredEmoji = "\uD83D\uDE80".repeat(100);
        assertTrue(store.setSessionTitle("s1", hundredEmoji));
        assertEquals(hundredEmoji, store.getSessionTitle("s1").orElseThrow());
        InvalidArgumentException tooLong = assertThrows(InvalidArgumentException.class,
                () -> store.setSessionTitle("s2", "x".repeat(101)));
        assertEquals("Title too long (101 chars, max 100)", tooLong.getMessage());
        assertTrue(store.getSessionTitle("s2").isEmpty());
    }

    @Test
    void theUniqueIndexIsTheLastDefence() {
        // A title written behind the store's back (no check) still cannot be duplicated by the index.
        store.inWriteTransaction(dsl -> dsl.update(SESSIONS).set(SESSIONS.TITLE, "taken").where(SESSIONS.ID.eq("s1")).execute());
        ConstraintViolationException raced = assertThrows(ConstraintViolationException.class, () -> store.inWriteTransaction(dsl ->
                dsl.update(SESSIONS).set(SESSIONS.TITLE, "taken").where(SESSIONS.ID.eq("s2")).execute()));
        assertTrue(raced.getMessage().toLowerCase(java.util.Locale.ROOT).contains("unique constraint"), raced.getMessage());
    }

    @Test
    void getSessionByTitleIsExactAndUnsanitized() {
        store.setSessionTitle("s1", "exact title");
        assertEquals("s1", store.getSessionByTitle("exact title").orElseThrow().id());
        assertTrue(store.getSessionByTitle(" exact title").isEmpty());
        assertTrue(store.getSessionByTitle("Exact title").isEmpty());
        assertTrue(store.getSessionByTitle("exact%").isEmpty());
    }

    @Test
    void nextTitleInLineageNumbersAfterTheHighest() {
        assertEquals("my project", store.getNextTitleInLineage("my project"));
        store.setSessionTitle("s1", "my project");
        assertEquals("my project #2", store.getNextTitleInLineage("my project"));
        store.setSessionTitle("s2", "my project #2");
        store.setSessionTitle("s3", "my project #3");
        assertEquals("my project #4", store.getNextTitleInLineage("my project"));
        assertEquals("my project #4", store.getNextTitleInLineage("my project #2"));
        store.createSession("s4", "cli");
        store.setSessionTitle("s4", "my project notes");
        assertEquals("my project #4", store.getNextTitleInLineage("my project"), "a decoy title is no number");
    }

    @Test
    void nextTitleTakesWildcardsLiterally() {
        store.setSessionTitle("s1", "100% done");
        store.setSessionTitle("s2", "100x done #7");
        assertEquals("100% done #2", store.getNextTitleInLineage("100% done"));
        assertEquals("a_b", store.getNextTitleInLineage("a_b"));
        store.setSessionTitle("s3", "axb #4");
        assertEquals("a_b", store.getNextTitleInLineage("a_b #9"), "_ in the base is not a wildcard");
    }

    @Test
    void resolveByTitlePrefersTheNewestNumberedOne() {
        store.setSessionTitle("s1", "work");
        assertEquals("s1", store.resolveSessionByTitle("work").orElseThrow());
        store.setSessionTitle("s2", "work #2");
        store.setSessionTitle("s3", "work #3");
        assertEquals("s3", store.resolveSessionByTitle("work").orElseThrow(), "s3 started last");
        assertEquals("s2", store.resolveSessionByTitle("work #2").orElseThrow());
        assertTrue(store.resolveSessionByTitle("wor").isEmpty());
        assertTrue(store.resolveSessionByTitle("w_rk").isEmpty(), "_ is not a wildcard");
    }
}
