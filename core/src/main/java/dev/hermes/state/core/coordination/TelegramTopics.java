package dev.hermes.state.core.coordination;

import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.TelegramTopicBinding;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.sessions.SessionPreviews;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Telegram DM topic mode as the agent keeps it: {@code telegram_dm_topic_mode} (per private chat:
 * enabled or not, and what the chat can do) and {@code telegram_dm_topic_bindings} (one session per
 * topic thread, one topic per session). The tables exist only once a user opted in: reads and
 * disabling then find nothing and change nothing; enabling and binding create them first. Their names
 * are plain jOOQ names: no generated class describes them.
 */
public final class TelegramTopics {
    /** The topic schema's version the agent records in {@code state_meta} (2: bindings cascade with their session). */
    static final String SCHEMA_VERSION_KEY = "telegram_dm_topic_schema_version";
    static final String SCHEMA_VERSION = "2";

    static final Table<Record> MODE = DSL.table(DSL.name("telegram_dm_topic_mode"));
    static final Field<String> MODE_CHAT_ID = DSL.field(DSL.name("chat_id"), String.class);
    static final Field<String> MODE_USER_ID = DSL.field(DSL.name("user_id"), String.class);
    static final Field<Long> ENABLED = DSL.field(DSL.name("enabled"), Long.class);
    static final Field<Double> ACTIVATED_AT = DSL.field(DSL.name("activated_at"), Double.class);
    static final Field<Double> MODE_UPDATED_AT = DSL.field(DSL.name("updated_at"), Double.class);
    static final Field<Long> HAS_TOPICS_ENABLED = DSL.field(DSL.name("has_topics_enabled"), Long.class);
    static final Field<Long> ALLOWS_USERS_TO_CREATE_TOPICS = DSL.field(DSL.name("allows_users_to_create_topics"), Long.class);
    static final Field<Double> CAPABILITY_CHECKED_AT = DSL.field(DSL.name("capability_checked_at"), Double.class);

    static final Table<Record> BINDINGS = DSL.table(DSL.name("telegram_dm_topic_bindings"));
    static final Table<Record> B = BINDINGS.as("b");
    static final Field<String> CHAT_ID = DSL.field(DSL.name("chat_id"), String.class);
    static final Field<String> THREAD_ID = DSL.field(DSL.name("thread_id"), String.class);
    static final Field<String> USER_ID = DSL.field(DSL.name("user_id"), String.class);
    static final Field<String> SESSION_KEY = DSL.field(DSL.name("session_key"), String.class);
    static final Field<String> SESSION_ID = DSL.field(DSL.name("session_id"), String.class);
    static final Field<String> MANAGED_MODE = DSL.field(DSL.name("managed_mode"), String.class);
    static final Field<Double> LINKED_AT = DSL.field(DSL.name("linked_at"), Double.class);
    static final Field<Double> UPDATED_AT = DSL.field(DSL.name("updated_at"), Double.class);
    private static final List<Field<?>> BINDING_COLUMNS = List.of(CHAT_ID, THREAD_ID, USER_ID, SESSION_KEY, SESSION_ID,
            MANAGED_MODE, LINKED_AT, UPDATED_AT);

    private final Backend backend;
    private final StateMeta meta;

    public TelegramTopics(Backend backend, StateMeta meta) {
        this.backend = backend;
        this.meta = meta;
    }

    /**
     * apply_telegram_topic_migration: creates the tables when missing (a bindings table of the topic
     * schema's first version is rebuilt so that deleting a session deletes its binding) and records the
     * topic schema's version.
     */
    public void migrate(Transaction transaction) throws SQLException {
        String recorded = meta.get(transaction, SCHEMA_VERSION_KEY).orElse("");
        int version = recorded.chars().allMatch(Character::isDigit) && !recorded.isEmpty() && recorded.length() < 10
                ? Integer.parseInt(recorded) : 0;
        backend.createTelegramTopicTables(transaction, version < 2);
        meta.set(transaction, SCHEMA_VERSION_KEY, SCHEMA_VERSION);
    }

