package dev.hermes.state.core;

import dev.hermes.state.core.model.SchemaRules;
import dev.hermes.state.InvalidArgumentException;
import dev.hermes.state.StateIOException;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.coordination.CompressionCooldowns;
import dev.hermes.state.core.coordination.CompressionLocks;
import dev.hermes.state.core.coordination.GatewayPeers;
import dev.hermes.state.core.coordination.Handoffs;
import dev.hermes.state.core.coordination.StateMeta;
import dev.hermes.state.core.model.AutoMaintenanceReport;
import dev.hermes.state.core.model.CompressionCooldown;
import dev.hermes.state.core.model.GatewayPeer;
import dev.hermes.state.core.model.HandoffState;
import dev.hermes.state.core.model.Timestamps;
import dev.hermes.state.core.model.VacuumReport;
import dev.hermes.state.core.retention.AutoMaintenance;
import dev.hermes.state.core.retention.SessionDeletes;
import dev.hermes.state.core.retention.SessionFiles;
import dev.hermes.state.core.sessions.CronRuns;
import dev.hermes.state.core.sessions.SessionUpdates;
import dev.hermes.state.core.coordination.TelegramTopics;
import dev.hermes.state.core.sessions.UsageAnalytics;
import dev.hermes.state.core.arguments.Arguments;
import dev.hermes.state.core.model.StoreStats;
import dev.hermes.state.core.model.UsageQuery;
import dev.hermes.state.core.model.UsageReport;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.connection.Database;
import dev.hermes.state.core.copy.StoreBackup;
import dev.hermes.state.core.copy.StoreCopy;
import dev.hermes.state.core.sessions.Lineage;
import dev.hermes.state.core.sessions.RecentSessions;
import dev.hermes.state.core.sessions.RichListing;
import dev.hermes.state.core.sessions.SessionCounts;
import dev.hermes.state.core.messages.MessageAppends;
import dev.hermes.state.core.messages.MessageEdits;
import dev.hermes.state.core.messages.MessagesAroundReads;
import dev.hermes.state.core.messages.Messages;
import dev.hermes.state.core.messages.NewMessageRow;
import dev.hermes.state.core.model.AnchoredView;
import dev.hermes.state.core.model.ActiveSession;
import dev.hermes.state.core.model.ChatMessage;
import dev.hermes.state.core.model.ConversationOptions;
import dev.hermes.state.core.model.CopyOptions;
import dev.hermes.state.core.model.CopyProgress;
import dev.hermes.state.core.model.BackupOptions;
import dev.hermes.state.core.model.BackupReport;
import dev.hermes.state.core.model.CopyReport;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.ListSessionsQuery;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessagesAround;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.core.model.NewSession;
import dev.hermes.state.core.model.Page;
import dev.hermes.state.core.model.PrunedSessions;
import dev.hermes.state.core.model.RecentUserMessage;
import dev.hermes.state.core.model.RewindResult;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.SearchQuery;
import dev.hermes.state.core.model.SearchSessionsQuery;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionCountQuery;
import dev.hermes.state.core.model.SessionCwd;
import dev.hermes.state.core.model.SessionExport;
import dev.hermes.state.core.model.SavedWindow;
import dev.hermes.state.core.model.Titles;
import dev.hermes.state.core.model.TokenUsage;
import dev.hermes.state.core.model.WindowEntry;
import dev.hermes.state.core.connection.Opening;
import dev.hermes.state.core.connection.StoreConfig;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.core.paging.Cursors;
import dev.hermes.state.core.retention.Retention;
import dev.hermes.state.core.retention.SelectedSessions;
import dev.hermes.state.core.sessions.SessionSelections;
import dev.hermes.state.core.model.SelectionOutcome;
import dev.hermes.state.core.model.SessionSelection;
import dev.hermes.state.core.rows.EpochSeconds;
import dev.hermes.state.core.sessions.NewSessionRow;
import dev.hermes.state.core.sessions.Sessions;
import dev.hermes.state.core.sessions.SessionTitles;
import dev.hermes.state.core.sessions.TokenAccounting;
import dev.hermes.state.core.messages.Windows;
import dev.hermes.state.migrations.Migrator;
import dev.hermes.state.migrations.StoreLocation;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Table;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.hermes.state.db.Tables.COMPRESSION_LOCKS;
import static dev.hermes.state.db.Tables.STATE_META;
import javax.sql.DataSource;

/**
 * The Hermes session store (state.db): every operation of docs/behaviour.md#operations, typed. Thread-safe; open it
 * once and keep it for the application's lifetime; {@link #close()} checkpoints and releases
 * everything. Every failure is a {@link dev.hermes.state.HermesStateException} subtype: bad arguments
 * are refused with {@link InvalidArgumentException} before anything is written, and every write is one
 * transaction, so a failed call changes nothing.
 *
 * <p>Writes run one at a time on a single connection, each in its own {@code BEGIN IMMEDIATE}
 * transaction with Hermes' retry policy; reads run concurrently on a small pool of connections that
 * cannot write. Connections are opened on first use. Hermes names in the Javadoc ({@code create_session}
 * ...) point at the entry of docs/behaviour.md each method implements.
 */
public final class StateRepository implements AutoCloseable {
    /** The schema version a read-write open brings a store to unless {@link Builder#schemaVersion} says otherwise. */
    public static final int DEFAULT_SCHEMA_VERSION = Migrator.DEFAULT_VERSION;

    private final Database database;
    private final boolean immutableSnapshot;
    private final Clock clock;
    private final Sessions sessions;
    private final Messages messages;
    private final MessageEdits edits = new MessageEdits();
    private final MessagesAroundReads around = new MessagesAroundReads();
    private final MessageAppends appends;
    private final TokenAccounting tokens = new TokenAccounting();
    private final SessionTitles titles;
    private final Lineage lineage;
    private final RichListing listing;
    private final SessionCounts counts;
    private final RecentSessions recent = new RecentSessions();
    private final Backend backend;
    private final Retention retention;
    private final SelectedSessions selected;
    private final Windows windows;
    private final SessionDeletes deletes;
    private final SessionUpdates updates = new SessionUpdates();
    private final CronRuns cronRuns;
    private final StateMeta meta = new StateMeta();
    private final CompressionLocks locks = new CompressionLocks();
    private final CompressionCooldowns cooldowns = new CompressionCooldowns();
    private final Handoffs handoffs = new Handoffs();
    private final GatewayPeers peers = new GatewayPeers();
    private final TelegramTopicMode telegramTopics;
    private final UsageAnalytics analytics;

    private StateRepository(Opening.Opened opened, Clock clock, Builder builder) {
        this.database = opened.database();
        if (builder.observations != null || builder.meters != null) {
            // the only place core touches Micrometer: a store built without a registry never loads it
            database.observe(dev.hermes.state.core.observation.MicrometerStoreObserver.of(database,
                    builder.observations, builder.meters));
        }
        this.immutableSnapshot = opened.immutableSnapshot();
        this.clock = clock;
        this.backend = database.backend();
        this.appends = new MessageAppends(backend);
        this.messages = new Messages(backend);
        this.sessions = new Sessions(backend);
        this.titles = new SessionTitles(backend);
        this.lineage = new Lineage(backend);
        this.listing = new RichListing(lineage, backend, clock);
        this.counts = new SessionCounts(backend, lineage.kinds());
        this.windows = new Windows(backend, lineage, sessions, messages, appends, titles);
        this.retention = new Retention(sessions, messages, lineage, windows);
        this.selected = new SelectedSessions(messages);
        this.deletes = new SessionDeletes(backend, windows);
        this.cronRuns = new CronRuns(backend);
        this.telegramTopics = new TelegramTopicMode(database, new TelegramTopics(backend, meta), clock);
        this.analytics = new UsageAnalytics(lineage.kinds());
    }

    // ------------------------------------------------------------------ opening

    /** Opens (creating, migrating or adopting) the file read-write. */
    public static StateRepository open(Path file) {
        return builder().path(file).build();
    }

    /**
     * Opens the file read-only: never writes; works on any file with the version-6 columns, newer than
     * 17 included (read with every rule known up to 17).
     */
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

