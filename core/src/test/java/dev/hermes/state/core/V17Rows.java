package dev.hermes.state.core;

import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Writes sessions and messages with the columns of schema 17 in plain SQL both engines take: exact
 * timestamps, model_config markers, archived sessions, workspaces, inactive and compacted messages.
 * The v17 contract tests' data sets are built with it exactly as the agent's answers were measured
 * (the same statements on a file the agent created).
 */
final class V17Rows implements AutoCloseable {
    private final PreparedStatement session;
    private final PreparedStatement message;

    V17Rows(Connection connection) throws SQLException {
        session = connection.prepareStatement("INSERT INTO sessions (id, source, model, parent_session_id, started_at,"
                + " ended_at, end_reason, model_config, title, cwd, git_branch, git_repo_root, archived, message_count)"
                + " VALUES (?, ?, 'test/model', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        message = connection.prepareStatement("INSERT INTO messages (session_id, role, content, tool_name, tool_calls,"
                + " timestamp, active, compacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
    }

    /** A session row; every column the data sets vary, the rest at its default. */
    record Session(String id, String source, @Nullable String parent, double startedAt, @Nullable Double endedAt,
                   @Nullable String endReason, @Nullable String modelConfig, @Nullable String title, @Nullable String cwd,
                   @Nullable String gitBranch, @Nullable String gitRepoRoot, boolean archived, long messageCount) {
    }

    void session(Session s) throws SQLException {
        session.setString(1, s.id());
        session.setString(2, s.source());
        session.setString(3, s.parent());
        session.setDouble(4, s.startedAt());
        if (s.endedAt() == null) {
            session.setNull(5, Types.DOUBLE);
        } else {
            session.setDouble(5, s.endedAt());
        }
        session.setString(6, s.endReason());
        session.setString(7, s.modelConfig());
        session.setString(8, s.title());
        session.setString(9, s.cwd());
        session.setString(10, s.gitBranch());
        session.setString(11, s.gitRepoRoot());
        session.setLong(12, s.archived() ? 1 : 0);
        session.setLong(13, s.messageCount());
        session.executeUpdate();
    }

    long message(String sessionId, String role, @Nullable String content, double timestamp) throws SQLException {
        return message(sessionId, role, content, null, null, timestamp, true, false);
    }

    long message(String sessionId, String role, @Nullable String content, @Nullable String toolName,
                 @Nullable String toolCalls, double timestamp, boolean active, boolean compacted) throws SQLException {
        message.setString(1, sessionId);
        message.setString(2, role);
        message.setString(3, content);
        message.setString(4, toolName);
        message.setString(5, toolCalls);
        message.setDouble(6, timestamp);
        message.setLong(7, active ? 1 : 0);
        message.setLong(8, compacted ? 1 : 0);
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