    /** enable_telegram_topic_mode, after {@link #migrate}: the chat's row made or re-enabled, its capabilities replaced. */
    public void enable(Transaction transaction, String chatId, String userId, @Nullable Boolean hasTopicsEnabled,
                       @Nullable Boolean allowsUsersToCreateTopics, double now) {
        transaction.dsl().insertInto(MODE)
                .set(MODE_CHAT_ID, chatId)
                .set(MODE_USER_ID, userId)
                .set(ENABLED, DSL.inline(1L))
                .set(ACTIVATED_AT, now)
                .set(MODE_UPDATED_AT, now)
                .set(HAS_TOPICS_ENABLED, flag(hasTopicsEnabled))
                .set(ALLOWS_USERS_TO_CREATE_TOPICS, flag(allowsUsersToCreateTopics))
                .set(CAPABILITY_CHECKED_AT, now)
                .onConflict(MODE_CHAT_ID)
                .doUpdate()
                .set(MODE_USER_ID, DSL.excluded(MODE_USER_ID))
                .set(ENABLED, DSL.inline(1L))
                .set(MODE_UPDATED_AT, DSL.excluded(MODE_UPDATED_AT))
                .set(HAS_TOPICS_ENABLED, DSL.excluded(HAS_TOPICS_ENABLED))
                .set(ALLOWS_USERS_TO_CREATE_TOPICS, DSL.excluded(ALLOWS_USERS_TO_CREATE_TOPICS))
                .set(CAPABILITY_CHECKED_AT, DSL.excluded(CAPABILITY_CHECKED_AT))
                .execute();
    }

    /** disable_telegram_topic_mode: the chat's mode off, its bindings deleted when asked; nothing without the tables. */
    public void disable(Transaction transaction, String chatId, boolean clearBindings, double now) throws SQLException {
        if (!hasTables(transaction)) {
            return;
        }
        DSLContext dsl = transaction.dsl();
        dsl.update(MODE).set(ENABLED, DSL.inline(0L)).set(MODE_UPDATED_AT, now).where(MODE_CHAT_ID.eq(chatId)).execute();
        if (clearBindings) {
            dsl.deleteFrom(BINDINGS).where(CHAT_ID.eq(chatId)).execute();
        }
    }

    /** is_telegram_topic_mode_enabled: the chat's row for that user says enabled. */
    public boolean isEnabled(Transaction transaction, String chatId, String userId) throws SQLException {
        if (!hasTables(transaction)) {
            return false;
        }
        return transaction.dsl().select(ENABLED).from(MODE)
                .where(MODE_CHAT_ID.eq(chatId)).and(MODE_USER_ID.eq(userId))
                .fetchOptional(ENABLED)
                .map(enabled -> enabled != 0)
                .orElse(false);
    }

    /** get_telegram_topic_binding. */
    public Optional<TelegramTopicBinding> binding(Transaction transaction, String chatId, String threadId)
            throws SQLException {
        if (!hasTables(transaction)) {
            return Optional.empty();
        }
        return transaction.dsl().select(BINDING_COLUMNS).from(BINDINGS)
                .where(CHAT_ID.eq(chatId)).and(THREAD_ID.eq(threadId))
                .fetchOptional(TelegramTopics::binding);
    }

    /** list_telegram_topic_bindings_for_chat: most recently updated first. */
    public List<TelegramTopicBinding> bindingsOfChat(Transaction transaction, String chatId) throws SQLException {
        if (!hasTables(transaction)) {
            return List.of();
        }
        return transaction.dsl().select(BINDING_COLUMNS).from(BINDINGS)
                .where(CHAT_ID.eq(chatId))
                .orderBy(UPDATED_AT.desc())
                .fetch(TelegramTopics::binding);
    }

    /** get_telegram_topic_binding_by_session. */
    public Optional<TelegramTopicBinding> bindingOfSession(Transaction transaction, String sessionId) throws SQLException {
        if (!hasTables(transaction)) {
            return Optional.empty();
        }
        return transaction.dsl().select(BINDING_COLUMNS).from(BINDINGS)
                .where(SESSION_ID.eq(sessionId))
                .fetchOptional(TelegramTopics::binding);
    }