    /** True when {@code location} is a PostgreSQL URL rather than a file path (see {@link Builder#location}). */
    public static boolean isUrl(@Nullable String location) {
        return StoreLocation.isUrl(location);
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

    /**
     * Whose answers the store gives: {@link SchemaRules#V17} (today's agent) for a store opened at
     * schema 17 or on a file written at 7 or later, {@link SchemaRules#V6} for one kept at 6. The
     * RPC shapes its dicts by it; a caller can tell whether structured content and the columns of schema
     * 7 and later can be stored ({@link NewMessage}).
     */
    public SchemaRules schemaRules() {
        return database.schema().rules();
    }

    /**
     * What the store is, for messages and health reports: the file, the server and schema of a
     * PostgreSQL store, or the application's DataSource. Never a password.
     */
    public String describe() {
        return database.describe();
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

    /**
     * vacuum: merges the full-text indexes ({@link #optimizeFts}), then reclaims free pages (VACUUM) and
     * truncates the WAL. The report holds the agent's answer (the indexes merged) and the bytes the
     * database shrank by. Needs a read-write store; no other writer may be busy meanwhile.
     */
    public VacuumReport vacuum() {
        return database.vacuum();
    }

    /**
     * optimize_fts: merges the segments of each full-text index the store has (on SQLite FTS5's
     * 'optimize' on {@code messages_fts} and, from schema 10 on, {@code messages_fts_trigram}); search
     * answers are unchanged. Returns how many indexes were merged.
     */
    public int optimizeFts() {
        return database.optimizeFullText();
    }

    /**
     * Whose rules the store's answers follow: 17 (today's agent: a store opened at 17, or any file
     * written at 7 or later) or 6 (a store kept at version 6 on a file of at most 6).
     */
    public int rulesVersion() {
        return database.schema().v17() ? Migrator.LATEST_VERSION : Migrator.KEPT_VERSION;
    }

    /** Checkpoints (when this store wrote anything) and closes every connection. Idempotent. */
    @Override
    public void close() {
        database.close();
    }

    // ------------------------------------------------------------------ sessions

    /**
     * create_session: inserts with started_at = now. An existing id: at version 6's rules it is left
     * unchanged (insert-or-ignore: the first row wins, no error, whatever parent is given); at schema
     * 17's the upsert fills its NULL model, model_config, system_prompt, session_key, chat_id,
     * chat_type, thread_id, parent_session_id and cwd from the call, never overwriting a value (source,
     * user_id and started_at stay). A new session (or a parent filled in) naming an unknown parent →
     * ConstraintViolationException; the schema-17 fields on a store kept at 6 → InvalidArgumentException.
     * Returns the id.
     */
    public String createSession(NewSession session) {
        NewSessionRow row = NewSessionRow.of(session);
        double startedAt = now();
        String created = database.write("creating session " + row.id(),
                transaction -> sessions.create(transaction, row, startedAt));
        appends.renderAhead(database.renderer(), database.schema());
        return created;
    }

    public String createSession(String id, String source) {
        return createSession(NewSession.builder(id, source).build());
    }

    /**
     * ensure_session with its keywords (schema 17): the same write as {@link #createSession} (its
     * source is the agent's default {@code unknown} when the caller has none).
     */
    public void ensureSession(NewSession session) {
        NewSessionRow row = NewSessionRow.of(session);
        double startedAt = now();
        database.write("ensuring session " + row.id(), transaction -> sessions.create(transaction, row, startedAt));
        appends.renderAhead(database.renderer(), database.schema());
    }

    /**
     * ensure_session: never overwrites (at schema 17's rules a NULL model is filled, as
     * {@link #createSession} does). source null → "unknown".
     */
    public void ensureSession(String id, @Nullable String source, @Nullable String model) {
        String sessionId = Arguments.id(id, "session id");
        String sessionSource = source == null ? "unknown" : Arguments.label(source, "source");
        String sessionModel = Arguments.optionalLabel(model, "model");
        double startedAt = now();
        database.write("ensuring session " + sessionId, transaction -> {
            sessions.ensure(transaction, sessionId, sessionSource, sessionModel, startedAt);
            return sessionId;
        });
        appends.renderAhead(database.renderer(), database.schema());
    }

    /** end_session: sets ended_at=now and end_reason unless already ended (the first end wins); true when this call ended it. */
    public boolean endSession(String id, String endReason) {
        String sessionId = Arguments.id(id, "session id");
        String reason = Arguments.label(endReason, "end reason");
        double endedAt = now();
        return database.write("ending session " + sessionId,
                transaction -> sessions.end(transaction, sessionId, reason, endedAt));
    }

    /** reopen_session: clears ended_at and end_reason. */
    public void reopenSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        database.write("reopening session " + sessionId, transaction -> sessions.reopen(transaction, sessionId));
    }

    /** update_system_prompt. */
    public void updateSystemPrompt(String id, @Nullable String systemPrompt) {
        String sessionId = Arguments.id(id, "session id");
        String prompt = Arguments.optionalText(systemPrompt, "system prompt");
        database.write("updating the system prompt of session " + sessionId,
                transaction -> sessions.updateSystemPrompt(transaction, sessionId, prompt));
    }

    /**
     * update_token_counts (docs/behaviour.md#token-counts). Incremental: the five token counters grow by the given
     * amounts, estimated cost grows by the given one (from 0), actual cost grows only when given.
     * Absolute: the counters are set, estimated cost becomes the given one (or 0), actual cost is set
     * only when given. Both: cost status, source and pricing version take a given value (last wins);
     * billing provider, base URL, mode and model are filled only while still NULL (first wins).
     * Schema 17: the API call count grows (or is set, absolute), and a missing session is created
     * first (source {@code unknown}) so the counts are never lost; at version 6's rules an unknown id
     * changes nothing and a non-zero API call count is an InvalidArgumentException.
     */
    public void updateTokenCounts(String id, TokenUsage usage) {
        String sessionId = Arguments.id(id, "session id");
        TokenAccounting.Update update = TokenAccounting.Update.of(usage);
        double now = now();
        database.write("updating the token counts of session " + sessionId,
                transaction -> tokens.update(transaction, sessions, sessionId, update, now));
    }

    /** update_session_meta: model_config set to the given JSON text (null → NULL), the model only when given. */
    public void updateSessionMeta(String id, @Nullable String modelConfigJson, @Nullable String model) {
        String sessionId = Arguments.id(id, "session id");
        String config = Arguments.optionalText(modelConfigJson, "model_config");
        String sessionModel = Arguments.optionalLabel(model, "model");
        database.write("updating the metadata of session " + sessionId,
                transaction -> updates.meta(transaction, sessionId, config, sessionModel));
    }

    /** update_session_model: the model set unconditionally (after a mid-session switch). */
    public void updateSessionModel(String id, @Nullable String model) {
        String sessionId = Arguments.id(id, "session id");
        String sessionModel = Arguments.optionalLabel(model, "model");
        database.write("updating the model of session " + sessionId,
                transaction -> updates.model(transaction, sessionId, sessionModel));
    }

    /**
     * update_session_billing_route: billing provider and base URL set unconditionally, the billing mode
     * when given; the system prompt snapshot is cleared (it names the old model and provider).
     */
    public void updateSessionBillingRoute(String id, @Nullable String provider, @Nullable String baseUrl,
                                          @Nullable String billingMode) {
        String sessionId = Arguments.id(id, "session id");
        String billingProvider = Arguments.optionalLabel(provider, "billing provider");
        String billingBaseUrl = Arguments.optionalLabel(baseUrl, "billing base URL");
        String mode = Arguments.optionalLabel(billingMode, "billing mode");
        database.write("updating the billing route of session " + sessionId,
                transaction -> updates.billingRoute(transaction, sessionId, billingProvider, billingBaseUrl, mode));
    }

    /**
     * update_session_cwd (schema 17): the working directory, and the git branch and repository root
     * when not blank (a failed probe never erases an earlier value). An empty cwd changes nothing.
     */
    public void updateSessionCwd(String id, String cwd, @Nullable String gitBranch, @Nullable String gitRepoRoot) {
        String sessionId = Arguments.id(id, "session id");
        String directory = Arguments.text(cwd, "cwd");
        String branch = Arguments.optionalLabel(gitBranch, "git branch");
        String repoRoot = Arguments.optionalText(gitRepoRoot, "git repo root");
        if (directory.isEmpty()) {
            return;
        }
        database.write("updating the working directory of session " + sessionId, transaction -> {
            requireV17(transaction, "update_session_cwd");
            return updates.cwd(transaction, sessionId, directory, branch, repoRoot);
        });
    }

    /**
     * backfill_repo_roots (schema 17): for each cwd → repository root pair with both non-empty, the
     * sessions in that cwd without a root get it (a recorded root is kept). One transaction.
     */
    public void backfillRepoRoots(Map<String, String> cwdToRoot) {
        Map<String, String> pairs = new LinkedHashMap<>();
        Arguments.required(cwdToRoot, "cwd to root map").forEach((cwd, root) -> {
            if (cwd != null && !cwd.isEmpty() && root != null && !root.isEmpty()) {
                pairs.put(Arguments.text(cwd, "cwd"), Arguments.text(root, "git repo root"));
            }
        });
        if (pairs.isEmpty()) {
            return;
        }
        database.write("recording repository roots", transaction -> {
            requireV17(transaction, "backfill_repo_roots");
            return updates.backfillRepoRoots(transaction, pairs);
        });
    }

    /**
     * set_session_archived (schema 17): archives (or unarchives) the session and its whole compression
     * lineage, every ancestor and descendant through compression-ended parents, so a listing showing a
     * root projected onto its tip hides or shows the conversation as one. Messages are kept. True when
     * a row was there to update.
     */
    public boolean setSessionArchived(String id, boolean archived) {
        String sessionId = Arguments.id(id, "session id");
        return database.write((archived ? "archiving" : "unarchiving") + " session " + sessionId, transaction -> {
            requireV17(transaction, "set_session_archived");
            return updates.archive(transaction, sessionId, archived);
        });
    }

    /**
     * list_cron_job_runs: the sessions cron job {@code jobId} ran (ids {@code cron_<job>_<time>},
     * source {@code cron}), newest first, with preview and last activity, a page of them.
     */
    public List<RichSession> listCronJobRuns(String jobId, int limit, int offset) {
        String job = Arguments.text(jobId, "job id");
        int rows = Arguments.limit(limit);
        int skip = Arguments.offset(offset);
        return database.read("listing the runs of cron job " + job, transaction -> cronRuns.runs(transaction, job, rows, skip));
    }

    /** get_session: every column, or empty. */
    public Optional<Session> getSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("reading session " + sessionId, transaction -> sessions.get(transaction, sessionId));
    }

