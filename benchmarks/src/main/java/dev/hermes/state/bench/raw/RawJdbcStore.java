package dev.hermes.state.bench.raw;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.RetryPolicy;
import dev.hermes.state.sqlite.SqliteConnections;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The raw-JDBC baseline: the same SQL the store has to run, hand-written on one plain sqlite-jdbc
 * connection with prepared statements (no jOOQ, no pool, no retry layer), with the same connection
 * settings as the store (foreign keys on, busy timeout, synchronous NORMAL, WAL). It stands for the
 * fastest a careful programmer gets from JDBC, so the store's overhead can be stated as a ratio.
 * Not thread-safe; one instance per file.
 */
public final class RawJdbcStore implements RawStore {
    private static final String INSERT_SESSION = "INSERT OR IGNORE INTO sessions (id, source, user_id, model, "
            + "model_config, system_prompt, parent_session_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    static final String INSERT_MESSAGE = "INSERT INTO messages (session_id, role, content, tool_call_id, "
            + "tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning, reasoning_details, "
            + "codex_reasoning_items) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    static final String BUMP_COUNTERS = "UPDATE sessions SET message_count = message_count + ?, "
            + "tool_call_count = tool_call_count + ? WHERE id = ?";
    /**
     * search_messages in one statement: the page of hits (MATCH, ordered by FTS5 rank, limit/offset) as
     * a derived table, joined to each hit's previous and next message of the same session by
     * (timestamp, id) through idx_messages_session; contents cut to 200 characters. The rows keep the
     * page's order: FTS5 sorts by rank with ties in rowid (= id) order; the rank is not selected,
     * as reading it calls bm25 again (a second count of every phrase's rows).
     */
    private static final String SEARCH = "SELECT page.id, page.session_id, page.role, page.snippet, page.hit_content, "
            + "page.timestamp, page.tool_name, page.source, page.model, page.started_at, "
            + "previous.role, substr(previous.content, 1, 200), next.role, substr(next.content, 1, 200) "
            + "FROM (SELECT m.id, m.session_id, m.role, snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet, "
            + "substr(m.content, 1, 200) AS hit_content, m.timestamp, m.tool_name, s.source, s.model, s.started_at "
            + "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id "
            + "WHERE messages_fts MATCH ?1 ORDER BY messages_fts.rank LIMIT ?2 OFFSET ?3) AS page "
            + "LEFT JOIN messages previous ON previous.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) < (page.timestamp, page.id) ORDER BY n.timestamp DESC, n.id DESC LIMIT 1) "
            + "LEFT JOIN messages next ON next.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) > (page.timestamp, page.id) ORDER BY n.timestamp, n.id LIMIT 1)";
    /** Today's agent's search (schema 17): rewound rows left out, compacted ones found. */
    private static final String SEARCH_V17 = SEARCH.replace("WHERE messages_fts MATCH ?1 ",
            "WHERE messages_fts MATCH ?1 AND (m.active = 1 OR m.compacted = 1) ");
    static final String CONVERSATION = "SELECT role, content, tool_call_id, tool_calls, tool_name, reasoning, "
            + "reasoning_details, codex_reasoning_items FROM messages WHERE session_id = ? ORDER BY timestamp, id";
    /** Today's agent's read (schema 17): live rows by id, with the later columns. */
    static final String CONVERSATION_V17 = "SELECT role, content, tool_call_id, tool_calls, tool_name, reasoning, "
            + "reasoning_details, codex_reasoning_items, finish_reason, reasoning_content, codex_message_items, "
            + "platform_message_id, observed, timestamp FROM messages WHERE session_id = ? AND active = 1 ORDER BY id";
    /** The marker of structured content in a file of schema 17 (NUL on SQLite, SOH on PostgreSQL). */
    private static final String[] CONTENT_MARKERS = {"\u0000json:", "\u0001json:"};

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;
    private final int checkpointEvery;
    private int commitsSinceCheckpoint;
    private final PreparedStatement checkpoint;
    private final PreparedStatement begin;
    private final PreparedStatement commit;
    private final PreparedStatement insertSession;
    private final PreparedStatement insertMessage;
    private final PreparedStatement insertMessageBatch;
    private final PreparedStatement bumpCounters;
    private final PreparedStatement search;
    private final PreparedStatement conversation;

    private RawJdbcStore(Connection connection, int checkpointEvery) throws SQLException {
        this.connection = connection;
        this.checkpointEvery = checkpointEvery;
        this.checkpoint = connection.prepareStatement("PRAGMA wal_checkpoint(PASSIVE)");
        // auto-commit stays on: transactions are explicit BEGIN IMMEDIATE ... COMMIT, as the store does them
        this.begin = connection.prepareStatement("BEGIN IMMEDIATE");
        this.commit = connection.prepareStatement("COMMIT");
        this.insertSession = connection.prepareStatement(INSERT_SESSION);
        this.insertMessage = connection.prepareStatement(INSERT_MESSAGE + " RETURNING id");
        this.insertMessageBatch = connection.prepareStatement(INSERT_MESSAGE);
        this.bumpCounters = connection.prepareStatement(BUMP_COUNTERS);
        this.search = connection.prepareStatement(todaysSchema(connection) ? SEARCH_V17 : SEARCH);
        this.conversation = connection.prepareStatement(conversationSql(connection));
    }

    /** The conversation query of the store's version: today's agent's at 7 and later, version 6's before. */
    static String conversationSql(Connection connection) throws SQLException {
        return todaysSchema(connection) ? CONVERSATION_V17 : CONVERSATION;
    }

    /** Whether the store is at 7 or later, where today's agent's reads apply. */
    static boolean todaysSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet version = statement.executeQuery("SELECT max(version) FROM schema_version")) {
            return version.next() && version.getInt(1) >= 7;
        }
    }

    /**
     * Opens a file that already has the version-6 schema (create it with the project's Migrator);
     * checkpoints are left to SQLite's automatic checkpoint (every 1,000 WAL pages).
     */
    public static RawJdbcStore open(Path file) throws SQLException {
        return open(file, 0);
    }

    /**
     * As {@link #open(Path)}, plus Hermes' checkpoint policy when {@code checkpointEvery} > 0: a
     * {@code PRAGMA wal_checkpoint(PASSIVE)} after every that many commits (docs/behaviour.md#contention says 50).
     */
    public static RawJdbcStore open(Path file, int checkpointEvery) throws SQLException {
        Connection connection = SqliteConnections.open(file, RetryPolicy.HERMES, false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
        }
        return new RawJdbcStore(connection, checkpointEvery);
    }

    /** create_session with model only, in its own transaction. */
    @Override
    public void createSession(String id, String source, @Nullable String model) throws SQLException {
        begin.execute();
        try {
            bindSession(insertSession, id, source, model);
            insertSession.executeUpdate();
            commit();
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    /** append_message: insert + counter update in one BEGIN IMMEDIATE transaction; returns the new id. */
    @Override
    public long appendMessage(String sessionId, NewMessage message) throws SQLException {
        begin.execute();
        try {
            bind(insertMessage, sessionId, message, now());
            long id;
            try (ResultSet generated = insertMessage.executeQuery()) {
                generated.next();
                id = generated.getLong(1);
            }
            bumpCounters(sessionId, 1, toolCallIncrement(message));
            commit();
            return id;
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    /** Many messages of one session as one JDBC batch, one counter update, one transaction. */
    @Override
    public void appendBatch(String sessionId, List<NewMessage> messages) throws SQLException {
        begin.execute();
        try {
            long toolCalls = 0;
            double timestamp = now();
            for (NewMessage message : messages) {
                bind(insertMessageBatch, sessionId, message, timestamp);
                insertMessageBatch.addBatch();
                toolCalls += toolCallIncrement(message);
            }
            insertMessageBatch.executeBatch();
            bumpCounters(sessionId, messages.size(), toolCalls);
            commit();
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    /** A search hit of the baseline: the columns of search_messages and the context rows. */
    public record Hit(long id, String sessionId, String role, String snippet, double timestamp, String toolName,
                      String source, String model, double sessionStarted, List<Map<String, String>> context) {
    }

    /** search_messages(query, limit) with default filters: hits with snippet and context, one statement. */
    @Override
    public List<Hit> search(String query, int limit) throws SQLException {
        List<Hit> hits = new ArrayList<>(limit);
        search.setString(1, query);
        search.setInt(2, limit);
        search.setInt(3, 0);
        readHits(search, hits);
        return hits;
    }

    /**
     * Runs a bound search statement of either engine's baseline, whose columns are the hit's (1-10)
     * then the previous and the next message's role and content (11-14, null when there is none).
     */
    static void readHits(PreparedStatement search, List<Hit> hits) throws SQLException {
        try (ResultSet rows = search.executeQuery()) {
            while (rows.next()) {
                List<Map<String, String>> context = new ArrayList<>(3);
                if (rows.getString(11) != null) {
                    context.add(contextMessage(rows.getString(11), rows.getString(12)));
                }
                context.add(contextMessage(rows.getString(3), rows.getString(5)));
                if (rows.getString(13) != null) {
                    context.add(contextMessage(rows.getString(13), rows.getString(14)));
                }
                hits.add(new Hit(rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                        rows.getDouble(6), rows.getString(7), rows.getString(8), rows.getString(9), rows.getDouble(10),
                        context));
            }
        }
    }

    /** Binds create_session's row (model only) to either engine's insert. */
    static void bindSession(PreparedStatement insertSession, String id, String source, @Nullable String model) throws SQLException {
        insertSession.setString(1, id);
        insertSession.setString(2, source);
        insertSession.setString(3, null);
        insertSession.setString(4, model);
        insertSession.setString(5, null);
        insertSession.setString(6, null);
        insertSession.setString(7, null);
        insertSession.setDouble(8, now());
    }

    /**
     * get_messages_as_conversation: the OpenAI chat shape with the agent's keys, the JSON columns kept as
     * their text, as the store keeps them until a caller asks for their value (like for like: neither side
     * decodes; schema 6's rule, tool_calls only when they are JSON, is checked on both).
     */
    @Override
    public List<Map<String, Object>> conversation(String sessionId) throws SQLException {
        return conversation(conversation, sessionId);
    }

    /** Runs a prepared conversation query (its columns as {@link #CONVERSATION}'s) and builds the chat messages. */
    static List<Map<String, Object>> conversation(PreparedStatement conversation, String sessionId) throws SQLException {
        List<Map<String, Object>> messages = new ArrayList<>();
        conversation.setString(1, sessionId);
        try (ResultSet rows = conversation.executeQuery()) {
            boolean v17 = rows.getMetaData().getColumnCount() > 8;
            while (rows.next()) {
                String role = rows.getString(1);
                Map<String, Object> message = new LinkedHashMap<>();
                message.put("role", role);
                message.put("content", rows.getString(2));
                putIfNotEmpty(message, "tool_call_id", rows.getString(3));
                String toolCalls = rows.getString(4);
                if (toolCalls != null && !toolCalls.isEmpty() && (v17 || isJson(toolCalls))) {
                    message.put("tool_calls", toolCalls);
                }
                putIfNotEmpty(message, "tool_name", rows.getString(5));
                if (v17) {
                    // as today's agent: structured content decoded, the timestamp, platform id and observed flag
                    String content = rows.getString(2);
                    for (String marker : CONTENT_MARKERS) {
                        if (content != null && content.startsWith(marker)) {
                            message.put("content", decodeOr(content.substring(marker.length()), content));
                        }
                    }
                    double timestamp = rows.getDouble(14);
                    if (timestamp != 0) {
                        message.put("timestamp", timestamp);
                    }
                    putIfNotEmpty(message, "message_id", rows.getString(12));
                    if (rows.getLong(13) != 0) {
                        message.put("observed", true);
                    }
                }
                if ("assistant".equals(role)) {
                    if (v17) {
                        putIfNotEmpty(message, "finish_reason", rows.getString(9));
                    }
                    putIfNotEmpty(message, "reasoning", rows.getString(6));
                    if (v17 && rows.getString(10) != null) {
                        message.put("reasoning_content", rows.getString(10));
                    }
                    putIfNotEmpty(message, "reasoning_details", rows.getString(7));
                    putIfNotEmpty(message, "codex_reasoning_items", rows.getString(8));
                    if (v17) {
                        putIfNotEmpty(message, "codex_message_items", rows.getString(11));
                    }
                }
                messages.add(message);
            }
        }
        return messages;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    @SuppressWarnings("try")
    private void commit() throws SQLException {
        commit.execute();
        if (checkpointEvery > 0 && ++commitsSinceCheckpoint >= checkpointEvery) {
            // the pragma returns a row; an open result set would keep the next COMMIT from completing
            try (ResultSet ignored = checkpoint.executeQuery()) {
                commitsSinceCheckpoint = 0;
            }
        }
    }

    static Map<String, String> contextMessage(String role, String content) {
        Map<String, String> message = new LinkedHashMap<>();
        message.put("role", role);
        message.put("content", content == null ? "" : content);
        return message;
    }

    static void bind(PreparedStatement insert, String sessionId, NewMessage message, double timestamp)
            throws SQLException {
        insert.setString(1, sessionId);
        insert.setString(2, message.role());
        insert.setString(3, message.text());
        insert.setString(4, message.toolCallId());
        insert.setString(5, jsonOrNull(message.toolCalls() == null ? null : message.toolCalls().value()));
        insert.setString(6, message.toolName());
        insert.setDouble(7, timestamp);
        if (message.tokenCount() == null) {
            insert.setNull(8, java.sql.Types.INTEGER);
        } else {
            insert.setLong(8, message.tokenCount());
        }
        insert.setString(9, message.finishReason());
        insert.setString(10, message.reasoning());
        insert.setString(11, jsonOrNull(message.reasoningDetails() == null ? null : message.reasoningDetails().value()));
        insert.setString(12, jsonOrNull(message.codexReasoningItems() == null ? null : message.codexReasoningItems().value()));
    }

    private void bumpCounters(String sessionId, long messages, long toolCalls) throws SQLException {
        bumpCounters.setLong(1, messages);
        bumpCounters.setLong(2, toolCalls);
        bumpCounters.setString(3, sessionId);
        bumpCounters.executeUpdate();
    }

    /** docs/behaviour.md#append-message (v6 rules): a list adds its size, any other non-null value 1; tool messages add nothing. */
    static long toolCallIncrement(NewMessage message) {
        if (message.toolCalls() == null || "tool".equals(message.role())) {
            return 0;
        }
        return message.toolCalls().value() instanceof Collection<?> list ? list.size() : 1;
    }

    /** JSON text, or NULL for null and empty values (docs/behaviour.md#file-and-schema). */
    private static @Nullable String jsonOrNull(@Nullable Object value) {
        if (value == null || (value instanceof Collection<?> c && c.isEmpty()) || (value instanceof Map<?, ?> m && m.isEmpty())) {
            return null;
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON-serialisable: " + value, e);
        }
    }

    private static @Nullable Object decodeOr(String json, @Nullable Object fallback) {
        try {
            return JSON.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            return fallback;
        }
    }

    private static void putIfNotEmpty(Map<String, Object> message, String key, String value) {
        if (value != null && !value.isEmpty()) {
            message.put(key, value);
        }
    }

    /** One JSON document, checked token by token without building its value (as the store checks it). */
    private static boolean isJson(String json) {
        try (com.fasterxml.jackson.core.JsonParser parser = JSON.getFactory().createParser(json)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (java.io.IOException notJson) {
            return false;
        }
    }

    private void rollback(Exception cause) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    /** Epoch seconds with microseconds, like Python's time.time(). */
    static double now() {
        Instant now = Instant.now();
        return now.getEpochSecond() + Math.floorDiv(now.getNano(), 1000) / 1_000_000.0;
    }
}
