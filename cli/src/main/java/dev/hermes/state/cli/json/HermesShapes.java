package dev.hermes.state.cli.json;

import dev.hermes.state.core.model.MessageRows;
import dev.hermes.state.core.model.SessionRows;
import dev.hermes.state.core.model.ActiveSession;
import dev.hermes.state.core.model.LineageNode;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.RichSession;
import dev.hermes.state.core.model.SearchHit;
import dev.hermes.state.core.model.Session;
import dev.hermes.state.core.model.SessionCwd;
import dev.hermes.state.core.model.SessionExport;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The store's records as the dicts the Python agent's {@code SessionDB} returns: the same snake_case
 * keys, every column, None as null, timestamps as {@link java.time.Instant} (written as epoch-seconds
 * floats by {@link Json}). A script written against the Python dicts reads these unchanged; both
 * {@code --json} and the RPC use them.
 */
public final class HermesShapes {
    private HermesShapes() {
    }

    /** A {@code messages} row ({@code get_messages}) as the agent of schema 6 returns it: see {@link #message(Message, boolean)}. */
    public static Map<String, Object> message(Message m) {
        return message(m, false);
    }

    /**
     * A {@code messages} row ({@code get_messages}): every column, tool_calls decoded, the other JSON
     * columns as text, content as its text or (schema 17) its decoded list or dict. {@code v17}: the
     * agent of schema 17's row, with its six later columns, in the order of the agent's own table, the
     * flags as the integers it stores.
     */
    public static Map<String, Object> message(Message m, boolean v17) {
        Map<String, Object> row = MessageRows.withoutFlags(m, v17);
        if (v17) {
            row.put("observed", m.observed() ? 1L : 0L);
            row.put("active", m.active() ? 1L : 0L);
            row.put("compacted", m.compacted() ? 1L : 0L);
        }
        return row;
    }

    public static List<Map<String, Object>> messages(List<Message> messages) {
        return messages(messages, false);
    }

    public static List<Map<String, Object>> messages(List<Message> messages, boolean v17) {
        return shapedEach(messages, message -> message(message, v17));
    }

    public static List<Map<String, Object>> sessions(List<Session> sessions) {
        return shapedEach(sessions, SessionRows::of);
    }

    public static List<Map<String, Object>> richRows(List<RichSession> rows) {
        return shapedEach(rows, SessionRows::of);
    }

    /** A {@code search_sessions} row of today's agent: every column plus {@code last_active}. */
    public static Map<String, Object> activeSession(ActiveSession s) {
        Map<String, Object> row = SessionRows.of(s.session());
        row.put("last_active", s.lastActive());
        return row;
    }

    public static List<Map<String, Object>> activeSessions(List<ActiveSession> sessions) {
        return shapedEach(sessions, HermesShapes::activeSession);
    }

    /** A {@code distinct_session_cwds} row. */
    public static Map<String, Object> sessionCwd(SessionCwd c) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cwd", c.cwd());
        row.put("sessions", c.sessions());
        row.put("last_active", c.lastActive());
        return row;
    }

    public static List<Map<String, Object>> sessionCwds(List<SessionCwd> cwds) {
        return shapedEach(cwds, HermesShapes::sessionCwd);
    }

    /** A {@code search_messages} hit, with its three-message {@code context}. */
    public static Map<String, Object> hit(SearchHit h) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", h.id());
        row.put("session_id", h.sessionId());
        row.put("role", h.role());
        row.put("snippet", h.snippet());
        row.put("timestamp", h.timestamp());
        row.put("tool_name", h.toolName());
        row.put("source", h.source());
        row.put("model", h.model());
        row.put("session_started", h.sessionStarted());
        List<Map<String, Object>> context = new ArrayList<>(h.context().size());
        for (SearchHit.ContextMessage message : h.context()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("role", message.role());
            item.put("content", message.content());
            context.add(item);
        }
        row.put("context", context);
        return row;
    }

    public static List<Map<String, Object>> hits(List<SearchHit> hits) {
        return shapedEach(hits, HermesShapes::hit);
    }

    /** An {@code export_session} dict: every session column plus {@code messages} (the rows of schema 6). */
    public static Map<String, Object> export(SessionExport e) {
        return export(e, false);
    }

    /** An {@code export_session} dict: every session column plus {@code messages}, rows as {@link #message(Message, boolean)}. */
    public static Map<String, Object> export(SessionExport e, boolean v17) {
        Map<String, Object> row = SessionRows.of(e.session());
        row.put("messages", messages(e.messages(), v17));
        return row;
    }

    /** A session of a lineage listing: every column plus its {@code depth}. */
    public static Map<String, Object> lineageNode(LineageNode node) {
        Map<String, Object> row = SessionRows.of(node.session());
        row.put("depth", node.depth());
        return row;
    }

    public static List<Map<String, Object>> lineage(List<LineageNode> nodes) {
        return shapedEach(nodes, HermesShapes::lineageNode);
    }

    /**
     * {@code items} (a random-access list) as dicts, each shaped when it is read: the JSON writer reads
     * each once, so a long answer (a search with a large limit, a long conversation) is not held a
     * second time as maps. 100,000 search hits need a 300 MB heap shaped all at once, 200 MB this way.
     */
    private static <T> List<Map<String, Object>> shapedEach(List<T> items, Function<T, Map<String, Object>> shape) {
        return new AbstractList<>() {
            @Override
            public Map<String, Object> get(int index) {
                return shape.apply(items.get(index));
            }

            @Override
            public int size() {
                return items.size();
            }
        };
    }
}
