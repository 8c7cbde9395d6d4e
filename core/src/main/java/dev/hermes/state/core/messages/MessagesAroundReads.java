package dev.hermes.state.core.messages;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.StoreSchema;
import dev.hermes.state.core.backend.Transaction;
import dev.hermes.state.core.model.AnchoredView;
import dev.hermes.state.core.model.Message;
import dev.hermes.state.core.model.MessagesAround;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static dev.hermes.state.db.Tables.MESSAGES;

/**
 * A session's messages read around one of them, as today's agent reads a search hit in its place
 * ({@code get_messages_around}, {@code get_anchored_view}): whole rows as get_messages returns them,
 * but every row, live or not, by id.
 */
public final class MessagesAroundReads {
    private static final PreparedQuery ANCHOR = PreparedQuery.of(() -> DSL
            .selectOne().from(MESSAGES)
            .where(MESSAGES.ID.eq(DSL.param("id", Long.class)))
            .and(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .limit(DSL.inline(1)), "id", "sessionId");
    /** The anchor and the rows before it, newest first. */
    private static final PreparedQuery UP_TO = PreparedQuery.of(schema -> DSL
            .select(MessageRows.columns(schema)).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MESSAGES.ID.le(DSL.param("id", Long.class)))
            .orderBy(MESSAGES.ID.desc())
            .limit(DSL.param("limit", Long.class)), "sessionId", "id", "limit");
    private static final PreparedQuery AFTER = PreparedQuery.of(schema -> DSL
            .select(MessageRows.columns(schema)).from(MESSAGES)
            .where(MESSAGES.SESSION_ID.eq(DSL.param("sessionId", String.class)))
            .and(MESSAGES.ID.gt(DSL.param("id", Long.class)))
            .orderBy(MESSAGES.ID.asc())
            .limit(DSL.param("limit", Long.class)), "sessionId", "id", "limit");

    /**
     * get_messages_around: up to {@code window} rows before the anchor, the anchor, up to {@code window}
     * after, by id; a negative window counts as 0; empty when the anchor is not a message of the session.
     */
    public MessagesAround around(Transaction transaction, String sessionId, long anchorId, int window)
            throws SQLException {
        long size = Math.max(0, window);
        if (ANCHOR.fetch(transaction, anchorId, sessionId).isEmpty()) {
            return MessagesAround.empty();
        }
        boolean decode = transaction.schema().v17();
        List<Message> before = read(transaction, UP_TO, decode, sessionId, anchorId, size + 1);
        List<Message> after = read(transaction, AFTER, decode, sessionId, anchorId, size);
        List<Message> rows = new ArrayList<>(before.size() + after.size());
        rows.addAll(before);
        Collections.reverse(rows);
        rows.addAll(after);
        return new MessagesAround(rows, Math.max(0, before.size() - 1), after.size());
    }

    /**
     * get_anchored_view: the window around the anchor with only the {@code keepRoles} (all roles when
     * null) but always the anchor, and the session's first and last {@code bookend} messages of those roles
     * with non-empty content outside the window (a negative bookend counts as 0).
     */
    public AnchoredView anchored(Transaction transaction, String sessionId, long anchorId, int window, int bookend,
                                 @Nullable Collection<String> keepRoles) throws SQLException {
        int ends = Math.max(0, bookend);
        MessagesAround around = around(transaction, sessionId, anchorId, window);
        List<Message> rows = around.window();
        if (rows.isEmpty()) {
            return AnchoredView.empty();
        }
        Set<String> kept = keepRoles == null ? null : Set.copyOf(keepRoles);
        List<Message> filtered = kept == null ? rows
                : rows.stream().filter(m -> m.id() == anchorId || kept.contains(m.role())).toList();
        List<Message> start = List.of();
        List<Message> end = List.of();
        if (ends > 0) {
            long first = rows.get(0).id();
            long last = rows.get(rows.size() - 1).id();
            start = bookend(transaction, sessionId, MESSAGES.ID.lt(first), kept, ends, true);
            List<Message> tail = new ArrayList<>(bookend(transaction, sessionId, MESSAGES.ID.gt(last), kept, ends, false));
            Collections.reverse(tail);
            end = tail;
        }
        return new AnchoredView(filtered, around.messagesBefore(), around.messagesAfter(), start, end);
    }

    /** The first (or, newest first, the last) messages of the kept roles with content, where {@code outside}. */
    private static List<Message> bookend(Transaction transaction, String sessionId, Condition outside,
                                         @Nullable Set<String> roles, int limit, boolean first) throws SQLException {
        StoreSchema schema = transaction.schema();
        DSLContext dsl = transaction.dsl();
        Condition condition = MESSAGES.SESSION_ID.eq(sessionId).and(outside)
                .and(DSL.length(MESSAGES.CONTENT).gt(0));
        if (roles != null) {
            condition = condition.and(MESSAGES.ROLE.in(roles));
        }
        Query query = dsl.select(MessageRows.columns(schema)).from(MESSAGES).where(condition)
                .orderBy(first ? MESSAGES.ID.asc() : MESSAGES.ID.desc()).limit(limit);
        boolean decode = schema.v17();
        String sql = dsl.render(query);
        List<Object> values = dsl.extractBindValues(query);
        return transaction.withStatement(sql, statement -> {
            for (int i = 0; i < values.size(); i++) {
                statement.setObject(i + 1, values.get(i));
            }
            List<Message> result = new ArrayList<>();
            try (ResultSet set = statement.executeQuery()) {
                while (set.next()) {
                    result.add(MessageRows.read(set, decode));
                }
            }
            return result;
        });
    }

    private static List<Message> read(Transaction transaction, PreparedQuery query, boolean decode, Object... values)
            throws SQLException {
        return query.query(transaction, set -> {
            List<Message> result = new ArrayList<>();
            while (set.next()) {
                result.add(MessageRows.read(set, decode));
            }
            return result;
        }, values);
    }
}
