package dev.hermes.state.core;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.SchemaTooNewException;
import dev.hermes.state.codegen.EpochSecondsConverter;
import dev.hermes.state.core.connection.Backend;
import dev.hermes.state.core.connection.ConnectionSource;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.connection.SqliteBackend;
import dev.hermes.state.core.connection.Transaction;
import dev.hermes.state.core.lineage.LineageNode;
import dev.hermes.state.core.search.SearchHit;
import dev.hermes.state.core.search.SearchQuery;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteFile;
import org.jooq.Condition;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import javax.sql.DataSource;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * The Hermes session store (state.db): every operation of SPEC section 4, typed. Thread-safe; open it
 * once and keep it for the application's lifetime; {@link #close()} checkpoints and releases
 * everything. Every failure is a {@link dev.hermes.state.HermesStateException} subtype: bad arguments
 * are refused with {@link InvalidArgumentException} before anything is written, and every write is one
 * transaction, so a failed call changes nothing.
 *
 * <p>Writes run one at a time on a single connection, each in its own {@code BEGIN IMMEDIATE}
 * transaction with Hermes' retry policy; reads run concurrently on a small pool of connections that
 * cannot write. Connections are opened on first use. Hermes names in the Javadoc ({@code create_session}
 * ...) point at the SPEC operation each method implements.
 */
public final class StateRepository implements AutoCloseable {
    private static final String COMPRESSION = Lineage.COMPRESSION;
    private static final double SECONDS_PER_DAY = 86_400.0;
    /** get_next_title_in_lineage's pattern: a base title and a trailing " #<digits>" (Unicode digits, as Python's \d). */
    private static final Pattern NUMBERED_TITLE = Pattern.compile("^(.*?) #(\\d+)$", Pattern.UNICODE_CHARACTER_CLASS);
    private static final EpochSecondsConverter EPOCH_SECONDS = new EpochSecondsConverter();

