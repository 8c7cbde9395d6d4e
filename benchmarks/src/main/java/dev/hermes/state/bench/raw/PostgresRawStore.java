package dev.hermes.state.bench.raw;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hermes.state.core.model.NewMessage;
import dev.hermes.state.postgresql.PostgresLocation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The raw-JDBC baseline on PostgreSQL: the operations of {@link RawJdbcStore} hand-written on one
 * plain pgjdbc connection to a schema migrated by the project's Migrator (same tables, indexes,
 * generated {@code content_tsv} and search functions as the store's). Appends are one transaction
 * each (counter update, then the insert returning the id, then COMMIT). The search is the store's
 * PostgreSQL statement shape (see core's PostgresMessageSearch): the tsquery built by the schema's
 * {@code messages_search_query}, matched on the GIN-indexed {@code content_tsv}, ranked by
 * {@code ts_rank} normalized by length, with {@code ts_headline} for the snippet and the previous
 * and next message of the same session as context. Not thread-safe; one instance per schema.
 */
public final class PostgresRawStore implements RawStore {
    private static final String INSERT_SESSION = "INSERT INTO sessions (id, source, user_id, model, model_config, "
            + "system_prompt, parent_session_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String HEADLINE_OPTIONS =
            "StartSel=>>>, StopSel=<<<, MaxWords=40, MinWords=15, MaxFragments=1, FragmentDelimiter=...";
    /** The page of hits (computed once in its own subquery, as the store does), then each hit's neighbours. */
    private static final String SEARCH = "SELECT page.id, page.session_id, page.role, page.snippet, page.hit_content, "
            + "page.timestamp, page.tool_name, page.source, page.model, page.started_at, "
            + "previous.role, substr(previous.content, 1, 200), next.role, substr(next.content, 1, 200) "
            + "FROM (SELECT m.id, m.session_id, m.role, ts_headline('pg_catalog.simple', m.content, search.q, '"
            + HEADLINE_OPTIONS + "') AS snippet, substr(m.content, 1, 200) AS hit_content, m.timestamp, m.tool_name, "
            + "s.source, s.model, s.started_at, (-ts_rank(m.content_tsv, search.q, 1))::double precision AS rank "
            + "FROM (SELECT messages_search_query(?, ?) AS q OFFSET 0) AS search CROSS JOIN messages m "
            + "JOIN sessions s ON s.id = m.session_id WHERE m.content_tsv @@ search.q "
            + "ORDER BY rank, m.id LIMIT ? OFFSET ?) AS page "
            + "LEFT JOIN messages previous ON previous.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) < (page.timestamp, page.id) ORDER BY n.timestamp DESC, n.id DESC LIMIT 1) "
            + "LEFT JOIN messages next ON next.id = (SELECT n.id FROM messages n WHERE n.session_id = page.session_id "
            + "AND (n.timestamp, n.id) > (page.timestamp, page.id) ORDER BY n.timestamp, n.id LIMIT 1) "
            + "ORDER BY page.rank, page.id";
    /** The count the appendix gives for FTS5's MATCH, with the same tsquery. */
    private static final String COUNT_MATCHES = "SELECT count(*) FROM messages "
            + "WHERE content_tsv @@ messages_search_query(?, ?)";
    /** A word, a quoted phrase, a prefix ({@code doc*}) or OR: the shapes of the W2 queries. */
    private static final Pattern TOKEN = Pattern.compile("\"([^\"]*)\"(\\*?)|(\\S+?)(\\*?)(?=\\s|$)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;
    private final PreparedStatement insertSession;
    private final PreparedStatement insertMessage;
    private final PreparedStatement insertMessageBatch;
    private final PreparedStatement bumpCounters;
    private final PreparedStatement search;
    private final PreparedStatement conversation;

    private PostgresRawStore(Connection connection) throws SQLException {
        this.connection = connection;
        this.insertSession = connection.prepareStatement(INSERT_SESSION);
        this.insertMessage = connection.prepareStatement(RawJdbcStore.INSERT_MESSAGE + " RETURNING id");
        this.insertMessageBatch = connection.prepareStatement(RawJdbcStore.INSERT_MESSAGE);
        this.bumpCounters = connection.prepareStatement(RawJdbcStore.BUMP_COUNTERS);
        this.search = connection.prepareStatement(SEARCH);
        this.conversation = connection.prepareStatement(RawJdbcStore.conversationSql(connection));
    }

    /** Opens one connection to a schema that already holds the version-6 store (create it with the Migrator). */
    public static PostgresRawStore open(PostgresLocation location) throws SQLException {
        Connection connection = connect(location);
        connection.setAutoCommit(false);
        return new PostgresRawStore(connection);
    }

    /** A plain connection (auto-commit) whose search path is the location's schema. */
    public static Connection connect(PostgresLocation location) throws SQLException {
        Connection connection = location.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO \"" + PostgresLocation.checkSchema(location.schema()) + "\"");
        }
        return connection;
    }

    @Override
    public void createSession(String id, String source, @Nullable String model) throws SQLException {
        try {
            RawJdbcStore.bindSession(insertSession, id, source, model);
            insertSession.executeUpdate();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    @Override
    public long appendMessage(String sessionId, NewMessage message) throws SQLException {
        try {
            bumpCounters(sessionId, 1, RawJdbcStore.toolCallIncrement(message));
            RawJdbcStore.bind(insertMessage, sessionId, message, RawJdbcStore.now());
            long id;
            try (ResultSet generated = insertMessage.executeQuery()) {
                generated.next();
                id = generated.getLong(1);
            }
            connection.commit();
            return id;
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    @Override
    public void appendBatch(String sessionId, List<NewMessage> messages) throws SQLException {
        try {
            long toolCalls = 0;
            double timestamp = RawJdbcStore.now();
            for (NewMessage message : messages) {
                RawJdbcStore.bind(insertMessageBatch, sessionId, message, timestamp);
                insertMessageBatch.addBatch();
                toolCalls += RawJdbcStore.toolCallIncrement(message);
            }
            bumpCounters(sessionId, messages.size(), toolCalls);
            insertMessageBatch.executeBatch();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
        }
    }

    @Override
    public List<RawJdbcStore.Hit> search(String query, int limit) throws SQLException {
        String[] match = searchArguments(query);
        search.setString(1, match[0]);
        search.setString(2, match[1]);
        search.setInt(3, limit);
        search.setInt(4, 0);
        List<RawJdbcStore.Hit> hits = new ArrayList<>(limit);
        RawJdbcStore.readHits(search, hits);
        connection.commit();
        return hits;
    }

    @Override
    public List<Map<String, Object>> conversation(String sessionId) throws SQLException {
        List<Map<String, Object>> messages = RawJdbcStore.conversation(conversation, sessionId);
        connection.commit();
        return messages;
    }

    /** The W2 queries' match counts in the schema {@code connection}'s search path names. */
    public static Map<String, Long> countMatches(Connection connection, List<String> queries) throws SQLException {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        try (PreparedStatement count = connection.prepareStatement(COUNT_MATCHES)) {
            for (String query : queries) {
                String[] match = searchArguments(query);
                count.setString(1, match[0]);
                count.setString(2, match[1]);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    counts.put(query, rows.getLong(1));
                }
            }
        }
        return counts;
    }

    /**
     * {@code messages_search_query}'s two arguments for an FTS5 query of the W2 shapes (words, quoted
     * phrases, a trailing {@code *}, OR between terms; juxtaposition is AND): the boolean structure with
     * {@code {i}} for term i, and the terms as a JSON array of [text, prefix] pairs.
     */
    static String[] searchArguments(String query) {
        StringBuilder expression = new StringBuilder();
        List<List<Object>> terms = new ArrayList<>();
        String operator = null;
        Matcher token = TOKEN.matcher(query.trim());
        while (token.find()) {
            String word = token.group(1) != null ? token.group(1) : token.group(3);
            boolean prefix = !(token.group(1) != null ? token.group(2) : token.group(4)).isEmpty();
            if (token.group(3) != null && !prefix && word.equals("OR")) {
                operator = " | ";
                continue;
            }
            if (!terms.isEmpty()) {
                expression.append(operator == null ? " & " : operator);
            }
            operator = null;
            terms.add(List.of(word, prefix));
            expression.append('{').append(terms.size()).append('}');
        }
        try {
            return new String[]{expression.toString(), JSON.writeValueAsString(terms)};
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings and booleans is always JSON", e);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    private void bumpCounters(String sessionId, long messages, long toolCalls) throws SQLException {
        bumpCounters.setLong(1, messages);
        bumpCounters.setLong(2, toolCalls);
        bumpCounters.setString(3, sessionId);
        bumpCounters.executeUpdate();
    }

    private void rollback(Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }
}
