package dev.hermes.state.core.copy;

import dev.hermes.state.ConstraintViolationException;
import dev.hermes.state.core.backend.Backend;
import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One write transaction of a copy: a page of source sessions, written whole with all their messages.
 * Sessions the target already has are skipped. A session's parent is written before it: when the
 * target does not have the parent yet and it is not in the page (its id sorts later), it is copied
 * now, with its messages, and skipped when its own page comes. With append, a copied session's
 * messages keep their ids unless one of them is taken in the target; then all of them get new ids
 * (after every kept id of the transaction, so none can collide).
 */
final class SessionBatch {
    private final Transaction from;
    private final Transaction to;
    private final RowReader sourceRows;
    private final Backend targetBackend;
    /** Sessions to write, each after its parent. */
    private final Map<String, @Nullable Object[]> toWrite = new LinkedHashMap<>();
    /** Ids the target is known to have (of the page, and parents looked up). */
    private final Set<String> inTarget = new HashSet<>();
    private long sessionsPresent;
    private long sessionsPulledForward;
    private long messagesCopied;
    private long sessionsRenumbered;
    private long messagesRenumbered;

    private SessionBatch(Transaction from, Transaction to, RowReader sourceRows, Backend targetBackend) {
        this.from = from;
        this.to = to;
        this.sourceRows = sourceRows;
        this.targetBackend = targetBackend;
    }

    /** Writes {@code page} (source session rows, by id) into the target's open write transaction {@code to}. */
    static SessionBatch write(Transaction from, Transaction to, List<@Nullable Object[]> page, RowReader sourceRows,
                              Backend targetBackend, boolean append) throws SQLException {
        SessionBatch batch = new SessionBatch(from, to, sourceRows, targetBackend);
        batch.plan(page);
        if (append) {
            batch.checkTitles();
        }
        List<String> renumbered = append ? batch.sessionsWithTakenMessageIds() : List.of();
        batch.writeSessions();
        batch.writeMessages(renumbered);
        return batch;
    }

    long sessionsCopied() {
        return toWrite.size();
    }

    long messagesCopied() {
        return messagesCopied;
    }

    long sessionsPresent() {
        return sessionsPresent;
    }

    long sessionsPulledForward() {
        return sessionsPulledForward;
    }

    long sessionsRenumbered() {
        return sessionsRenumbered;
    }

    long messagesRenumbered() {
        return messagesRenumbered;
    }

    // ------------------------------------------------------------------ what to write

    private void plan(List<@Nullable Object[]> page) throws SQLException {
        Map<String, @Nullable Object[]> pageById = new HashMap<>();
        page.forEach(row -> pageById.put(id(row), row));
        for (Object[] inList : CopyQueries.inLists(new ArrayList<>(pageById.keySet()))) {
            inTarget.addAll(targetIds(CopyQueries.SESSION_IDS_IN, inList));
        }
        for (@Nullable Object[] row : page) {
            if (inTarget.contains(id(row))) {
                sessionsPresent++;
            } else if (!toWrite.containsKey(id(row))) {
                planWithAncestors(row, pageById);
            }
        }
    }

    /** Plans the session after every ancestor the target does not have yet (the source has them all: checked). */
    private void planWithAncestors(@Nullable Object[] row, Map<String, @Nullable Object[]> pageById) throws SQLException {
        Deque<@Nullable Object[]> chain = new ArrayDeque<>();
        Set<String> onChain = new HashSet<>();
        chain.push(row);
        onChain.add(id(row));
        String parent = (String) row[RowReader.PARENT_ID];
        while (parent != null && !inTarget.contains(parent) && !toWrite.containsKey(parent)) {
            @Nullable Object[] parentRow = pageById.get(parent);
            if (parentRow == null) {
                if (!targetIds(CopyQueries.SESSION_IDS_IN, CopyQueries.inLists(List.of(parent)).get(0)).isEmpty()) {
                    inTarget.add(parent);
                    break;
                }
                parentRow = sourceRows.session(from, parent);
                if (parentRow == null) {
                    throw new IllegalStateException("the source's session " + id(row) + " has the parent " + parent
                            + ", which vanished from the source's snapshot");
                }
                sessionsPulledForward++;
            }
            if (!onChain.add(parent)) {
                throw new IllegalStateException("the source's session " + parent + " is its own ancestor");
            }
            chain.push(parentRow);
            parent = (String) parentRow[RowReader.PARENT_ID];
        }
        while (!chain.isEmpty()) {
            @Nullable Object[] next = chain.pop();
            toWrite.put(id(next), next);
        }
    }