    /**
     * resolve_session_id: the exact id if it exists; else the id of the only session whose id starts
     * with the prefix (\ % _ taken literally); empty when none or several match.
     */
    public Optional<String> resolveSessionId(String idOrPrefix) {
        String prefix = Arguments.id(idOrPrefix, "session id or prefix");
        return database.read("resolving session id " + prefix, transaction -> sessions.resolveId(transaction, prefix));
    }

    /** session_count(): every session (today's agent, a store at 17, leaves archived ones out). */
    public long sessionCount() {
        return sessionCount((String) null);
    }

    /**
     * session_count(source); source null (or empty, as in Hermes) = all. Today's agent (a store at 17)
     * leaves archived sessions out.
     */
    public long sessionCount(@Nullable String source) {
        Arguments.optionalLabel(source, "source");
        return sessionCount(SessionCountQuery.of(source));
    }

    /**
     * session_count with today's agent's filters ({@link SessionCountQuery}): the count that goes with
     * the rich listing's pages under the same filters.
     */
    public long sessionCount(SessionCountQuery query) {
        Arguments.required(query, "query");
        Arguments.optionalLabel(query.source(), "source");
        query.excludeSources().forEach(excluded -> Arguments.label(excluded, "excluded source"));
        Arguments.optionalText(query.cwdPrefix(), "cwd prefix");
        return database.read("counting sessions", transaction -> counts.count(transaction, query));
    }

    /** message_count(session_id); sessionId null (or empty, as in Hermes) = all messages. */
    public long messageCount(@Nullable String sessionId) {
        String id = Arguments.optionalLabel(sessionId, "session id");
        return database.read("counting messages", transaction -> messages.count(transaction, id));
    }

    /**
     * search_sessions: all columns, children included; newest started_at first (version 6), most
     * recently active first (today's agent, see {@link #getSessionsByLastActive}).
     */
    public List<Session> searchSessions(SearchSessionsQuery query) {
        SearchSessionsQuery q = Arguments.required(query, "query");
        return database.read("listing sessions", transaction -> transaction.schema().v17()
                ? recent.byLastActive(transaction, q.source(), q.limit(), q.offset()).stream().map(ActiveSession::session).toList()
                : sessions.list(transaction, q.source(), q.limit(), q.offset()));
    }

    /**
     * search_sessions of today's agent: every session of {@code source} (null or empty = all),
     * children included, with its last activity (latest message, else start), most recently active
     * first (then started_at, then id, descending).
     */
    public List<ActiveSession> getSessionsByLastActive(SearchSessionsQuery query) {
        SearchSessionsQuery q = Arguments.required(query, "query");
        return database.read("listing sessions", transaction -> recent.byLastActive(transaction, q.source(), q.limit(), q.offset()));
    }

    /**
     * distinct_session_cwds: the working directories sessions ran in, each with its number of
     * sessions and latest activity, by directory; archived sessions only with {@code includeArchived}.
     */
    public List<SessionCwd> distinctSessionCwds(boolean includeArchived) {
        return database.read("listing working directories", transaction -> recent.cwds(transaction, includeArchived));
    }

    /**
     * Token use and cost of the sessions started after {@code query.since()}, summed in SQL per UTC day,
     * per day and source, per model, per source and in total ({@link UsageReport}); archived sessions
     * count. Works on every schema the store reads: a column the file lacks sums as 0.
     */
    public UsageReport getUsage(UsageQuery query) {
        Arguments.required(query, "query");
        return database.read("summing usage", transaction -> analytics.usage(transaction, query));
    }

    /** The figures of {@code hermes sessions stats} ({@link StoreStats}), counted in SQL. */
    public StoreStats getStats() {
        return database.read("counting the store's sessions", analytics::stats);
    }

    // ------------------------------------------------------------------ messages

    /**
     * append_message: in the same transaction message_count += 1 and tool_call_count += the number of
     * tool calls (list size, 1 for any other non-null value; under the rules of schema 6 none for a tool
     * result). The timestamp is the message's own, else now. Under the rules of schema 17 structured
     * content is stored behind the agent's marker, the JSON columns as Python's {@code json.dumps} writes
     * them, and the row is born live. Unknown session → ConstraintViolationException. Returns the new id.
     */
    public long appendMessage(String sessionId, NewMessage message) {
        String id = Arguments.id(sessionId, "session id");
        NewMessageRow row = newRow(message);
        double timestamp = now();
        MessageAppends.Sql sql = appends.sql(database.renderer(), database.schema());
        return database.append("appending a message to session " + id,
                transaction -> appends.append(transaction, sql, id, row, timestamp));
    }

    /**
     * Appends many messages in one transaction (all or nothing), with one timestamp for those without
     * their own (their order is kept by their ids); returns the ids in input order. Counters as for
     * {@link #appendMessage}.
     */
    public List<Long> appendMessages(String sessionId, List<NewMessage> messages) {
        String id = Arguments.id(sessionId, "session id");
        List<NewMessageRow> rows = Arguments.required(messages, "messages").stream().map(this::newRow).toList();
        if (rows.isEmpty()) {
            return List.of();
        }
        double timestamp = now();
        MessageAppends.Sql sql = appends.sql(database.renderer(), database.schema());
        return database.append("appending " + rows.size() + " messages to session " + id,
                transaction -> appends.appendAll(transaction, sql, id, rows, timestamp));
    }

    /** get_messages(session_id): see {@link #getMessages(String, boolean)}. */
    public List<Message> getMessages(String sessionId) {
        return getMessages(sessionId, false);
    }

