package dev.hermes.state.core;

import dev.hermes.state.core.lineage.LineageNode;
import dev.hermes.state.core.search.SearchHit;
import dev.hermes.state.core.search.SearchQuery;
import org.jooq.DSLContext;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Hermes session store (state.db): every operation of SPEC section 4, typed. Thread-safe; open it
 * once and keep it for the application's lifetime; {@link #close()} checkpoints and releases
 * everything. Every failure is a {@link dev.hermes.state.HermesStateException} subtype.
 *
 * <p>CONTRACT SKELETON: signatures are fixed (other modules compile against them); bodies are being
 * implemented.
 */
public final class StateRepository implements AutoCloseable {

    private StateRepository() {
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
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A read-only jOOQ context (reader pool, query_only) for custom type-safe queries on the generated tables. */
    public DSLContext dsl() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** Runs custom writes in one BEGIN IMMEDIATE transaction with the retry policy; all or nothing. */
    public <T> T inWriteTransaction(Function<DSLContext, T> work) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** The database file (empty for a store built on an application's DataSource). */
    public Optional<Path> path() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public boolean isReadOnly() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** PRAGMA wal_checkpoint(PASSIVE) now (also done every 50 writes and at close). */
    public void checkpoint() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** Reclaims free pages (VACUUM) and truncates the WAL; returns the bytes the file shrank by. */
    public long vacuum() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ sessions

    /** create_session: insert-or-ignore (the first row wins); unknown parent → ConstraintViolationException. */
    public String createSession(NewSession session) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public String createSession(String id, String source) {
        return createSession(NewSession.builder(id, source).build());
    }

    /** ensure_session: insert-or-ignore, never overwrites. source null → "unknown". */
    public void ensureSession(String id, String source, String model) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** end_session: sets ended_at/end_reason unless already ended; true when this call ended it. */
    public boolean endSession(String id, String endReason) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** reopen_session: clears ended_at and end_reason. */
    public void reopenSession(String id) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public void updateSystemPrompt(String id, String systemPrompt) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** update_token_counts, incremental or absolute (SPEC section 4). */
    public void updateTokenCounts(String id, TokenUsage usage) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public Optional<Session> getSession(String id) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** resolve_session_id: exact id, else the only id starting with the prefix (wildcards literal), else empty. */
    public Optional<String> resolveSessionId(String idOrPrefix) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** session_count(source); source null = all. */
    public long sessionCount(String source) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** message_count(session_id); sessionId null = all messages. */
    public long messageCount(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** search_sessions: all columns, children included, newest started_at first. */
    public List<Session> searchSessions(String source, int limit, int offset) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ messages

    /** append_message: one transaction with the counter updates; returns the new id. */
    public long appendMessage(String sessionId, NewMessage message) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** Appends many messages in one transaction (all or nothing); ids in input order. */
    public List<Long> appendMessages(String sessionId, List<NewMessage> messages) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** get_messages: ordered by (timestamp, id). */
    public List<Message> getMessages(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** Keyset page of a session's messages by (timestamp, id); cursor null = first page. */
    public Page<Message> getMessagesPage(String sessionId, String cursor, int limit) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** get_messages_as_conversation: the OpenAI chat shape. */
    public List<ChatMessage> getMessagesAsConversation(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** clear_messages: deletes the messages, zeroes message_count and tool_call_count. */
    public void clearMessages(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ titles

    /** set_session_title: sanitized; blank clears; duplicate → InvalidArgumentException; false for unknown id. */
    public boolean setSessionTitle(String id, String title) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    public Optional<String> getSessionTitle(String id) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** get_session_by_title: exact match, input not sanitized. */
    public Optional<Session> getSessionByTitle(String title) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** resolve_session_by_title: newest-started "title #n", else the exact title, else empty. */
    public Optional<String> resolveSessionByTitle(String title) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** get_next_title_in_lineage. */
    public String nextTitleInLineage(String baseTitle) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ lineage

    /** get_compression_tip: any depth, cycle-safe; unknown ids return themselves. */
    public String compressionTip(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** The session (depth 0), its parent (1), ... up to its root. Empty for an unknown id. */
    public List<LineageNode> ancestors(String sessionId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** The whole tree under a root (root depth 0), each child after its parent, siblings by started_at. */
    public List<LineageNode> lineageTree(String rootId) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ listing and search

    /** list_sessions_rich (offset paging, Hermes-compatible). */
    public List<RichSession> listSessionsRich(ListSessionsQuery query) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** The rich listing with keyset paging: cursor null = first page; the query's offset is ignored. */
    public Page<RichSession> listSessionsRichPage(ListSessionsQuery query, String cursor) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** search_messages. Never throws for any query text. */
    public List<SearchHit> searchMessages(SearchQuery query) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    // ------------------------------------------------------------------ export, delete, prune

    public Optional<SessionExport> exportSession(String id) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** export_all, streaming in constant memory, newest first; source null = all. Returns the count. */
    public long exportAll(String source, Consumer<SessionExport> sink) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** delete_session: children orphaned, messages deleted, one transaction; false if unknown. */
    public boolean deleteSession(String id) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** The sessions prune_sessions would delete (ended, started before now - days, optional source). */
    public List<Session> pruneCandidates(double olderThanDays, String source) {
        throw new UnsupportedOperationException("core: not implemented yet");
    }

    /** prune_sessions: any number of sessions; returns the number deleted. */
    public int pruneSessions(double olderThanDays, String source) {
        throw new UnsupportedOperationException("core: not implemented yet");
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

        public StateRepository build() {
            throw new UnsupportedOperationException("core: not implemented yet");
        }
    }
}