    /** Append: a title another session of the target has stops the batch (titles are unique). */
    private void checkTitles() throws SQLException {
        Map<String, String> titled = new HashMap<>();
        for (@Nullable Object[] row : toWrite.values()) {
            if (row[RowReader.TITLE] != null) {
                titled.put((String) row[RowReader.TITLE], id(row));
            }
        }
        for (Object[] inList : CopyQueries.inLists(new ArrayList<>(titled.keySet()))) {
            CopyQueries.TITLES_IN.query(to, rows -> {
                if (rows.next()) {
                    String title = rows.getString(2);
                    throw new ConstraintViolationException("Cannot append session " + titled.get(title) + ": its title '"
                            + title + "' is already used by session " + rows.getString(1) + " in the target (titles"
                            + " are unique); the sessions of this batch were not written");
                }
                return Boolean.FALSE;
            }, inList);
        }
    }

    /** Append: the copied sessions any of whose message ids the target already uses. */
    private List<String> sessionsWithTakenMessageIds() throws SQLException {
        List<String> taken = new ArrayList<>();
        for (String session : toWrite.keySet()) {
            MessageKeys page = MessageKeys.first(from, session);
            while (!page.ids().isEmpty()) {
                long used = CopyQueries.MESSAGE_IDS_TAKEN.query(to, rows -> rows.next() ? rows.getLong(1) : 0L,
                        CopyQueries.inLists(page.ids()).get(0));
                if (used > 0) {
                    taken.add(session);
                    break;
                }
                page = page.next(from, session);
            }
        }
        return taken;
    }

    /** A page of a session's message ids, in (timestamp, id) order, and where the next page starts. */
    private record MessageKeys(List<Long> ids, double lastTimestamp) {
        static MessageKeys first(Transaction from, String session) throws SQLException {
            return read(CopyQueries.FIRST_MESSAGE_IDS_OF, from, session, CopyQueries.IN_LIST);
        }

        MessageKeys next(Transaction from, String session) throws SQLException {
            return ids.size() < CopyQueries.IN_LIST ? new MessageKeys(List.of(), 0)
                    : read(CopyQueries.NEXT_MESSAGE_IDS_OF, from, session, lastTimestamp, ids.get(ids.size() - 1),
                    CopyQueries.IN_LIST);
        }

        private static MessageKeys read(PreparedQuery query, Transaction from, Object... values) throws SQLException {
            return query.query(from, rows -> {
                List<Long> ids = new ArrayList<>();
                double last = 0;
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                    last = rows.getDouble(2);
                }
                return new MessageKeys(ids, last);
            }, values);
        }
    }

    // ------------------------------------------------------------------ writing

    private void writeSessions() throws SQLException {
        sourceRows.queries().insertSession.executeBatch(to, new ArrayList<>(toWrite.values()));
    }

    /**
     * Messages with their own ids first, then the generator is moved past the largest of them, then
     * the renumbered ones: a generated id can then collide with no kept one.
     */
    private void writeMessages(List<String> renumbered) throws SQLException {
        Set<String> renumber = new HashSet<>(renumbered);
        long[] largest = {Long.MIN_VALUE};
        for (String session : toWrite.keySet()) {
            if (renumber.contains(session)) {
                continue;
            }
            sourceRows.messagesOf(from, session, page -> {
                sourceRows.queries().insertMessage.executeBatch(to, page);
                messagesCopied += page.size();
                for (@Nullable Object[] message : page) {
                    largest[0] = Math.max(largest[0], (Long) message[RowReader.MESSAGE_ID]);
                }
            });
        }
        if (largest[0] != Long.MIN_VALUE) {
            targetBackend.raiseMessageIdHighWater(to, largest[0]);
        }
        for (String session : renumbered) {
            sessionsRenumbered++;
            sourceRows.messagesOf(from, session, page -> {
                List<@Nullable Object[]> withoutIds = new ArrayList<>(page.size());
                for (@Nullable Object[] message : page) {
                    withoutIds.add(withoutId(message));
                }
                sourceRows.queries().insertMessageNewId.executeBatch(to, withoutIds);
                messagesCopied += page.size();
                messagesRenumbered += page.size();
            });
        }
    }

    private static @Nullable Object[] withoutId(@Nullable Object[] message) {
        @Nullable Object[] values = new Object[message.length - 1];
        System.arraycopy(message, 0, values, 0, RowReader.MESSAGE_ID);
        System.arraycopy(message, RowReader.MESSAGE_ID + 1, values, RowReader.MESSAGE_ID,
                message.length - RowReader.MESSAGE_ID - 1);
        return values;
    }

    private List<String> targetIds(PreparedQuery query, Object[] inList) throws SQLException {
        return query.query(to, rows -> {
            List<String> found = new ArrayList<>();
            while (rows.next()) {
                found.add(rows.getString(1));
            }
            return found;
        }, inList);
    }

    private static String id(@Nullable Object[] session) {
        return (String) session[RowReader.SESSION_ID];
    }
}