    /**
     * get_messages(session_id, include_inactive): every column; empty for an unknown session. Schema 17
     * rules: live rows unless {@code includeInactive}, by id, content decoded; schema 6: every row by
     * (timestamp, id), the stored text.
     */
    public List<Message> getMessages(String sessionId, boolean includeInactive) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the messages of session " + id,
                transaction -> messages.of(transaction, id, includeInactive));
    }

    /** Keyset page of a session's messages in get_messages' order (live rows); cursor null = first page; limit ≥ 1. */
    public Page<Message> getMessagesPage(String sessionId, @Nullable String cursor, int limit) {
        return getMessagesPage(sessionId, cursor, limit, false);
    }

    /**
     * Keyset page of a session's messages in get_messages' order, with its rows: by id under the rules of
     * schema 17 (live rows unless {@code includeInactive}), by (timestamp, id) under schema 6's; cursor
     * null = first page; limit ≥ 1.
     */
    public Page<Message> getMessagesPage(String sessionId, @Nullable String cursor, int limit, boolean includeInactive) {
        String id = Arguments.id(sessionId, "session id");
        int rows = Arguments.pageSize(limit);
        Messages.PageStart start = Messages.PageStart.of(database.schema(), cursor);
        return database.read("reading the messages of session " + id,
                transaction -> messages.page(transaction, id, start, rows, includeInactive));
    }

    /** get_messages_as_conversation(session_id): the session's own live messages, see {@link #getMessagesAsConversation(String, ConversationOptions)}. */
    public List<ChatMessage> getMessagesAsConversation(String sessionId) {
        return getMessagesAsConversation(sessionId, ConversationOptions.DEFAULT);
    }

    /**
     * get_messages_as_conversation(session_id, include_ancestors, include_inactive): the OpenAI chat shape.
     * Schema 17 rules: by id, live rows unless asked, the parent chain from its root when asked (a user
     * turn replayed at a resume left out), content decoded, user and assistant text without the recalled
     * memory block and stripped, the background review's turns left out. Schema 6: the session's rows by
     * (timestamp, id), as stored (the options change nothing there).
     */
    public List<ChatMessage> getMessagesAsConversation(String sessionId, ConversationOptions options) {
        String id = Arguments.id(sessionId, "session id");
        ConversationOptions chosen = Arguments.required(options, "options");
        return database.read("reading the conversation of session " + id,
                transaction -> messages.conversation(transaction, id, chosen));
    }

    /**
     * clear_messages: deletes every message (live or not), zeroes message_count and tool_call_count
     * (tokens, costs and rewind_count untouched); the session's conversation window goes with them.
     */
    public void clearMessages(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        database.write("clearing the messages of session " + id, transaction -> {
            windows.forget(transaction, List.of(id));
            return messages.clear(transaction, id);
        });
    }

    /**
     * rewind_to_message: hides the user message {@code targetMessageId} and every later live row of the
     * session (kept on disk, inactive; message_count unchanged) and adds 1 to rewind_count, even when
     * nothing was left to hide. Returns how many rows it hid, the target as it was, and the new last live id.
     *
     * @throws InvalidArgumentException the target is not a message of the session or not a user message,
     *                                  or the store is not at schema 17; nothing is written
     */
    public RewindResult rewindToMessage(String sessionId, long targetMessageId) {
        String id = Arguments.id(sessionId, "session id");
        return database.write("rewinding session " + id, transaction -> edits.rewind(transaction, id, targetMessageId));
    }

    /** restore_rewound: every inactive row of the session from {@code sinceMessageId} on is live again; returns how many. */
    public int restoreRewound(String sessionId, long sinceMessageId) {
        String id = Arguments.id(sessionId, "session id");
        return database.write("restoring the rewound messages of session " + id,
                transaction -> edits.restore(transaction, id, sinceMessageId));
    }

    /**
     * list_recent_user_messages: the session's newest user messages first, at most {@code limit} (negative:
     * all), live ones unless {@code includeInactive}, each with its id, timestamp and one-line preview.
     */
    public List<RecentUserMessage> listRecentUserMessages(String sessionId, int limit, boolean includeInactive) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("listing the recent user messages of session " + id,
                transaction -> messages.recentUserMessages(transaction, id, limit, includeInactive));
    }

    /** has_archived_messages: the session has an inactive row (rewound, or archived by a compaction). */
    public boolean hasArchivedMessages(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("looking for archived messages of session " + id,
                transaction -> messages.hasInactive(transaction, id));
    }

    /** has_platform_message_id: a message of the session carries this platform message id. */
    public boolean hasPlatformMessageId(String sessionId, String platformMessageId) {
        String id = Arguments.id(sessionId, "session id");
        String platformId = Arguments.text(platformMessageId, "platform message id");
        return database.read("looking for a platform message id in session " + id,
                transaction -> messages.hasPlatformMessageId(transaction, id, platformId));
    }

    /**
     * replace_messages: in one transaction the session's messages (only its live ones when
     * {@code activeOnly}) are deleted and {@code replacement} written as its live transcript; message_count
     * and tool_call_count count the new rows. As in the agent, the reasoning fields are kept on assistant
     * messages only, and a message without a timestamp gets the write's time, each a microsecond after the
     * last. The session's conversation window is forgotten with the transcript.
     *
     * @throws dev.hermes.state.ConstraintViolationException messages for an unknown session; nothing is written
     */
    public void replaceMessages(String sessionId, List<NewMessage> replacement, boolean activeOnly) {
        String id = Arguments.id(sessionId, "session id");
        List<NewMessageRow> rows = transcriptRows(replacement);
        double now = now();
        MessageAppends.Sql sql = appends.sql(database.renderer(), database.schema());
        database.write("replacing the messages of session " + id, transaction -> {
            windows.forget(transaction, List.of(id));
            return edits.replace(transaction, appends, sql, id, rows, activeOnly, now);
        });
    }

    /**
     * archive_and_compact: in one transaction every live message of the session is archived (inactive and
     * compacted: out of the transcript, still found by search) and {@code compacted} written as its live
     * transcript (rows as in {@link #replaceMessages}); message_count and tool_call_count count them.
     * Returns the number of live messages now.
     *
     * @throws dev.hermes.state.ConstraintViolationException messages for an unknown session; nothing is written
     */
    public int archiveAndCompact(String sessionId, List<NewMessage> compacted) {
        String id = Arguments.id(sessionId, "session id");
        List<NewMessageRow> rows = transcriptRows(compacted);
        double now = now();
        MessageAppends.Sql sql = appends.sql(database.renderer(), database.schema());
        return database.write("compacting session " + id,
                transaction -> edits.archiveAndCompact(transaction, appends, sql, id, rows, now));
    }

    /** get_messages_around with the agent's window of 5: see {@link #getMessagesAround(String, long, int)}. */
    public MessagesAround getMessagesAround(String sessionId, long aroundMessageId) {
        return getMessagesAround(sessionId, aroundMessageId, 5);
    }

    /**
     * get_messages_around: up to {@code window} messages (negative: 0) before the message
     * {@code aroundMessageId}, it, and up to {@code window} after, by id, live or not, with how many came
     * before and after it; empty when it is not a message of the session.
     */
    public MessagesAround getMessagesAround(String sessionId, long aroundMessageId, int window) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the messages of session " + id,
                transaction -> around.around(transaction, id, aroundMessageId, window));
    }

    /** get_anchored_view with the agent's defaults: window 5, bookend 3, user and assistant messages. */
    public AnchoredView getAnchoredView(String sessionId, long aroundMessageId) {
        return getAnchoredView(sessionId, aroundMessageId, 5, 3, List.of("user", "assistant"));
    }

    /**
     * get_anchored_view: the window of {@link #getMessagesAround} with only the messages of {@code keepRoles}
     * (null: every role) but always the anchor, plus the session's first and last {@code bookend} messages
     * of those roles with content, outside the window.
     */
    public AnchoredView getAnchoredView(String sessionId, long aroundMessageId, int window, int bookend,
                                        @Nullable Collection<String> keepRoles) {
        String id = Arguments.id(sessionId, "session id");
        List<String> roles = keepRoles == null ? null : keepRoles.stream()
                .map(role -> Arguments.text(role, "role")).toList();
        return database.read("reading the messages of session " + id,
                transaction -> around.anchored(transaction, id, aroundMessageId, window, bookend, roles));
    }

    /** A message's row as the store's rules write it (checked before any write). */
    private NewMessageRow newRow(@Nullable NewMessage message) {
        return NewMessageRow.of(message, database.schema(), backend.storesNulInText());
    }

    /** The rows of a rewritten transcript: the agent keeps the reasoning fields on assistant messages only. */
    private List<NewMessageRow> transcriptRows(@Nullable List<NewMessage> transcript) {
        return Arguments.required(transcript, "messages").stream()
                .map(message -> newRow(MessageEdits.forTranscript(Arguments.required(message, "message"))))
                .toList();
    }

    // ------------------------------------------------------------------ conversation windows

    /**
     * The conversation's window (what a chat memory returns): exactly the messages the last
     * {@link #saveConversationWindow} gave, in its order, after a restart too. The window lives in the
     * conversation's compression tip ({@link #getCompressionTip}); a tip never saved through a window (a
     * session the Python agent wrote) has all its messages, ordered as {@link #getMessages}, as its
     * window; an unknown conversation has none. Messages left out of the window stay in their session
     * (search, export, the Python agent), and one deleted meanwhile is skipped.
     */
    public List<Message> loadConversationWindow(String conversationId) {
        String id = Arguments.id(conversationId, "conversation id");
        return database.read("reading the window of conversation " + id, transaction -> windows.load(transaction, id));
    }

    /**
     * Makes {@code window} the conversation's window, in one write transaction; nothing is ever
     * deleted. The first save creates the session {@code conversationId} with {@code source}. An entry
     * with the {@link WindowEntry#storedId() id} of a message of the conversation keeps that row; every
     * other entry is appended (timestamp now, counters and search index as {@link #appendMessage}).
     * When the window is the stored history trimmed and extended (kept rows in their order and as
     * stored, new messages after them; a system message may sit anywhere), the new entries are appended
     * to the conversation's tip. Otherwise (history edited, reordered, or a message inserted into the
     * past) the tip ends with end_reason {@code compression} and a child session that starts now holds
     * the whole window, as the Python agent continues a compressed conversation; the conversation id
     * still names the conversation. An empty window is a window: the next load returns no message.
     *
     * @throws dev.hermes.state.StateIOException the store lacks the window tables (a file opened
     *                                           without migrating it); nothing is written
     */
    public SavedWindow saveConversationWindow(String conversationId, String source, List<WindowEntry> window) {
        String id = Arguments.id(conversationId, "conversation id");
        String sessionSource = Arguments.label(source, "source");
        List<Windows.Entry> entries = Arguments.required(window, "window").stream()
                .map(entry -> new Windows.Entry(newRow(Arguments.required(entry, "window entry").message()),
                        entry.storedId()))
                .toList();
        double now = now();
        MessageAppends.Sql sql = appends.sql(database.renderer(), database.schema());
        return database.write("saving the window of conversation " + id,
                transaction -> windows.save(transaction, sql, id, sessionSource, entries, now));
    }

    /**
     * Deletes a conversation: the session {@code conversationId} and every compression child that
     * continues it up to its tip, with all their messages (and search index rows) and windows, in one
     * transaction; other children of those sessions (delegates, branches) become roots, as
     * {@link #deleteSession} does. False when there is no such session.
     */
    public boolean deleteConversation(String conversationId) {
        String id = Arguments.id(conversationId, "conversation id");
        return database.write("deleting conversation " + id, transaction -> retention.deleteConversation(transaction, id));
    }

    // ------------------------------------------------------------------ titles

    /**
     * set_session_title: the title is sanitized ({@link Titles#sanitize}); null/blank clears it. A
     * title another session has → InvalidArgumentException "Title 'T' is already in use by session
     * ID". The check and the update are one write transaction; the unique index is the last defence
     * (a race past it is a ConstraintViolationException). False for an unknown id.
     */
    public boolean setSessionTitle(String id, @Nullable String title) {
        String sessionId = Arguments.id(id, "session id");
        String sanitized = Titles.sanitize(title).orElse(null);
        return database.write("setting the title of session " + sessionId,
                transaction -> titles.set(transaction, sessionId, sanitized));
    }

    /** get_session_title: empty for an unknown session or one without a title. */
    public Optional<String> getSessionTitle(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("reading the title of session " + sessionId,
                transaction -> titles.get(transaction, sessionId));
    }

    /** get_session_by_title: exact match, input not sanitized. */
    public Optional<Session> getSessionByTitle(String title) {
        String exact = Arguments.text(title, "title");
        return database.read("finding the session titled " + exact,
                transaction -> titles.sessionTitled(transaction, exact));
    }

    /**
     * resolve_session_by_title: the most recently started session titled {@code "title #<anything>"}
     * (wildcards in the title taken literally), else the session titled exactly {@code title}, else empty.
     */
    public Optional<String> resolveSessionByTitle(String title) {
        String base = Arguments.text(title, "title");
        return database.read("resolving the title " + base, transaction -> titles.resolve(transaction, base));
    }

    /**
     * get_next_title_in_lineage: base = the title without a trailing " #&lt;digits&gt;"; the base itself
     * when no session is titled base or "base #…", else "base #(max+1)" (an unnumbered base counts as 1).
     */
    public String getNextTitleInLineage(String baseTitle) {
        String base = SessionTitles.base(Arguments.text(baseTitle, "base title"));
        return database.read("numbering the title " + base, transaction -> titles.nextInLineage(transaction, base));
    }

    // ------------------------------------------------------------------ lineage

    /**
     * get_compression_tip: any depth, cycle-safe; unknown ids return themselves. Today's agent follows
     * only real continuations (no /branch, subagent or tool children) and prefers, among several, the
     * compressed, then the open, then the most recently active one.
     */
    public String getCompressionTip(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("finding the compression tip of session " + id,
                transaction -> lineage.compressionTip(transaction, id));
    }

    /**
     * resolve_resume_session_id: the session whose messages a resume of {@code sessionId} should load:
     * its compression tip, or further down the latest continuation the last session that has messages;
     * the tip when none has (an unknown id returns itself).
     */
    public String resolveResumeSessionId(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("resolving the resume target of session " + id,
                transaction -> lineage.resumeTarget(transaction, id));
    }

    /** The session (depth 0), its parent (1), ... up to its root. Empty for an unknown id. */
    public List<LineageNode> getAncestors(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the ancestors of session " + id,
                transaction -> lineage.ancestors(transaction, id));
    }

    /** The whole tree under a root (root depth 0), each child after its parent, siblings by started_at. */
    public List<LineageNode> getLineageTree(String rootId) {
        String id = Arguments.id(rootId, "root session id");
        return database.read("reading the lineage tree of session " + id,
                transaction -> lineage.tree(transaction, id));
    }

    // ------------------------------------------------------------------ listing and search

    /**
     * list_sessions_rich (offset paging, Hermes-compatible): sessions newest first (or by their chain's
     * last activity) with preview and last_active, children hidden unless asked for (today's agent lists
     * /branch children and never subagent runs, and hides archived sessions), compression roots
     * projected onto their tips; the filters of {@link ListSessionsQuery}.
     */
    public List<RichSession> listSessionsRich(ListSessionsQuery query) {
        Arguments.required(query, "query");
        int limit = Arguments.limit(query.limit());
        int offset = Arguments.offset(query.offset());
        checkFilters(query);
        return database.read("listing sessions", transaction -> listing.page(transaction, query, limit, offset));
    }

    /**
     * The rich listing with keyset paging: cursor null = first page; the query's offset is ignored;
     * limit ≥ 1. A cursor belongs to its order: one of a listing by last activity continues only such a
     * listing.
     */
    public Page<RichSession> listSessionsRichPage(ListSessionsQuery query, @Nullable String cursor) {
        Arguments.required(query, "query");
        int limit = Arguments.pageSize(query.limit());
        checkFilters(query);
        if (query.orderByLastActive()) {
            Cursors.activityPosition(cursor); // a malformed cursor fails here, before the read
        } else {
            Cursors.sessionsPosition(cursor);
        }
        return database.read("listing sessions", transaction -> listing.keysetPage(transaction, query, cursor, limit));
    }

    /**
     * search_sessions_by_id: the listed conversations (by last activity) with a session id containing
     * {@code query} anywhere in their compression chain, exact ids first, then prefixes, then the rest;
     * nothing for a blank query or a limit of 0.
     */
    public List<RichSession> searchSessionsById(String query, int limit, boolean includeArchived) {
        String needle = Arguments.text(query, "query");
        int rows = Arguments.limit(limit);
        return database.read("searching session ids", transaction -> listing.byId(transaction, needle, rows, includeArchived));
    }

    private static void checkFilters(ListSessionsQuery query) {
        Arguments.optionalLabel(query.source(), "source");
        for (String excluded : query.excludeSources()) {
            Arguments.label(excluded, "excluded source");
        }
        Arguments.optionalText(query.cwdPrefix(), "cwd prefix");
        Arguments.optionalText(query.idQuery(), "id query");
        Arguments.optionalText(query.searchQuery(), "search query");
    }

    /**
     * search_messages: full-text match of the sanitized query ranked by relevance (or by time, see
     * {@link SearchQuery.Order}), with snippet and context, filters and paging as in {@link SearchQuery};
     * for CJK text, version 6's LIKE fallback, or today's routing (the trigram index for words of 3 or
     * more CJK characters, a substring search of content, tool name and tool calls otherwise). Today's
     * agent also finds tool names and tool-call arguments and leaves rewound messages out. Works on a
     * read-only store too. Never throws for any query text (only for a failing database).
     */
    public List<SearchHit> searchMessages(SearchQuery query) {
        Arguments.required(query, "query");
        // asked for here, not at opening: the search's query parts load much of jOOQ
        return database.read("searching messages", transaction -> backend.messageSearch().search(transaction, query));
    }

    // ------------------------------------------------------------------ export, delete, prune

    /** export_session: every column plus the messages (as get_messages), or empty. */
    public Optional<SessionExport> exportSession(String id) {
        String sessionId = Arguments.id(id, "session id");
        return database.read("exporting session " + sessionId, transaction -> retention.export(transaction, sessionId));
    }

    /**
     * export_all, streaming: every session (newest first; source null = all) with its messages is
     * handed to {@code sink} as it is read, from one consistent snapshot, in constant memory (one
     * session at a time). Returns the number of sessions exported. An exception thrown by the sink
     * stops the export and reaches the caller unchanged.
     */
    public long exportAll(@Nullable String source, Consumer<SessionExport> sink) {
        String sessionSource = Arguments.optionalLabel(source, "source");
        Arguments.required(sink, "sink");
        return database.readStreaming("exporting sessions",
                transaction -> retention.exportAll(transaction, sessionSource, sink));
    }

    /**
     * delete_session: in one transaction its children become roots (grandchildren keep their parent),
     * its messages (and their search index rows), its conversation window and the session are
     * deleted; false if unknown. At schema 17's rules its delegate descendants (rows whose
     * {@code model_config} carries {@code _delegate_from}) are deleted with it, their messages too,
     * instead of becoming roots.
     */
    public boolean deleteSession(String id) {
        return deleteSession(id, null);
    }

    /**
     * delete_session with {@code sessions_dir}: as {@link #deleteSession(String)}; then the transcript
     * files of every session deleted ({@code <id>.json}, {@code <id>.jsonl},
     * {@code request_dump_<id>_*.json}) are removed from {@code sessionsDir} (best effort).
     */
    public boolean deleteSession(String id, @Nullable Path sessionsDir) {
        String sessionId = Arguments.id(id, "session id");
        List<String> removed = database.write("deleting session " + sessionId,
                transaction -> deletes.delete(transaction, sessionId));
        SessionFiles.remove(sessionsDir, removed);
        return !removed.isEmpty();
    }

    /**
     * delete_sessions: every existing session of {@code ids} (null and empty ids skipped, duplicates
     * once) as {@link #deleteSession(String, Path)} deletes one, all in one transaction; returns how
     * many of them existed.
     */
    public int deleteSessions(Collection<String> ids, @Nullable Path sessionsDir) {
        List<String> wanted = new ArrayList<>();
        for (String id : Arguments.required(ids, "session ids")) {
            if (id != null && !id.isEmpty()) {
                wanted.add(Arguments.id(id, "session id"));
            }
        }
        if (wanted.isEmpty()) {
            return 0;
        }
        Set<String> distinct = new LinkedHashSet<>(wanted);
        List<String> removed = database.write("deleting " + distinct.size() + " sessions",
                transaction -> deletes.deleteAll(transaction, distinct));
        SessionFiles.remove(sessionsDir, removed);
        return (int) removed.stream().filter(distinct::contains).count();
    }

    /**
     * delete_session_if_empty: deletes the session only when it has no message, no title and no child
     * (checked by the delete itself, so a message written meanwhile keeps it); its files too. True when
     * deleted.
     */
    public boolean deleteSessionIfEmpty(String id, @Nullable Path sessionsDir) {
        String sessionId = Arguments.id(id, "session id");
        List<String> removed = database.write("deleting session " + sessionId + " if it is empty",
                transaction -> deletes.deleteIfEmpty(transaction, sessionId));
        SessionFiles.remove(sessionsDir, removed);
        return !removed.isEmpty();
    }

    /** count_empty_sessions (schema 17): ended, unarchived sessions whose message_count is 0. */
    public long countEmptySessions() {
        return database.read("counting empty sessions", transaction -> {
            requireV17(transaction, "count_empty_sessions");
            return deletes.countEmpty(transaction);
        });
    }

    /**
     * delete_empty_sessions (schema 17): deletes the sessions {@link #countEmptySessions} counts (their
     * children become roots), and their files; returns how many.
     */
    public int deleteEmptySessions(@Nullable Path sessionsDir) {
        List<String> removed = database.write("deleting empty sessions", transaction -> {
            requireV17(transaction, "delete_empty_sessions");
            return deletes.deleteEmpty(transaction);
        });
        SessionFiles.remove(sessionsDir, removed);
        return removed.size();
    }

    /**
     * prune_empty_ghost_sessions: deletes the TUI's ghosts, sessions of source {@code tui} with no title
     * and no message, ended, started more than 24 hours ago, and their files; returns how many. (A
     * ghost with a child fails the delete on its parent reference, as for the agent.)
     */
    public int pruneEmptyGhostSessions(@Nullable Path sessionsDir) {
        double now = now();
        List<String> removed = database.write("pruning empty TUI sessions", transaction -> deletes.pruneGhosts(transaction, now));
        SessionFiles.remove(sessionsDir, removed);
        return removed.size();
    }

    /**
     * finalize_orphaned_compression_sessions (schema 17): ends (reason {@code orphaned_compression})
     * the compression continuations that were never finished, started over 7 days ago, with messages,
     * no API call, not ended, under a parent ended by compression; their messages stay. Returns how many.
     */
    public int finalizeOrphanedCompressionSessions() {
        double now = now();
        return database.write("ending orphaned compression sessions", transaction -> {
            requireV17(transaction, "finalize_orphaned_compression_sessions");
            return updates.finalizeOrphanedCompressions(transaction, now);
        });
    }

    /**
     * The sessions {@link #pruneSessions(Duration, String)} would delete (ended, started more than
     * {@code olderThan} ago, optionally of one source), newest first.
     */
    public List<Session> listPruneCandidates(Duration olderThan, @Nullable String source) {
        Condition prunable = Retention.prunable(olderThan, source, clock);
        return database.read("listing sessions to prune",
                transaction -> retention.pruneCandidates(transaction, prunable));
    }

    /**
     * prune_sessions: deletes every ended session started more than {@code olderThan} ago (not
     * negative; optionally of one source) as {@link #deleteSession} does, in one transaction, with
     * set-based statements (no bound parameter per session, so any number of sessions can go). Live
     * sessions are never pruned. Returns the ids deleted (the agent returns their number,
     * {@link PrunedSessions#count()}); afterwards the write-ahead log is checkpointed and truncated so a
     * large prune does not leave a large log. The agent's {@code older_than_days} is
     * {@code Duration.ofDays(days)}; the RPC converts a fractional one without changing the cut-off.
     */
    public PrunedSessions pruneSessions(Duration olderThan, @Nullable String source) {
        return pruneSessions(olderThan, source, null);
    }

    /**
     * prune_sessions with {@code sessions_dir}: as {@link #pruneSessions(Duration, String)}; then the
     * transcript files of every session pruned are removed from {@code sessionsDir} (best effort).
     */
    public PrunedSessions pruneSessions(Duration olderThan, @Nullable String source, @Nullable Path sessionsDir) {
        Condition prunable = Retention.prunable(olderThan, source, clock);
        List<String> deleted = database.write("pruning sessions", transaction -> retention.prune(transaction, prunable));
        if (!deleted.isEmpty()) {
            database.shrinkLog();
        }
        SessionFiles.remove(sessionsDir, deleted);
        return new PrunedSessions(deleted);
    }

    // ------------------------------------------------------------------ operator's selections (issue 24)

    /**
     * The sessions {@code selection} admits, every stored row (children too, none projected onto a
     * tip), newest start first. The listing with the same filters is {@link #listSessionsRich} with
     * {@link ListSessionsQuery.Builder#selection}.
     */
    public List<Session> selectSessions(SessionSelection selection) {
        Arguments.required(selection, "selection");
        return database.read("selecting sessions", transaction ->
                selected.select(transaction, selectionCondition(transaction, selection)));
    }

    /**
     * Prunes by selection: deletes the ended sessions {@code selection} admits, a compression lineage as
     * one unit (all its sessions go, or none: one that is live or not selected keeps the others), with
     * their messages, search index rows and windows; their other children become roots. With no filter
     * the selection is the agent's default, last activity over {@link SessionSelection#DEFAULT_PRUNE_AGE}
     * ago; any filter replaces that default. {@code dryRun} changes nothing and answers the same. The
     * answer lists the sessions as they were before the prune.
     */
    public SelectionOutcome pruneSessions(SessionSelection selection, boolean dryRun) {
        SessionSelection effective = Arguments.required(selection, "selection").orDefaultAge(SessionSelection.DEFAULT_PRUNE_AGE);
        Database.Work<SelectionOutcome> plan = transaction -> {
            List<Session> doomed = selected.prunable(transaction, selectionCondition(transaction, effective));
            return new SelectionOutcome(dryRun, doomed, selected.messageRows(transaction, SelectedSessions.ids(doomed)));
        };
        if (dryRun) {
            return database.read("planning a prune", plan);
        }
        SelectionOutcome outcome = database.write("pruning selected sessions", transaction -> {
            SelectionOutcome planned = plan.run(transaction);
            deletes.removeOrphaning(transaction, planned.ids());
            return planned;
        });
        if (!outcome.sessions().isEmpty()) {
            database.shrinkLog();
        }
        return outcome;
    }

    /**
     * Archives by selection (schema 17): the compression lineages every session of which
     * {@code selection} admits (live ones too, as the agent archives any session) and one of which at
     * least is not archived yet are archived whole, as {@link #setSessionArchived} archives one
     * lineage; messages are kept. {@code selection.includeArchived()} does not matter here.
     * {@code dryRun} changes nothing and answers the same.
     */
    public SelectionOutcome archiveSessions(SessionSelection selection, boolean dryRun) {
        SessionSelection effective = Arguments.required(selection, "selection").toBuilder().includeArchived(true).build();
        Database.Work<SelectionOutcome> plan = transaction -> {
            requireV17(transaction, "archiving by selection");
            List<Session> chosen = selected.archivable(transaction, selectionCondition(transaction, effective));
            return new SelectionOutcome(dryRun, chosen, selected.messageRows(transaction, SelectedSessions.ids(chosen)));
        };
        if (dryRun) {
            return database.read("planning an archive", plan);
        }
        return database.write("archiving selected sessions", transaction -> {
            SelectionOutcome planned = plan.run(transaction);
            selected.archive(transaction, planned.ids());
            return planned;
        });
    }

    /**
     * export_all by selection, streaming: each session {@code selection} admits (newest start first)
     * with its messages is handed to {@code sink} from one snapshot, one at a time; returns how many.
     * An exception thrown by the sink stops the export and reaches the caller unchanged.
     */
    public long exportSessions(SessionSelection selection, Consumer<SessionExport> sink) {
        Arguments.required(selection, "selection");
        Arguments.required(sink, "sink");
        return database.readStreaming("exporting selected sessions",
                transaction -> selected.export(transaction, selectionCondition(transaction, selection), sink));
    }

    private Condition selectionCondition(Transaction transaction, SessionSelection selection) {
        return SessionSelections.condition(backend, transaction.schema(), selection, clock);
    }

    /**
     * maybe_auto_prune_and_vacuum (schema 17): unless a run (of any process) was recorded in
     * {@code state_meta.last_auto_prune} less than {@code minInterval} ago (a negative interval never
     * skips), prunes the ended sessions older than {@code retention} (their files from
     * {@code sessionsDir}), VACUUMs when asked and something was pruned, and records the run. Never
     * throws for a failing step: the report carries its message. The agent's defaults are 90 days
     * and 24 hours.
     */
    public AutoMaintenanceReport maybeAutoPruneAndVacuum(Duration retention, Duration minInterval, boolean vacuum,
                                                         @Nullable Path sessionsDir) {
        Duration age = Arguments.age(retention, "retention");
        Duration interval = Arguments.required(minInterval, "minimum interval");
        return AutoMaintenance.run(new AutoMaintenance.Steps() {
            @Override
            public Optional<String> lastRun() {
                return getMeta(AutoMaintenance.LAST_RUN_KEY);
            }

            @Override
            public int prune(Duration olderThan) {
                return pruneSessions(olderThan, null, sessionsDir).count();
            }

            @Override
            public void vacuum() {
                StateRepository.this.vacuum();
            }

            @Override
            public void recordRun(String value) {
                setMeta(AutoMaintenance.LAST_RUN_KEY, value);
            }
        }, now(), age, interval, vacuum);
    }

    // ------------------------------------------------------------------ coordination (schema 17)

    /** get_meta: the value of a {@code state_meta} key; empty when missing or NULL. */
    public Optional<String> getMeta(String key) {
        String name = Arguments.text(key, "meta key");
        return database.read("reading meta key " + name, transaction -> {
            requireTable(transaction, STATE_META, "get_meta");
            return meta.get(transaction, name);
        });
    }

    /** set_meta: inserts or replaces a {@code state_meta} value (null stores NULL). */
    public void setMeta(String key, @Nullable String value) {
        String name = Arguments.text(key, "meta key");
        String text = Arguments.optionalText(value, "meta value");
        database.write("writing meta key " + name, transaction -> {
            requireTable(transaction, STATE_META, "set_meta");
            meta.set(transaction, name, text);
            return name;
        });
    }

    /**
     * try_acquire_compression_lock: takes the session's compression lease for {@code holder} for
     * {@code ttl} from now (the store's clock), after reclaiming an expired one; true when the holder
     * holds it afterwards (also when it already did), false when another holder's lease is running.
     * Of several takers, in any processes, exactly one succeeds. The caller must not compress without it.
     */
    public boolean tryAcquireCompressionLock(String sessionId, String holder, Duration ttl) {
        String id = Arguments.id(sessionId, "session id");
        String owner = holder(holder);
        double ttlSeconds = seconds(ttl);
        double now = now();
        return database.write("taking the compression lock of session " + id, transaction -> {
            requireTable(transaction, COMPRESSION_LOCKS, "try_acquire_compression_lock");
            return locks.tryAcquire(transaction, id, owner, now, ttlSeconds);
        });
    }

    /** refresh_compression_lock: extends the lease to now + {@code ttl} when {@code holder} holds an unexpired one. */
    public boolean refreshCompressionLock(String sessionId, String holder, Duration ttl) {
        String id = Arguments.id(sessionId, "session id");
        String owner = holder(holder);
        double ttlSeconds = seconds(ttl);
        if (owner.isEmpty()) {
            return false;
        }
        double now = now();
        return database.write("refreshing the compression lock of session " + id, transaction -> {
            requireTable(transaction, COMPRESSION_LOCKS, "refresh_compression_lock");
            return locks.refresh(transaction, id, owner, now, ttlSeconds);
        });
    }

    /** release_compression_lock: gives the lock up if {@code holder} holds it; a no-op otherwise. */
    public void releaseCompressionLock(String sessionId, String holder) {
        String id = Arguments.id(sessionId, "session id");
        String owner = holder(holder);
        database.write("releasing the compression lock of session " + id, transaction -> {
            requireTable(transaction, COMPRESSION_LOCKS, "release_compression_lock");
            return locks.release(transaction, id, owner);
        });
    }

    /** get_compression_lock_holder: who holds an unexpired compression lock on the session. */
    public Optional<String> getCompressionLockHolder(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        double now = now();
        return database.read("reading the compression lock of session " + id, transaction -> {
            requireTable(transaction, COMPRESSION_LOCKS, "get_compression_lock_holder");
            return locks.holder(transaction, id, now);
        });
    }

    /** record_compression_failure_cooldown: no compression of the session before {@code until} (replaces an earlier one). */
    public void recordCompressionFailureCooldown(String sessionId, Instant until, @Nullable String error) {
        String id = Arguments.id(sessionId, "session id");
        double untilSeconds = Timestamps.epochSeconds(Arguments.required(until, "cooldown end"));
        String reason = Arguments.optionalText(error, "error");
        database.write("recording the compression cooldown of session " + id, transaction -> {
            requireV17(transaction, "record_compression_failure_cooldown");
            return cooldowns.record(transaction, id, untilSeconds, reason);
        });
    }

    /** get_compression_failure_cooldown: the session's cooldown while it lasts (ends after now); empty otherwise. */
    public Optional<CompressionCooldown> getCompressionFailureCooldown(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        double now = now();
        return database.read("reading the compression cooldown of session " + id, transaction -> {
            requireV17(transaction, "get_compression_failure_cooldown");
            return cooldowns.active(transaction, id, now);
        });
    }

    /** clear_compression_failure_cooldown. */
    public void clearCompressionFailureCooldown(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        database.write("clearing the compression cooldown of session " + id, transaction -> {
            requireV17(transaction, "clear_compression_failure_cooldown");
            return cooldowns.clear(transaction, id);
        });
    }

    /**
     * record_gateway_session_peer: sets the session's routing peer (session key, source, user, chat,
     * chat type, thread; nulls included). Nothing is written without a session key.
     */
    public void recordGatewaySessionPeer(String sessionId, GatewayPeer peer) {
        String id = Arguments.id(sessionId, "session id");
        GatewayPeer checked = checkPeer(peer);
        if (checked.sessionKey() == null || checked.sessionKey().isEmpty()) {
            return;
        }
        database.write("recording the gateway peer of session " + id, transaction -> {
            requireV17(transaction, "record_gateway_session_peer");
            return peers.record(transaction, id, checked);
        });
    }

    /**
     * find_latest_gateway_session_for_peer: the most recently started recoverable session (not ended,
     * or ended by {@code agent_close}; with messages) of the peer's platform and session key; else, when
     * the peer names chat and chat type, of the whole peer. Empty without a session key.
     */
    public Optional<Session> findLatestGatewaySessionForPeer(GatewayPeer peer) {
        GatewayPeer checked = checkPeer(peer);
        return database.read("finding the gateway session of a peer", transaction -> {
            requireV17(transaction, "find_latest_gateway_session_for_peer");
            return peers.latest(transaction, checked);
        });
    }

    private static GatewayPeer checkPeer(@Nullable GatewayPeer peer) {
        GatewayPeer given = Arguments.required(peer, "peer");
        return new GatewayPeer(Arguments.text(given.source(), "source"), Arguments.optionalLabel(given.userId(), "user id"),
                Arguments.optionalLabel(given.sessionKey(), "session key"), Arguments.optionalLabel(given.chatId(), "chat id"),
                Arguments.optionalLabel(given.chatType(), "chat type"), Arguments.optionalLabel(given.threadId(), "thread id"));
    }

    /** request_handoff: marks the session pending handoff to {@code platform}; false when one is in flight or the id is unknown. */
    public boolean requestHandoff(String sessionId, @Nullable String platform) {
        String id = Arguments.id(sessionId, "session id");
        String target = Arguments.optionalLabel(platform, "platform");
        return database.write("requesting the handoff of session " + id, transaction -> {
            requireV17(transaction, "request_handoff");
            return handoffs.request(transaction, id, target);
        });
    }

    /** get_handoff_state: empty for an unknown session (all null for one without a handoff). */
    public Optional<HandoffState> getHandoffState(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.read("reading the handoff of session " + id, transaction -> {
            requireV17(transaction, "get_handoff_state");
            return handoffs.state(transaction, id);
        });
    }

    /** list_pending_handoffs: the sessions whose handoff waits for a gateway, oldest first. */
    public List<Session> listPendingHandoffs() {
        return database.read("listing pending handoffs", transaction -> {
            requireV17(transaction, "list_pending_handoffs");
            return handoffs.pending(transaction);
        });
    }

    /** claim_handoff: pending → running; true for the one claimer (of any process) that made the change. */
    public boolean claimHandoff(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        return database.write("claiming the handoff of session " + id, transaction -> {
            requireV17(transaction, "claim_handoff");
            return handoffs.claim(transaction, id);
        });
    }

    /** complete_handoff: the handoff completed, its error cleared. */
    public void completeHandoff(String sessionId) {
        String id = Arguments.id(sessionId, "session id");
        database.write("completing the handoff of session " + id, transaction -> {
            requireV17(transaction, "complete_handoff");
            return handoffs.complete(transaction, id);
        });
    }

    /** fail_handoff: the handoff failed with {@code error} (its first 500 characters kept). */
    public void failHandoff(String sessionId, String error) {
        String id = Arguments.id(sessionId, "session id");
        String reason = Arguments.text(error, "error");
        database.write("failing the handoff of session " + id, transaction -> {
            requireV17(transaction, "fail_handoff");
            return handoffs.fail(transaction, id, reason);
        });
    }

    /** Telegram DM topic mode: its tables (made on opt-in) and the bindings of topics to sessions. */
    public TelegramTopicMode telegramTopics() {
        return telegramTopics;
    }

    /** Refuses an operation of schema 17 on a store kept at 6 (its file lacks the columns). */
    static void requireV17(Transaction transaction, String operation) {
        if (!transaction.schema().v17()) {
            throw new StateIOException(operation + " needs a store at schema version 17; this one is kept at "
                    + transaction.schema().version() + " (nothing was done)");
        }
    }

    /** Refuses an operation on a table the store's file lacks (a store kept at 6, an old file read as it is). */
    private static void requireTable(Transaction transaction, Table<?> table, String operation) {
        if (!transaction.schema().hasTable(table)) {
            throw new StateIOException(operation + " needs the table " + table.getName() + ", which this store (schema version "
                    + transaction.schema().version() + ") lacks; nothing was done");
        }
    }

    /** A lock holder: any text (the agent takes even an empty one), not over-long. */
    private static String holder(@Nullable String holder) {
        String owner = Arguments.required(holder, "holder");
        Arguments.optionalLabel(owner, "holder");
        return owner;
    }

    private static double seconds(@Nullable Duration ttl) {
        Duration lease = Arguments.required(ttl, "ttl");
        return lease.getSeconds() + lease.getNano() / 1e9;
    }

    // ------------------------------------------------------------------ copying a store

    /**
     * Copies every session and message of this store into {@code target} (another store, on the same
     * engine or not: a SQLite file, a PostgreSQL schema), keeping session and message ids, and verifies
     * the result. In one snapshot of this store: every row is checked first (text the target cannot
     * hold unchanged, such as invalid UTF-8 or, for PostgreSQL, U+0000, is an
     * {@link dev.hermes.state.core.model.UnstorableValueException} naming the session, message and
     * column, before anything is written); then sessions are written in batches, each one write
     * transaction of the target with whole sessions and all their messages (constant memory); the
     * target's message-id generator ends past the largest id this store ever handed out; finally both
     * sides are read again and compared session by session.
     *
     * <p>An empty target is required unless {@link CopyOptions#append()} (see there for what append does
     * when ids collide). A copy interrupted at any moment (even a killed process) leaves the target
     * with whole sessions only; the same copy with append resumes it. {@code listener} (may be null)
     * hears the progress on the copying thread; an exception it throws stops the copy.
     *
     * @return what was copied, and the verification's counts and checksums of both sides
     */
    public CopyReport copyTo(StateRepository target, CopyOptions options, @Nullable Consumer<CopyProgress> listener) {
        Arguments.required(target, "target");
        Arguments.required(options, "options");
        return StoreCopy.run(database, target.database, options, listener == null ? progress -> { } : listener);
    }

    /**
     * Backs this store up to the SQLite file {@code target} while others keep writing it: a full
     * backup copies one read snapshot (SQLite's online backup) into a new owner-only file beside the
     * target, verifies it against that snapshot (integrity check, rows per table, logical checksum) and
     * renames it into place; an incremental one brings an earlier backup of this store up to date in one
     * transaction (new and changed sessions, new and changed messages, deletions mirrored), verified
     * the same way before its commit. A manifest ({@code <target>.manifest.json}) records the source,
     * the checksum and the counts. Only for stores on a SQLite file.
     *
     * @throws dev.hermes.state.InvalidArgumentException the target is the store, exists (for a full backup
     *         without replace), is no backup of this store or has another schema (incremental)
     * @throws dev.hermes.state.StateIOException the target's folder is missing or read-only, the disk is full
     */
    public BackupReport backupTo(Path target, BackupOptions options) {
        Arguments.required(target, "target");
        Arguments.required(options, "options");
        return StoreBackup.run(database, target, options, database.retryPolicy());
    }

    private double now() {
        return EpochSeconds.now(clock);
    }

    // ------------------------------------------------------------------ configuration

    /** The few knobs users need; everything is validated at {@link #build()}. */
    public static final class Builder {
        private @Nullable Path path;
        private @Nullable DataSource dataSource;
        private @Nullable String url;
        private @Nullable String schema;
        private boolean readOnly;
        /** Checked as each setting is given (the policy's own constructor); the rest by {@link StoreConfig}. */
        private RetryPolicy retryPolicy = RetryPolicy.HERMES;
        private int readerPoolSize = StoreConfig.DEFAULT_READER_POOL_SIZE;
        private int checkpointEvery = StoreConfig.DEFAULT_CHECKPOINT_EVERY;
        private Clock clock = Clock.systemUTC();
        private boolean migrate = true;
        private int schemaVersion = DEFAULT_SCHEMA_VERSION;
        private io.micrometer.observation.@Nullable ObservationRegistry observations;
        private io.micrometer.core.instrument.@Nullable MeterRegistry meters;

        private Builder() {
        }

        /**
         * Every store operation becomes an observation of {@code registry} ({@code hermes.state.operation}: a
         * timer with a meter handler, a span with a tracer), tagged with low-cardinality values only
         * (docs/observability.md). Micrometer is an optional dependency: without this call it is never loaded.
         */
        public Builder observationRegistry(io.micrometer.observation.@Nullable ObservationRegistry registry) {
            this.observations = registry;
            return this;
        }

        /**
         * The store's own meters in {@code registry}: busy retries, the wait for the write lock, the
         * write-ahead log's size, the read connections, and HikariCP's pool metrics for a server's pools.
         */
        public Builder meterRegistry(io.micrometer.core.instrument.@Nullable MeterRegistry registry) {
            this.meters = registry;
            return this;
        }

        public Builder path(@Nullable Path path) {
            this.path = path;
            return this;
        }

        /**
         * A store on a PostgreSQL server: {@code postgresql://user:password@host:port/dbname} (libpq form,
         * as Hermes' {@code HERMES_DATABASE_URL}) or {@code jdbc:postgresql://host:port/dbname?user=...}.
         * The store lives in one schema ({@link #schema}, {@code hermes} by default), created and
         * migrated on opening as a file is. The password never appears in a message.
         */
        public Builder url(@Nullable String url) {
            this.url = url;
            return this;
        }

        /**
         * The PostgreSQL schema of a {@link #url} or PostgreSQL {@link #dataSource} store (default
         * {@code hermes}): several stores can share a database.
         */
        public Builder schema(@Nullable String schema) {
            this.schema = schema;
            return this;
        }

        /**
         * A file path or a PostgreSQL URL, as a user writes it ({@code --db}): text that starts with
         * {@code postgresql://}, {@code postgres://} or {@code jdbc:postgresql:} is a {@link #url}.
         */
        public Builder location(String pathOrUrl) {
            Arguments.required(pathOrUrl, "location");
            // told apart here, read by build() (StoreLocation there too), so a bad URL fails where every url(...) does
            if (StoreLocation.isUrl(pathOrUrl)) {
                return url(pathOrUrl);
            }
            return path(Path.of(pathOrUrl));
        }

        /**
         * Build on an application-owned DataSource: a SQLite state.db, or a PostgreSQL database whose
         * store lives in {@link #schema} ({@code hermes} by default). The engine is asked of its first
         * connection.
         */
        public Builder dataSource(@Nullable DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /** How long a connection waits for another's lock before the attempt fails busy (Hermes: 1 s). */
        public Builder busyTimeout(Duration busyTimeout) {
            this.retryPolicy = retryPolicy.withBusyTimeout(Arguments.required(busyTimeout, "busyTimeout"));
            return this;
        }

        /** Total attempts of a write transaction that keeps failing with BUSY/LOCKED (Hermes: 15). */
        public Builder maxAttempts(int maxAttempts) {
            this.retryPolicy = retryPolicy.withMaxAttempts(maxAttempts);
            return this;
        }

        /** The random pause between attempts, from {@code min} to {@code max} (Hermes: 20-150 ms). */
        public Builder backoff(Duration min, Duration max) {
            this.retryPolicy = retryPolicy.withBackoff(Arguments.required(min, "min back-off"),
                    Arguments.required(max, "max back-off"));
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
            this.clock = Arguments.required(clock, "clock");
            return this;
        }

        /** Whether opening read-write migrates/adopts the file (default true). */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * The schema version a read-write open brings the store to: {@link Migrator#LATEST_VERSION}
         * (today's agent) or {@value Migrator#KEPT_VERSION}, to keep the file readable and writable by an
         * agent of April 2026 (a file already past the version is then read-only). Any other version is
         * an {@link InvalidArgumentException} at {@link #build()}.
         */
        public Builder schemaVersion(int version) {
            this.schemaVersion = version;
            return this;
        }

        /**
         * Opens the store. A file is first checked: read-only needs the version-6 columns (a newer
         * file is fine); read-write migrates or adopts it (a no-op without Liquibase when it is up to
         * date), or, with {@code migrate(false)}, requires the version-6 columns and a version no newer
         * than the target ({@link #schemaVersion}). No
         * connection of the store itself is opened yet: that happens on first use.
         */
        public StateRepository build() {
            return new StateRepository(Opening.open(new StoreConfig(path, dataSource, url, schema, readOnly, retryPolicy,
                    readerPoolSize, checkpointEvery, migrate, schemaVersion)), clock, this);
        }
    }
}
