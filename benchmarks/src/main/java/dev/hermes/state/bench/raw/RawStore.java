package dev.hermes.state.bench.raw;

import dev.hermes.state.core.model.NewMessage;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The raw-JDBC baseline's operations, whatever the engine: the only part of the benchmark whose SQL
 * text depends on it ({@link RawJdbcStore} on a SQLite file, {@link PostgresRawStore} on a schema of
 * a PostgreSQL server). Every workload drives both engines' baselines through this.
 */
public interface RawStore extends AutoCloseable {
    /** create_session with model only, in its own transaction. */
    void createSession(String id, String source, @Nullable String model) throws SQLException;

    /** append_message: insert + counter update in one transaction; returns the new id. */
    long appendMessage(String sessionId, NewMessage message) throws SQLException;

    /** Many messages of one session as one JDBC batch, one counter update, one transaction. */
    void appendBatch(String sessionId, List<NewMessage> messages) throws SQLException;

    /** search_messages(query, limit) with default filters: hits with snippet and context, one statement. */
    List<RawJdbcStore.Hit> search(String query, int limit) throws SQLException;

    /** get_messages_as_conversation: the OpenAI chat shape, tool_calls decoded from JSON. */
    List<Map<String, Object>> conversation(String sessionId) throws SQLException;

    @Override
    void close() throws SQLException;
}