    /**
     * delete_telegram_topic_binding: returns the bindings deleted (0 or 1); when that was the chat's
     * last one, the chat's topic mode is turned off too.
     */
    public int deleteBinding(Transaction transaction, String chatId, String threadId, double now) throws SQLException {
        if (!hasTables(transaction)) {
            return 0;
        }
        DSLContext dsl = transaction.dsl();
        int deleted = dsl.deleteFrom(BINDINGS).where(CHAT_ID.eq(chatId)).and(THREAD_ID.eq(threadId)).execute();
        if (deleted > 0 && !dsl.fetchExists(BINDINGS, CHAT_ID.eq(chatId))) {
            dsl.update(MODE).set(ENABLED, DSL.inline(0L)).set(MODE_UPDATED_AT, now).where(MODE_CHAT_ID.eq(chatId)).execute();
        }
        return deleted;
    }

    /**
     * bind_telegram_topic, after {@link #migrate}: binds (or re-binds) the topic to the session; a
     * session bound to another topic is refused ("session is already linked to another Telegram
     * topic"), an unknown session fails on the foreign key.
     */
    public void bind(Transaction transaction, String chatId, String threadId, String userId, String sessionKey,
                     String sessionId, String managedMode, double now) {
        DSLContext dsl = transaction.dsl();
        Optional<Record> linked = dsl.select(CHAT_ID, THREAD_ID).from(BINDINGS).where(SESSION_ID.eq(sessionId))
                .fetchOptional().map(Record.class::cast);
        if (linked.isPresent() && (!chatId.equals(linked.get().get(CHAT_ID)) || !threadId.equals(linked.get().get(THREAD_ID)))) {
            throw new InvalidArgumentException("session is already linked to another Telegram topic");
        }
        dsl.insertInto(BINDINGS)
                .set(CHAT_ID, chatId)
                .set(THREAD_ID, threadId)
                .set(USER_ID, userId)
                .set(SESSION_KEY, sessionKey)
                .set(SESSION_ID, sessionId)
                .set(MANAGED_MODE, managedMode)
                .set(LINKED_AT, now)
                .set(UPDATED_AT, now)
                .onConflict(CHAT_ID, THREAD_ID)
                .doUpdate()
                .set(USER_ID, DSL.excluded(USER_ID))
                .set(SESSION_KEY, DSL.excluded(SESSION_KEY))
                .set(SESSION_ID, DSL.excluded(SESSION_ID))
                .set(MANAGED_MODE, DSL.excluded(MANAGED_MODE))
                .set(UPDATED_AT, DSL.excluded(UPDATED_AT))
                .execute();
    }

    /** is_telegram_session_linked_to_topic. */
    public boolean isLinked(Transaction transaction, String sessionId) throws SQLException {
        return hasTables(transaction) && transaction.dsl().fetchExists(BINDINGS, SESSION_ID.eq(sessionId));
    }

    /**
     * list_unlinked_telegram_sessions_for_user: the user's Telegram sessions bound to no topic (all of
     * them before anyone opted in), with preview and last activity, most recently active first. The
     * agent takes a chat id too and does not use it.
     */
    public List<RichSession> unlinkedSessions(Transaction transaction, String userId, int limit) throws SQLException {
        Condition unlinked = SESSIONS.SOURCE.eq(DSL.inline("telegram")).and(SESSIONS.USER_ID.eq(userId));
        if (hasTables(transaction)) {
            unlinked = unlinked.andNotExists(DSL.selectOne().from(B)
                    .where(DSL.field(DSL.name("b", "session_id"), String.class).eq(SESSIONS.ID)));
        }
        return SessionPreviews.select(transaction)
                .where(unlinked)
                .orderBy(SessionPreviews.LAST_ACTIVE.desc(), SESSIONS.STARTED_AT.desc())
                .limit(limit)
                .fetch(SessionPreviews.rows(backend));
    }

    /** Both tables exist (they are made together). */
    private boolean hasTables(Transaction transaction) throws SQLException {
        return backend.hasTable(transaction, BINDINGS) && backend.hasTable(transaction, MODE);
    }

    private static @Nullable Long flag(@Nullable Boolean value) {
        return value == null ? null : value ? 1L : 0L;
    }

    private static TelegramTopicBinding binding(Record row) {
        return new TelegramTopicBinding(row.get(CHAT_ID), row.get(THREAD_ID), row.get(USER_ID), row.get(SESSION_KEY),
                row.get(SESSION_ID), row.get(MANAGED_MODE), EpochSeconds.instant(row.get(LINKED_AT)),
                EpochSeconds.instant(row.get(UPDATED_AT)));
    }
}
