package dev.hermes.state.core;

import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.TelegramTopicBinding;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.coordination.TelegramTopics;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The agent's Telegram DM topic mode ({@link StateRepository#telegramTopics()}): a private chat can
 * run each conversation in a topic thread of its own, each topic bound to one session. The two tables
 * behind it are created only when a user opts in (enabling the mode or binding a topic does it, as
 * {@link #applyMigration} does); until then reads find nothing and disabling is a no-op, and the file
 * stays as an older agent expects it. Deleting a session deletes its binding. Hermes names in the
 * Javadoc point at the {@code SessionDB} method each implements.
 */
public final class TelegramTopicMode {
    private final Database database;
    private final TelegramTopics topics;
    private final Clock clock;

    TelegramTopicMode(Database database, TelegramTopics topics, Clock clock) {
        this.database = database;
        this.topics = topics;
        this.clock = clock;
    }

    /**
     * apply_telegram_topic_migration: creates the topic tables when missing (upgrading a first-version
     * bindings table so that it follows session deletes) and records the topic schema's version (2) in
     * {@code state_meta}.
     */
    public void applyMigration() {
        database.write("creating the Telegram topic tables", transaction -> {
            StateRepository.requireV17(transaction, "apply_telegram_topic_migration");
            topics.migrate(transaction);
            return Boolean.TRUE;
        });
    }

    /**
     * enable_telegram_topic_mode: after {@link #applyMigration}, the chat's topic mode is on for the
     * user, with what the chat can do (null: unknown), checked now.
     */
    public void enable(String chatId, String userId, @Nullable Boolean hasTopicsEnabled,
                       @Nullable Boolean allowsUsersToCreateTopics) {
        String chat = Arguments.label(chatId, "chat id");
        String user = Arguments.label(userId, "user id");
        applyMigration();
        double now = now();
        database.write("enabling Telegram topic mode for chat " + chat, transaction -> {
            topics.enable(transaction, chat, user, hasTopicsEnabled, allowsUsersToCreateTopics, now);
            return Boolean.TRUE;
        });
    }

    /** disable_telegram_topic_mode: the chat's topic mode off, its bindings deleted when asked; nothing before the opt-in. */
    public void disable(String chatId, boolean clearBindings) {
        String chat = Arguments.label(chatId, "chat id");
        double now = now();
        database.write("disabling Telegram topic mode for chat " + chat, transaction -> {
            topics.disable(transaction, chat, clearBindings, now);
            return Boolean.TRUE;
        });
    }

    /** is_telegram_topic_mode_enabled. */
    public boolean isEnabled(String chatId, String userId) {
        String chat = Arguments.label(chatId, "chat id");
        String user = Arguments.label(userId, "user id");
        return database.read("reading Telegram topic mode", transaction -> topics.isEnabled(transaction, chat, user));
    }

    /** get_telegram_topic_binding. */
    public Optional<TelegramTopicBinding> binding(String chatId, String threadId) {
        String chat = Arguments.label(chatId, "chat id");
        String thread = Arguments.label(threadId, "thread id");
        return database.read("reading a Telegram topic binding", transaction -> topics.binding(transaction, chat, thread));
    }

    /** list_telegram_topic_bindings_for_chat: most recently updated first. */
    public List<TelegramTopicBinding> bindingsForChat(String chatId) {
        String chat = Arguments.label(chatId, "chat id");
        return database.read("listing Telegram topic bindings", transaction -> topics.bindingsOfChat(transaction, chat));
    }

    /** get_telegram_topic_binding_by_session. */
    public Optional<TelegramTopicBinding> bindingBySession(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the Telegram topic of session " + id, transaction -> topics.bindingOfSession(transaction, id));
    }

    /**
     * delete_telegram_topic_binding: returns the bindings deleted (0 or 1); the chat's topic mode is
     * turned off when that was its last binding.
     */
    public int deleteBinding(String chatId, String threadId) {
        String chat = Arguments.label(chatId, "chat id");
        String thread = Arguments.label(threadId, "thread id");
        double now = now();
        return database.write("deleting a Telegram topic binding", transaction -> topics.deleteBinding(transaction, chat, thread, now));
    }

    /**
     * bind_telegram_topic: after {@link #applyMigration}, binds the topic to the session (re-binding is
     * fine); a session bound to another topic → InvalidArgumentException ("session is already linked to
     * another Telegram topic"), an unknown session → ConstraintViolationException.
     */
    public void bind(String chatId, String threadId, String userId, String sessionKey, String sessionId,
                     String managedMode) {
        String chat = Arguments.label(chatId, "chat id");
        String thread = Arguments.label(threadId, "thread id");
        String user = Arguments.label(userId, "user id");
        String key = Arguments.label(sessionKey, "session key");
        String id = Arguments.id(sessionId, "session id");
        String mode = Arguments.label(managedMode, "managed mode");
        applyMigration();
        double now = now();
        database.write("binding a Telegram topic to session " + id, transaction -> {
            topics.bind(transaction, chat, thread, user, key, id, mode, now);
            return Boolean.TRUE;
        });
    }

    /** is_telegram_session_linked_to_topic. */
    public boolean isSessionLinked(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the Telegram topic of session " + id, transaction -> topics.isLinked(transaction, id));
    }

    /**
     * list_unlinked_telegram_sessions_for_user: the user's Telegram sessions bound to no topic, most
     * recently active first, with preview and last activity ({@code chatId} is not used, as in the agent).
     */
    public List<RichSession> unlinkedSessions(String chatId, String userId, int limit) {
        Arguments.label(chatId, "chat id");
        String user = Arguments.label(userId, "user id");
        int rows = Arguments.limit(limit);
        return database.read("listing unlinked Telegram sessions", transaction -> topics.unlinkedSessions(transaction, user, rows));
    }

    private double now() {
        return EpochSeconds.now(clock);
    }
}