    private static final CachedQuery SESSION_BY_ID = new CachedQuery(List.of("sessionId"), () -> DSL
            .selectFrom(SESSIONS)
            .where(SESSIONS.ID.eq(DSL.param("sessionId", String.class))));
    private static final CachedQuery MESSAGES_OF_SESSION = new CachedQuery(List.of("sessionId"), () -> DSL
            .selectFrom(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID));
    private static final CachedQuery CONVERSATION_OF_SESSION = new CachedQuery(List.of("sessionId"), () -> DSL
            .select(MESSAGES.ROLE, MESSAGES.CONTENT, MESSAGES.TOOL_CALL_ID, MESSAGES.TOOL_NAME, MESSAGES.TOOL_CALLS,
                    MESSAGES.REASONING, MESSAGES.REASONING_DETAILS, MESSAGES.CODEX_REASONING_ITEMS)
            .from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID));
    /** create_session and ensure_session: Hermes' INSERT OR IGNORE (an existing id wins, even with an unknown parent). */
    private static final CachedQuery CREATE_SESSION = new CachedQuery(
            List.of("id", "source", "userId", "model", "modelConfig", "systemPrompt", "parentId", "startedAt"), () -> DSL
                    .insertInto(SESSIONS)
                    .set(SESSIONS.ID, DSL.param("id", String.class))
                    .set(SESSIONS.SOURCE, DSL.param("source", String.class))
                    .set(SESSIONS.USER_ID, DSL.param("userId", String.class))
                    .set(SESSIONS.MODEL, DSL.param("model", String.class))
                    .set(SESSIONS.MODEL_CONFIG, DSL.param("modelConfig", SQLDataType.CLOB).coerce(SQLDataType.JSON))
                    .set(SESSIONS.SYSTEM_PROMPT, DSL.param("systemPrompt", String.class))
                    .set(SESSIONS.PARENT_SESSION_ID, DSL.param("parentId", String.class))
                    .set(SESSIONS.STARTED_AT, DSL.param("startedAt", SQLDataType.DOUBLE).coerce(SESSIONS.STARTED_AT))
                    .onConflictDoNothing());
    /** end_session: the first end wins. */
    private static final CachedQuery END_SESSION = new CachedQuery(List.of("endedAt", "endReason", "id"), () -> DSL
            .update(SESSIONS)
            .set(SESSIONS.ENDED_AT, DSL.param("endedAt", SQLDataType.DOUBLE).coerce(SESSIONS.ENDED_AT))
            .set(SESSIONS.END_REASON, DSL.param("endReason", String.class))
            .where(SESSIONS.ID.eq(DSL.param("id", String.class)))
            .and(SESSIONS.ENDED_AT.isNull()));

    private final Database database;
    private final boolean immutableSnapshot;
    private final Backend backend;
    private final Clock clock;
    private final MessageAppends appends;
    private final Lineage lineage;
    /** Built on first use: its query parts load much of jOOQ, which a command that never lists need not pay. */
    private volatile RichListing listing;

    private StateRepository(Database database, boolean immutableSnapshot, Clock clock) {
        this.database = database;
        this.immutableSnapshot = immutableSnapshot;
        this.backend = database.backend();
        this.clock = clock;
        this.appends = new MessageAppends(backend.dialect());
        this.lineage = new Lineage(backend);
    }

    // ------------------------------------------------------------------ opening

    /** Opens (creating, migrating or adopting) the file read-write. */
    public static StateRepository open(Path file) {
        return builder().path(file).build();
    }

    /** Opens the file read-only: never writes; works on files newer than version 6 with the v6 columns. */
    public static StateRepository openReadOnly(Path file) {
        return builder().path(file).readOnly(true).build();
    }

    /** Opens the default location ({@link #defaultPath()}), read-write. */
    public static StateRepository open() {
        return open(defaultPath());
    }

    /** {@code $HERMES_HOME/state.db} when HERMES_HOME is set and not blank (trimmed), else {@code ~/.hermes/state.db}. */
    public static Path defaultPath() {
        String home = System.getenv("HERMES_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home.strip()).resolve("state.db");
        }
        return Path.of(System.getProperty("user.home"), ".hermes", "state.db");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A read-only jOOQ context (reader pool, query_only) for custom type-safe queries on the generated tables. */
    public DSLContext dsl() {
        return database.readOnlyDsl();
    }

    /**
     * Runs custom writes in one BEGIN IMMEDIATE transaction with the retry policy; all or nothing.
     * The work may run more than once (when another process holds the lock), so it must not have
     * side effects outside the transaction. An unchecked exception it throws rolls back and reaches
     * the caller unchanged; database failures arrive typed.
     */
    public <T> T inWriteTransaction(Function<DSLContext, T> work) {
        Arguments.required(work, "work");
        return database.write("running a custom write transaction", transaction -> work.apply(transaction.dsl()));
    }

    /** The database file (empty for a store built on an application's DataSource). */
    public Optional<Path> path() {
        return database.file();
    }

    public boolean isReadOnly() {
        return database.isReadOnly();
    }

    /**
     * True when this read-only store reads its file as an immutable snapshot: the file is in WAL mode
     * in a folder this process cannot write (a backup on read-only media, another user's folder) and
     * has no {@code -shm}, which SQLite would have to create to read it with its locks. Exact, since no
     * {@code -wal} with changes lies beside it (such a file is refused), but what another process
     * writes to the file while the store is open is not seen, and must not happen.
     */
    public boolean isImmutableSnapshot() {
        return immutableSnapshot;
    }

    /** PRAGMA wal_checkpoint(PASSIVE) now (also done every 50 writes and at close). No-op when read-only. */
    public void checkpoint() {
        database.checkpoint(false);
    }

    /** Reclaims free pages (VACUUM) and truncates the WAL; returns the bytes the file shrank by. */
    public long vacuum() {
        return database.vacuum();
    }

    /** Checkpoints (when this store wrote anything) and closes every connection. Idempotent. */
    @Override
    public void close() {
        database.close();
    }

    // ------------------------------------------------------------------ sessions

    /**
     * create_session: inserts with started_at = now; an existing id is left unchanged (insert-or-ignore:
     * the first row wins, no error, whatever parent is given). A new session with an unknown parent →
     * ConstraintViolationException. Returns the id.
     */
    public String createSession(NewSession session) {
        Arguments.required(session, "session");
        String id = Arguments.id(session.id(), "session id");
        String source = Arguments.label(session.source(), "source");
        String model = Arguments.optionalLabel(session.model(), "model");
        String modelConfig = Arguments.optionalText(JsonValues.encode(session.modelConfig(), "model_config"), "model_config");
        String systemPrompt = Arguments.optionalText(session.systemPrompt(), "system prompt");
        String userId = Arguments.optionalLabel(session.userId(), "user id");
        String parent = session.parentSessionId() == null ? null : Arguments.id(session.parentSessionId(), "parent session id");
        double startedAt = EPOCH_SECONDS.to(now());
        return database.write("creating session " + id, transaction -> {
            try {
                CREATE_SESSION.execute(transaction, id, source, userId, model, modelConfig, systemPrompt, parent, startedAt);
            } catch (SQLException failure) {
                if (parent != null && backend.isForeignKeyViolation(failure)) {
                    throw new ConstraintViolationException("Cannot create session '" + id + "': parent session '"
                            + parent + "' does not exist", failure);
                }
                throw failure;
            }
            return id;
        });
    }

    public String createSession(String id, String source) {
        return createSession(NewSession.builder(id, source).build());
    }

    /** ensure_session: insert-or-ignore, never overwrites. source null → "unknown". */
    public void ensureSession(String id, String source, String model) {
        String sessionId = Arguments.id(id, "session id");
        String sessionSource = source == null ? "unknown" : Arguments.label(source, "source");
        String sessionModel = Arguments.optionalLabel(model, "model");
        double startedAt = EPOCH_SECONDS.to(now());
        database.write("ensuring session " + sessionId, transaction -> CREATE_SESSION.execute(transaction,
                sessionId, sessionSource, null, sessionModel, null, null, null, startedAt));
    }

    /** end_session: sets ended_at=now and end_reason unless already ended (the first end wins); true when this call ended it. */
    public boolean endSession(String id, String endReason) {
        String sessionId = Arguments.id(id, "session id");
        String reason = Arguments.label(endReason, "end reason");
        double endedAt = EPOCH_SECONDS.to(now());
        return database.write("ending session " + sessionId,
                transaction -> END_SESSION.execute(transaction, endedAt, reason, sessionId) > 0);
    }

    /** reopen_session: clears ended_at and end_reason. */
    public void reopenSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        database.write("reopening session " + sessionId, transaction -> transaction.dsl().update(SESSIONS)
                .setNull(SESSIONS.ENDED_AT)
                .setNull(SESSIONS.END_REASON)
                .where(SESSIONS.ID.eq(sessionId))
                .execute());
    }

    /** update_system_prompt. */
    public void updateSystemPrompt(String id, String systemPrompt) {
        String sessionId = Arguments.id(id, "session id");
        String prompt = Arguments.optionalText(systemPrompt, "system prompt");
        database.write("updating the system prompt of session " + sessionId, transaction -> transaction.dsl()
                .update(SESSIONS)
                .set(SESSIONS.SYSTEM_PROMPT, prompt)
                .where(SESSIONS.ID.eq(sessionId))
                .execute());
    }

    /**
     * update_token_counts (SPEC section 4). Incremental: the five token counters grow by the given
     * amounts, estimated cost grows by the given one (from 0), actual cost grows only when given.
     * Absolute: the counters are set, estimated cost becomes the given one (or 0), actual cost is set
     * only when given. Both: cost status, source and pricing version take a given value (last wins);
     * billing provider, base URL, mode and model are filled only while still NULL (first wins).
     */
    public void updateTokenCounts(String id, TokenUsage usage) {
        String sessionId = Arguments.id(id, "session id");
        Arguments.required(usage, "token usage");
        long input = Arguments.tokens(usage.inputTokens(), "input tokens");
        long output = Arguments.tokens(usage.outputTokens(), "output tokens");
        long cacheRead = Arguments.tokens(usage.cacheReadTokens(), "cache read tokens");
        long cacheWrite = Arguments.tokens(usage.cacheWriteTokens(), "cache write tokens");
        long reasoning = Arguments.tokens(usage.reasoningTokens(), "reasoning tokens");
        Double estimated = Arguments.optionalAmount(usage.estimatedCostUsd(), "estimated cost");
        Double actual = Arguments.optionalAmount(usage.actualCostUsd(), "actual cost");
        String model = Arguments.optionalLabel(usage.model(), "model");
        String costStatus = Arguments.optionalLabel(usage.costStatus(), "cost status");
        String costSource = Arguments.optionalLabel(usage.costSource(), "cost source");
        String pricingVersion = Arguments.optionalLabel(usage.pricingVersion(), "pricing version");
        String billingProvider = Arguments.optionalLabel(usage.billingProvider(), "billing provider");
        String billingBaseUrl = Arguments.optionalLabel(usage.billingBaseUrl(), "billing base URL");
        String billingMode = Arguments.optionalLabel(usage.billingMode(), "billing mode");
        boolean absolute = usage.absolute();
        database.write("updating the token counts of session " + sessionId, transaction -> {
            UpdateSetMoreStep<?> update = transaction.dsl().update(SESSIONS)
                    .set(SESSIONS.INPUT_TOKENS, tokens(SESSIONS.INPUT_TOKENS, input, absolute))
                    .set(SESSIONS.OUTPUT_TOKENS, tokens(SESSIONS.OUTPUT_TOKENS, output, absolute))
                    .set(SESSIONS.CACHE_READ_TOKENS, tokens(SESSIONS.CACHE_READ_TOKENS, cacheRead, absolute))
                    .set(SESSIONS.CACHE_WRITE_TOKENS, tokens(SESSIONS.CACHE_WRITE_TOKENS, cacheWrite, absolute))
                    .set(SESSIONS.REASONING_TOKENS, tokens(SESSIONS.REASONING_TOKENS, reasoning, absolute))
                    .set(SESSIONS.ESTIMATED_COST_USD, absolute
                            ? DSL.val(estimated == null ? 0.0 : estimated)
                            : DSL.coalesce(SESSIONS.ESTIMATED_COST_USD, DSL.inline(0.0)).plus(estimated == null ? 0.0 : estimated));
            if (actual != null) {
                update = update.set(SESSIONS.ACTUAL_COST_USD, absolute
                        ? DSL.val(actual)
                        : DSL.coalesce(SESSIONS.ACTUAL_COST_USD, DSL.inline(0.0)).plus(actual));
            }
            update = lastWins(update, SESSIONS.COST_STATUS, costStatus);
            update = lastWins(update, SESSIONS.COST_SOURCE, costSource);
            update = lastWins(update, SESSIONS.PRICING_VERSION, pricingVersion);
            update = firstWins(update, SESSIONS.BILLING_PROVIDER, billingProvider);
            update = firstWins(update, SESSIONS.BILLING_BASE_URL, billingBaseUrl);
            update = firstWins(update, SESSIONS.BILLING_MODE, billingMode);
            update = firstWins(update, SESSIONS.MODEL, model);
            return update.where(SESSIONS.ID.eq(sessionId)).execute();
        });
    }

    private static Field<Long> tokens(Field<Long> column, long amount, boolean absolute) {
        return absolute ? DSL.val(amount) : DSL.coalesce(column, DSL.inline(0L)).plus(amount);
    }

    private static UpdateSetMoreStep<?> lastWins(UpdateSetMoreStep<?> update, Field<String> column, String value) {
        return value == null ? update : update.set(column, value);
    }

    private static UpdateSetMoreStep<?> firstWins(UpdateSetMoreStep<?> update, Field<String> column, String value) {
        return value == null ? update : update.set(column, DSL.coalesce(column, DSL.val(value)));
    }

    /** get_session: every column, or empty. */
    public Optional<Session> getSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("reading session " + sessionId, transaction -> sessionById(transaction, sessionId));
    }

    /**
     * resolve_session_id: the exact id if it exists; else the id of the only session whose id starts
     * with the prefix (\ % _ taken literally); empty when none or several match.
     */
    public Optional<String> resolveSessionId(String idOrPrefix) {
        String prefix = Arguments.id(idOrPrefix, "session id or prefix");
        return database.read("resolving session id " + prefix, transaction -> {
            DSLContext dsl = transaction.dsl();
            if (exists(dsl, prefix)) {
                return Optional.of(prefix);
            }
            List<String> matches = dsl.select(SESSIONS.ID).from(SESSIONS)
                    .where(backend.startsWith(SESSIONS.ID, prefix))
                    .orderBy(SESSIONS.STARTED_AT.desc())
                    .limit(DSL.inline(2))
                    .fetch(SESSIONS.ID);
            return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
        });
    }

    /** session_count(source); source null (or empty, as in Hermes) = all. */
    public long sessionCount(String source) {
        String sessionSource = Arguments.optionalLabel(source, "source");
        return database.read("counting sessions", transaction -> (long) transaction.dsl().fetchCount(SESSIONS, sourceIs(sessionSource)));
    }

    /** message_count(session_id); sessionId null (or empty, as in Hermes) = all messages. */
    public long messageCount(String sessionId) {
        String id = sessionId == null ? null : Arguments.optionalLabel(sessionId, "session id");
        Condition condition = id == null || id.isEmpty() ? DSL.noCondition() : MESSAGES.SESSION_ID.eq(id);
        return database.read("counting messages", transaction -> (long) transaction.dsl().fetchCount(MESSAGES, condition));
    }

    /** search_sessions: all columns, children included, newest started_at first. */
    public List<Session> searchSessions(String source, int limit, int offset) {
        String sessionSource = Arguments.optionalLabel(source, "source");
        int rows = Arguments.limit(limit);
        int skip = Arguments.offset(offset);
        return database.read("listing sessions", transaction -> transaction.dsl().selectFrom(SESSIONS)
                .where(sourceIs(sessionSource))
                .orderBy(SESSIONS.STARTED_AT.desc())
                .limit(rows)
                .offset(skip)
                .fetch(Rows::session));
    }

    private static Condition sourceIs(String source) {
        return source == null || source.isEmpty() ? DSL.noCondition() : SESSIONS.SOURCE.eq(source);
    }

    // ------------------------------------------------------------------ messages

    /**
     * append_message: timestamp = now; in the same transaction message_count += 1 and tool_call_count
     * += the number of tool calls (list size, 1 for any other non-null value, 0 for a tool result).
     * Unknown session → ConstraintViolationException. Returns the new id.
     */
    public long appendMessage(String sessionId, NewMessage message) {
        String id = Arguments.id(sessionId, "session id");
        MessageAppends.Encoded encoded = MessageAppends.Encoded.of(message);
        double timestamp = EPOCH_SECONDS.to(now());
        return database.write("appending a message to session " + id,
                transaction -> appends.append(transaction, id, encoded, timestamp));
    }

    /**
     * Appends many messages in one transaction (all or nothing), with one timestamp (their order is
     * kept by their ids); returns the ids in input order. Counters as for {@link #appendMessage}.
     */
    public List<Long> appendMessages(String sessionId, List<NewMessage> messages) {
        String id = Arguments.id(sessionId, "session id");
        Arguments.required(messages, "messages");
        List<MessageAppends.Encoded> encoded = messages.stream().map(MessageAppends.Encoded::of).toList();
        if (encoded.isEmpty()) {
            return List.of();
        }
        double timestamp = EPOCH_SECONDS.to(now());
        return database.write("appending " + encoded.size() + " messages to session " + id,
                transaction -> appends.appendAll(transaction, id, encoded, timestamp));
    }

    /** get_messages: every column, ordered by (timestamp, id); empty for an unknown session. */
    public List<Message> getMessages(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the messages of session " + id, transaction -> messagesOf(transaction, id));
    }

    private static List<Message> messagesOf(Transaction transaction, String sessionId) throws SQLException {
        return MESSAGES_OF_SESSION.fetch(transaction, sessionId).map(Rows::message);
    }

    private static Optional<Session> sessionById(Transaction transaction, String sessionId) throws SQLException {
        return SESSION_BY_ID.fetch(transaction, sessionId).stream().findFirst().map(Rows::session);
    }

    /** Keyset page of a session's messages by (timestamp, id); cursor null = first page; limit ≥ 1. */
    public Page<Message> getMessagesPage(String sessionId, String cursor, int limit) {
        String id = Arguments.id(sessionId, "session id");
        int rows = pageSize(limit);
        Cursors.MessagePosition after = Cursors.messagesPosition(cursor);
        Field<Double> timestampRaw = Lineage.raw(MESSAGES.TIMESTAMP);
        return database.read("reading the messages of session " + id, transaction -> {
            DSLContext dsl = transaction.dsl();
            Condition condition = MESSAGES.SESSION_ID.eq(id);
            if (after != null) {
                condition = condition.and(timestampRaw.ge(after.timestamp()))
                        .and(timestampRaw.gt(after.timestamp()).or(MESSAGES.ID.gt(after.id())));
            }
            List<Record> page = dsl.select(MESSAGES.fields()).select(timestampRaw)
                    .from(MESSAGES)
                    .where(condition)
                    .orderBy(MESSAGES.TIMESTAMP, MESSAGES.ID)
                    .limit(rows + 1)
                    .fetch();
            if (page.size() <= rows) {
                return new Page<>(page.stream().map(Rows::message).toList(), Optional.empty());
            }
            List<Record> items = page.subList(0, rows);
            Record last = items.get(rows - 1);
            return new Page<>(items.stream().map(Rows::message).toList(),
                    Optional.of(Cursors.messages(last.get(timestampRaw), last.get(MESSAGES.ID))));
        });
    }

    /** get_messages_as_conversation: the OpenAI chat shape, ordered by (timestamp, id). */
    public List<ChatMessage> getMessagesAsConversation(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the conversation of session " + id,
                transaction -> CONVERSATION_OF_SESSION.fetch(transaction, id).map(Rows::chatMessage));
    }

    /** clear_messages: deletes the messages, zeroes message_count and tool_call_count (tokens and costs untouched). */
    public void clearMessages(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        database.write("clearing the messages of session " + id, transaction -> {
            DSLContext dsl = transaction.dsl();
            dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(id)).execute();
            return dsl.update(SESSIONS)
                    .set(SESSIONS.MESSAGE_COUNT, 0L)
                    .set(SESSIONS.TOOL_CALL_COUNT, 0L)
                    .where(SESSIONS.ID.eq(id))
                    .execute();
        });
    }

    // ------------------------------------------------------------------ titles

    /**
     * set_session_title: the title is sanitized ({@link Titles#sanitize}); null/blank clears it. A
     * title another session has → InvalidArgumentException "Title 'T' is already in use by session
     * ID". The check and the update are one write transaction; the unique index is the last defence
     * (a race past it is a ConstraintViolationException). False for an unknown id.
     */
    public boolean setSessionTitle(String id, String title) {
        String sessionId = Arguments.id(id, "session id");
        String sanitized = Titles.sanitize(title).orElse(null);
        return database.write("setting the title of session " + sessionId, transaction -> {
            DSLContext dsl = transaction.dsl();
            if (sanitized != null) {
                Optional<String> holder = dsl.select(SESSIONS.ID).from(SESSIONS)
                        .where(SESSIONS.TITLE.eq(sanitized))
                        .and(SESSIONS.ID.ne(sessionId))
                        .limit(DSL.inline(1))
                        .fetchOptional(SESSIONS.ID);
                if (holder.isPresent()) {
                    throw new InvalidArgumentException("Title '" + sanitized + "' is already in use by session " + holder.get());
                }
            }
            return dsl.update(SESSIONS).set(SESSIONS.TITLE, sanitized).where(SESSIONS.ID.eq(sessionId)).execute() > 0;
        });
    }

    /** get_session_title: empty for an unknown session or one without a title. */
    public Optional<String> getSessionTitle(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("reading the title of session " + sessionId, transaction -> transaction.dsl().select(SESSIONS.TITLE)
                .from(SESSIONS)
                .where(SESSIONS.ID.eq(sessionId))
                .fetchOptional(SESSIONS.TITLE));
    }

    /** get_session_by_title: exact match, input not sanitized. */
    public Optional<Session> getSessionByTitle(String title) {
        String exact = Arguments.optionalText(Arguments.required(title, "title"), "title");
        return database.read("finding the session titled " + exact, transaction -> transaction.dsl().selectFrom(SESSIONS)
                .where(SESSIONS.TITLE.eq(exact))
                .fetchOptional(Rows::session));
    }

    /**
     * resolve_session_by_title: the most recently started session titled {@code "title #<anything>"}
     * (wildcards in the title taken literally), else the session titled exactly {@code title}, else empty.
     */
    public Optional<String> resolveSessionByTitle(String title) {
        String base = Arguments.optionalText(Arguments.required(title, "title"), "title");
        return database.read("resolving the title " + base, transaction -> {
            DSLContext dsl = transaction.dsl();
            Optional<String> numbered = dsl.select(SESSIONS.ID).from(SESSIONS)
                    .where(backend.startsWith(SESSIONS.TITLE, base + " #"))
                    .orderBy(SESSIONS.STARTED_AT.desc())
                    .limit(DSL.inline(1))
                    .fetchOptional(SESSIONS.ID);
            if (numbered.isPresent()) {
                return numbered;
            }
            return dsl.select(SESSIONS.ID).from(SESSIONS)
                    .where(SESSIONS.TITLE.eq(base))
                    .limit(DSL.inline(1))
                    .fetchOptional(SESSIONS.ID);
        });
    }

    /**
     * get_next_title_in_lineage: base = the title without a trailing " #&lt;digits&gt;"; the base itself
     * when no session is titled base or "base #…", else "base #(max+1)" (an unnumbered base counts as 1).
     */
    public String nextTitleInLineage(String baseTitle) {
        String title = Arguments.optionalText(Arguments.required(baseTitle, "base title"), "base title");
        Matcher numbered = NUMBERED_TITLE.matcher(title);
        String base = numbered.matches() ? numbered.group(1) : title;
        List<String> existing = database.read("numbering the title " + base, transaction -> transaction.dsl().select(SESSIONS.TITLE)
                .from(SESSIONS)
                .where(SESSIONS.TITLE.eq(base).or(backend.startsWith(SESSIONS.TITLE, base + " #")))
                .fetch(SESSIONS.TITLE));
        if (existing.isEmpty()) {
            return base;
        }
        BigInteger highest = BigInteger.ONE;
        for (String taken : existing) {
            Matcher number = NUMBERED_TITLE.matcher(taken);
            if (number.matches()) {
                highest = highest.max(digits(number.group(2)));
            }
        }
        return base + " #" + highest.add(BigInteger.ONE);
    }

    /** The value of a run of (possibly non-ASCII) decimal digits, as Python's int() reads it. */
    private static BigInteger digits(String digits) {
        StringBuilder ascii = new StringBuilder(digits.length());
        digits.codePoints().forEach(codePoint -> ascii.append(Character.digit(codePoint, 10)));
        return new BigInteger(ascii.toString());
    }

    // ------------------------------------------------------------------ lineage

    /** get_compression_tip: any depth, cycle-safe; unknown ids return themselves. */
    public String compressionTip(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("finding the compression tip of session " + id, transaction -> lineage.compressionTip(transaction, id));
    }

    /** The session (depth 0), its parent (1), ... up to its root. Empty for an unknown id. */
    public List<LineageNode> ancestors(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the ancestors of session " + id, transaction -> lineage.ancestors(transaction.dsl(), id));
    }

    /** The whole tree under a root (root depth 0), each child after its parent, siblings by started_at. */
    public List<LineageNode> lineageTree(String rootId) {
        String id = Arguments.id(rootId, "root session id");
        return database.read("reading the lineage tree of session " + id, transaction -> lineage.tree(transaction.dsl(), id));
    }

    // ------------------------------------------------------------------ listing and search

    /**
     * list_sessions_rich (offset paging, Hermes-compatible): sessions newest first with preview and
     * last_active, children hidden unless asked for, compression roots projected onto their tips.
     */
    public List<RichSession> listSessionsRich(ListSessionsQuery query) {
        Arguments.required(query, "query");
        int limit = Arguments.limit(query.limit());
        int offset = Arguments.offset(query.offset());
        checkSources(query);
        return database.read("listing sessions", transaction -> listing().page(transaction, query, false, null, limit, offset).items());
    }

    /** The rich listing with keyset paging: cursor null = first page; the query's offset is ignored; limit ≥ 1. */
    public Page<RichSession> listSessionsRichPage(ListSessionsQuery query, String cursor) {
        Arguments.required(query, "query");
        int limit = pageSize(query.limit());
        checkSources(query);
        Cursors.Position after = Cursors.sessionsPosition(cursor);
        return database.read("listing sessions", transaction -> {
            RichListing.Slice slice = listing().page(transaction, query, true, after, limit, 0);
            return new Page<>(slice.items(), slice.more()
                    ? Optional.of(Cursors.sessions(slice.lastStartedAt(), slice.lastId()))
                    : Optional.empty());
        });
    }

    private RichListing listing() {
        RichListing built = listing;
        if (built == null) {
            built = new RichListing(lineage, backend);
            listing = built;
        }
        return built;
    }

    private static void checkSources(ListSessionsQuery query) {
        Arguments.optionalLabel(query.source(), "source");
        for (String excluded : query.excludeSources()) {
            Arguments.label(excluded, "excluded source");
        }
    }

    /**
     * search_messages: FTS5 MATCH of the sanitized query ranked by relevance, with snippet and context,
     * filters and paging as in {@link SearchQuery}; Hermes' LIKE fallback for CJK text. Never throws for
     * any query text (only for a failing database).
     */
    public List<SearchHit> searchMessages(SearchQuery query) {
        Arguments.required(query, "query");
        return database.read("searching messages", transaction -> backend.messageSearch().search(transaction, query));
    }

    // ------------------------------------------------------------------ export, delete, prune

    /** export_session: every column plus the messages (as get_messages), or empty. */
    public Optional<SessionExport> exportSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("exporting session " + sessionId, transaction -> {
            Optional<Session> session = sessionById(transaction, sessionId);
            return session.isEmpty() ? Optional.empty()
                    : Optional.of(new SessionExport(session.get(), messagesOf(transaction, sessionId)));
        });
    }

    /**
     * export_all, streaming: every session (newest first; source null = all) with its messages is
     * handed to {@code sink} as it is read, from one consistent snapshot, in constant memory (one
     * session at a time). Returns the number of sessions exported. An exception thrown by the sink
     * stops the export and reaches the caller unchanged.
     */
    public long exportAll(String source, Consumer<SessionExport> sink) {
        String sessionSource = Arguments.optionalLabel(source, "source");
        Arguments.required(sink, "sink");
        return database.readStreaming("exporting sessions", transaction -> {
            long exported = 0;
            try (Cursor<Record> sessions = transaction.dsl().select(SESSIONS.fields()).from(SESSIONS)
                    .where(sourceIs(sessionSource))
                    .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                    .fetchLazy()) {
                for (Record row : sessions) {
                    Session session = Rows.session(row);
                    sink.accept(new SessionExport(session, messagesOf(transaction, session.id())));
                    exported++;
                }
            }
            return exported;
        });
    }

    /**
     * delete_session: in one transaction its children become roots (grandchildren keep their parent),
     * its messages (and their search index rows) and the session are deleted; false if unknown.
     */
    public boolean deleteSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.write("deleting session " + sessionId, transaction -> {
            DSLContext dsl = transaction.dsl();
            if (!exists(dsl, sessionId)) {
                return false;
            }
            dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.eq(sessionId)).execute();
            dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.eq(sessionId)).execute();
            dsl.deleteFrom(SESSIONS).where(SESSIONS.ID.eq(sessionId)).execute();
            return true;
        });
    }

    /** The sessions prune_sessions would delete (ended, started before now - days, optional source), newest first. */
    public List<Session> pruneCandidates(double olderThanDays, String source) {
        Condition prunable = prunable(olderThanDays, source);
        return database.read("listing sessions to prune", transaction -> transaction.dsl().selectFrom(SESSIONS)
                .where(prunable)
                .orderBy(SESSIONS.STARTED_AT.desc(), SESSIONS.ID.desc())
                .fetch(Rows::session));
    }

    /**
     * prune_sessions: deletes every ended session started more than {@code olderThanDays} days ago
     * (fractions allowed; optionally of one source) as {@link #deleteSession} does, in one
     * transaction, with set-based statements (no bound parameter per session, so any number of
     * sessions can go). Live sessions are never pruned. Returns the number deleted; afterwards the
     * write-ahead log is checkpointed and truncated so a large prune does not leave a large log.
     */
    public int pruneSessions(double olderThanDays, String source) {
        Condition prunable = prunable(olderThanDays, source);
        int deleted = database.write("pruning sessions", transaction -> {
            DSLContext dsl = transaction.dsl();
            var doomed = DSL.select(SESSIONS.ID).from(SESSIONS).where(prunable);
            dsl.update(SESSIONS).setNull(SESSIONS.PARENT_SESSION_ID).where(SESSIONS.PARENT_SESSION_ID.in(doomed)).execute();
            dsl.deleteFrom(MESSAGES).where(MESSAGES.SESSION_ID.in(doomed)).execute();
            return dsl.deleteFrom(SESSIONS).where(prunable).execute();
        });
        if (deleted > 0) {
            database.shrinkLog();
        }
        return deleted;
    }

    private Condition prunable(double olderThanDays, String source) {
        if (!Double.isFinite(olderThanDays) || olderThanDays < 0) {
            throw new InvalidArgumentException("older-than days must be a finite number >= 0, got " + olderThanDays);
        }
        String sessionSource = Arguments.optionalLabel(source, "source");
        double cutoff = EPOCH_SECONDS.to(now()) - olderThanDays * SECONDS_PER_DAY;
        return SESSIONS.ENDED_AT.isNotNull()
                .and(Lineage.raw(SESSIONS.STARTED_AT).lt(cutoff))
                .and(sourceIs(sessionSource));
    }

    // ------------------------------------------------------------------ helpers

    private Instant now() {
        return clock.instant();
    }

    private static boolean exists(DSLContext dsl, String sessionId) {
        return dsl.fetchExists(SESSIONS, SESSIONS.ID.eq(sessionId));
    }

    private static int pageSize(int limit) {
        if (limit < 1) {
            throw new InvalidArgumentException("A page needs a limit of at least 1, got " + limit);
        }
        return limit;
    }

    // ------------------------------------------------------------------ configuration

    /** The few knobs users need; everything is validated at {@link #build()}. */
    public static final class Builder {
        private Path path;
        private DataSource dataSource;
        private boolean readOnly;
        private Duration busyTimeout = Duration.ofSeconds(1);
        private int maxAttempts = 15;
        private Duration minBackoff = Duration.ofMillis(20);
        private Duration maxBackoff = Duration.ofMillis(150);
        private int readerPoolSize = 4;
        private int checkpointEvery = 50;
        private Clock clock = Clock.systemUTC();
        private boolean migrate = true;

        private Builder() {
        }

        public Builder path(Path path) {
            this.path = path;
            return this;
        }

        /** Build on an application-owned DataSource (it must point at a SQLite state.db). */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        public Builder busyTimeout(Duration busyTimeout) {
            this.busyTimeout = busyTimeout;
            return this;
        }

        /** Total attempts of a write transaction that keeps failing with BUSY/LOCKED (Hermes: 15). */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        public Builder backoff(Duration min, Duration max) {
            this.minBackoff = min;
            this.maxBackoff = max;
            return this;
        }

        public Builder readerPoolSize(int readerPoolSize) {
            this.readerPoolSize = readerPoolSize;
            return this;
        }

        /** PASSIVE checkpoint after this many successful writes (Hermes: 50). */
        public Builder checkpointEvery(int writes) {
            this.checkpointEvery = writes;
            return this;
        }

        /** The clock for started_at/ended_at/timestamp and prune cut-offs (tests). */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Whether opening read-write migrates/adopts the file (default true). */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * Opens the store. A file is first checked: read-only needs the version-6 columns (a newer
         * file is fine); read-write migrates or adopts it (a no-op without Liquibase when it is up to
         * date), or, with {@code migrate(false)}, requires it to be at version 6 already. No
         * connection of the store itself is opened yet: that happens on first use.
         */
        public StateRepository build() {
            if ((path == null) == (dataSource == null)) {
                throw new InvalidArgumentException("Give exactly one of path(...) and dataSource(...)");
            }
            RetryPolicy retryPolicy = new RetryPolicy(busyTimeout, maxAttempts, minBackoff, maxBackoff);
            if (readerPoolSize < 1) {
                throw new InvalidArgumentException("readerPoolSize must be at least 1, got " + readerPoolSize);
            }
            if (checkpointEvery < 1) {
                throw new InvalidArgumentException("checkpointEvery must be at least 1, got " + checkpointEvery);
            }
            Arguments.required(clock, "clock");
            Migrator migrator = Migrator.withRetryPolicy(retryPolicy);
            ConnectionSource source;
            SqliteFile.Access readAccess = SqliteFile.Access.READ_ONLY;
            if (path != null) {
                if (readOnly) {
                    migrator.checkReadable(path);
                    readAccess = SqliteFile.readAccess(path, retryPolicy);
                } else if (migrate) {
                    migrator.migrate(path);
                } else {
                    int version = migrator.checkReadable(path);
                    if (version > Migrator.LATEST_VERSION) {
                        throw new SchemaTooNewException(version, Migrator.LATEST_VERSION);
                    }
                }
                source = ConnectionSource.ofFile(path, readAccess, retryPolicy);
            } else {
                if (migrate && !readOnly) {
                    migrate(migrator, dataSource, new SqliteBackend(retryPolicy));
                }
                source = ConnectionSource.ofDataSource(dataSource);
            }
            Database database = new Database(new SqliteBackend(retryPolicy), source, retryPolicy, readOnly,
                    readerPoolSize, checkpointEvery);
            return new StateRepository(database, readAccess == SqliteFile.Access.SNAPSHOT, clock);
        }

        private static void migrate(Migrator migrator, DataSource dataSource, Backend backend) {
            try (Connection connection = dataSource.getConnection()) {
                migrator.migrate(connection);
            } catch (SQLException e) {
                throw backend.translate(e, "migrating the application's database");
            }
        }
    }
}
