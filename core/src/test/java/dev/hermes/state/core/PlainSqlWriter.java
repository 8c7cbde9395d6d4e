package dev.hermes.state.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Writes sessions and messages with explicit timestamps (epoch seconds) in plain SQL both engines take. */
public final class PlainSqlWriter implements AutoCloseable {
    private final PreparedStatement session;
    private final PreparedStatement message;

    public PlainSqlWriter(Connection connection) throws SQLException {
        session = connection.prepareStatement(
                "INSERT INTO sessions (id, source, model, started_at) VALUES (?, ?, ?, ?)");
        message = connection.prepareStatement(
                "INSERT INTO messages (session_id, role, content, tool_name, timestamp) VALUES (?, ?, ?, ?, ?) RETURNING id");
    }

    public void session(String id, String source, double startedAt) throws SQLException {
        session.setString(1, id);
        session.setString(2, source);
        session.setString(3, "test/model");
        session.setDouble(4, startedAt);
        session.executeUpdate();
    }

    public long message(String sessionId, String role, String content, double timestamp) throws SQLException {
        return message(sessionId, role, content, null, timestamp);
    }

    public long message(String sessionId, String role, String content, String toolName, double timestamp) throws SQLException {
        message.setString(1, sessionId);
        message.setString(2, role);
        message.setString(3, content);
        message.setString(4, toolName);
        message.setDouble(5, timestamp);
        try (var keys = message.executeQuery()) {
            keys.next();
            return keys.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        session.close();
        message.close();
    }
}
