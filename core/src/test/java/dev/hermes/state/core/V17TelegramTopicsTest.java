package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.TelegramTopicBinding;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Telegram DM topic mode at schema 17, on both engines: the tables appear only on opt-in, bindings
 * are one topic per session and go with their session. Expected values: the agent's v17 module with
 * the same calls (H0-H13 of the reference run).
 */
class V17TelegramTopicsTest extends FreshStoreTest {

    @Override
    int schemaVersion() {
        return 17;
    }

    @Test
    void beforeTheOptInNothingIsFoundAndNothingIsCreated() throws Exception {
        store.createSession(NewSession.builder("a", "telegram").userId("u1").build());
        store.appendMessage("a", NewMessage.of("user", "first\nprompt " + "x".repeat(70)));
        clock.advance(Duration.ofSeconds(1));
        store.createSession(NewSession.builder("b", "telegram").userId("u1").build());
        store.createSession(NewSession.builder("c", "telegram").userId("u2").build());
        store.createSession(NewSession.builder("e", "cli").userId("u1").build());
        TelegramTopicMode topics = store.telegramTopics();
        assertFalse(topics.isEnabled("1", "u1"));
        assertEquals(Optional.empty(), topics.binding("1", "2"));
        assertEquals(List.of(), topics.bindingsForChat("1"));
        assertEquals(Optional.empty(), topics.bindingBySession("a"));
        assertEquals(0, topics.deleteBinding("1", "2"));
        assertFalse(topics.isSessionLinked("a"));
        topics.disable("1", true);
        List<RichSession> unlinked = topics.unlinkedSessions("1", "u1", 10);
        assertEquals(List.of("b", "a"), unlinked.stream().map(row -> row.session().id()).toList());
        assertEquals(List.of("", "first prompt " + "x".repeat(47) + "..."), unlinked.stream().map(RichSession::preview).toList());
        assertEquals(0, tables());
        assertEquals(Optional.empty(), store.getMeta("telegram_dm_topic_schema_version"));
    }

    @Test
    void theOptInCreatesTheTablesAndRecordsTheirVersion() throws Exception {
        store.telegramTopics().applyMigration();
        assertEquals(2, tables());
        assertEquals(Optional.of("2"), store.getMeta("telegram_dm_topic_schema_version"));
        store.telegramTopics().applyMigration();
        assertEquals(2, tables());
    }

    @Test
    void bindingsAreOneTopicPerSessionAndGoWithTheirSession() throws Exception {
        store.createSession(NewSession.builder("a", "telegram").userId("u1").build());
        store.createSession(NewSession.builder("b", "telegram").userId("u1").build());
        TelegramTopicMode topics = store.telegramTopics();
        topics.enable("1", "u1", true, null);
        assertEquals("1|u1|1|1|-|1", queryString(onSqlite()
                ? "SELECT chat_id || '|' || user_id || '|' || enabled || '|' || has_topics_enabled || '|'"
                + " || coalesce(allows_users_to_create_topics, '-') || '|' || (activated_at = updated_at) FROM telegram_dm_topic_mode"
                : "SELECT chat_id || '|' || user_id || '|' || enabled || '|' || has_topics_enabled || '|'"
                + " || coalesce(allows_users_to_create_topics::text, '-') || '|' || (activated_at = updated_at)::int FROM telegram_dm_topic_mode"));
        assertTrue(topics.isEnabled("1", "u1"));
        assertFalse(topics.isEnabled("1", "u2"));
        topics.bind("1", "10", "u1", "k10", "a", "auto");
        clock.advance(Duration.ofSeconds(1));
        topics.bind("1", "11", "u1", "k11", "b", "manual");
        topics.bind("1", "10", "u1", "k10b", "a", "auto");
        InvalidArgumentException relink = assertThrows(InvalidArgumentException.class,
                () -> topics.bind("1", "12", "u1", "k", "a", "auto"));
        assertEquals("session is already linked to another Telegram topic", relink.getMessage());
        assertThrows(ConstraintViolationException.class, () -> topics.bind("1", "13", "u1", "k", "missing", "auto"));
        List<TelegramTopicBinding> bindings = topics.bindingsForChat("1");
        assertEquals(List.of("10|k10b|auto|true", "11|k11|manual|false"), bindings.stream()
                .map(b -> b.threadId() + "|" + b.sessionKey() + "|" + b.managedMode() + "|" + b.linkedAt().isBefore(b.updatedAt()))
                .toList());
        assertTrue(topics.isSessionLinked("a"));
        assertEquals("11", topics.bindingBySession("b").orElseThrow().threadId());
        assertEquals(List.of(), topics.unlinkedSessions("1", "u1", 10));

        assertTrue(store.deleteSession("a"));
        assertEquals(List.of("11"), topics.bindingsForChat("1").stream().map(TelegramTopicBinding::threadId).toList());
        assertEquals(1, topics.deleteBinding("1", "11"));
        assertFalse(topics.isEnabled("1", "u1"), "the chat's last binding gone, the mode is off");

        topics.enable("1", "u1", null, null);
        topics.bind("1", "20", "u1", "k", "b", "auto");
        topics.disable("1", false);
        assertFalse(topics.isEnabled("1", "u1"));
        assertEquals(1, topics.bindingsForChat("1").size());
        topics.disable("1", true);
        assertEquals(0, topics.bindingsForChat("1").size());
        assertEquals(Optional.of("2"), store.getMeta("telegram_dm_topic_schema_version"));
    }

    private long tables() throws Exception {
        return queryLong(onSqlite()
                ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'telegram%'"
                : "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'telegram%'");
    }
}
