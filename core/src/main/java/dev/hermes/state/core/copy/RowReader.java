package dev.hermes.state.core.copy;

import dev.hermes.state.core.backend.PreparedQuery;
import dev.hermes.state.core.backend.Transaction;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static dev.hermes.state.db.Tables.MESSAGES;
import static dev.hermes.state.db.Tables.SESSIONS;

/**
 * Reads whole rows of one side of a copy, page by page, each value checked ({@link CopiedTable#read}):
 * at most one page is in memory at a time, whatever the size of the store or of a session.
 */
final class RowReader {
    /** Messages per page: a page of huge tool outputs still fits a small heap. */
    static final int MESSAGE_PAGE = 500;

    /*
     * Where the key columns are in a row: the columns of versions 1 to 4, which every store a copy
     * reads has, come first in the generated tables, so their places are the same in every copy.
     */
    static final int SESSION_ID = CopiedTable.placeOf(SESSIONS.ID);
    static final int PARENT_ID = CopiedTable.placeOf(SESSIONS.PARENT_SESSION_ID);
    static final int TITLE = CopiedTable.placeOf(SESSIONS.TITLE);
    static final int MESSAGE_ID = CopiedTable.placeOf(MESSAGES.ID);
    static final int MESSAGE_TIMESTAMP = CopiedTable.placeOf(MESSAGES.TIMESTAMP);

    /** What is done with each page of rows. */
    @FunctionalInterface
    interface PageWork {
        void accept(List<@Nullable Object[]> rows) throws SQLException;
    }

    private final RowQueries queries;
    private final boolean nulAllowed;
    private final boolean forTarget;
    private final String target;

    /**
     * @param queries    the copy's whole-row statements
     * @param nulAllowed false when the rows go to a target that cannot store U+0000 in text
     * @param forTarget  the rows go to the target: structured content takes the target's marker
     * @param target     that target's name, for the message
     */
    RowReader(RowQueries queries, boolean nulAllowed, boolean forTarget, String target) {
        this.queries = queries;
        this.nulAllowed = nulAllowed;
        this.forTarget = forTarget;
        this.target = target;
    }

    RowQueries queries() {
        return queries;
    }

    /** The first {@code limit} sessions by id after {@code after} (null: from the first). */
    List<@Nullable Object[]> sessions(Transaction transaction, @Nullable String after, int limit) throws SQLException {
        return after == null ? read(transaction, queries.sessions, queries.firstSessions, limit)
                : read(transaction, queries.sessions, queries.nextSessions, after, limit);
    }

    /** The session with this id, or null. */
    @Nullable Object @Nullable [] session(Transaction transaction, String id) throws SQLException {
        List<@Nullable Object[]> rows = read(transaction, queries.sessions, queries.sessionById, id);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The sessions with these ids (at most {@link CopyQueries#IN_LIST}; null entries are ignored), in no order. */
    List<@Nullable Object[]> sessionsIn(Transaction transaction, Object[] inList) throws SQLException {
        return read(transaction, queries.sessions, queries.sessionsIn, inList);
    }

    /** Every message of the session, in (timestamp, id) order, a page at a time. */
    void messagesOf(Transaction transaction, String sessionId, PageWork work) throws SQLException {
        List<@Nullable Object[]> page = read(transaction, queries.messages, queries.firstMessagesOf, sessionId,
                MESSAGE_PAGE);
        while (!page.isEmpty()) {
            work.accept(page);
            if (page.size() < MESSAGE_PAGE) {
                return;
            }
            Object[] last = page.get(page.size() - 1);
            page = read(transaction, queries.messages, queries.nextMessagesOf, sessionId, last[MESSAGE_TIMESTAMP],
                    last[MESSAGE_ID], MESSAGE_PAGE);
        }
    }

    /** Every message of the store by id, a page at a time. */
    void allMessages(Transaction transaction, PageWork work) throws SQLException {
        long after = Long.MIN_VALUE;
        while (true) {
            List<@Nullable Object[]> page = read(transaction, queries.messages, queries.messagesById, after, MESSAGE_PAGE);
            if (page.isEmpty()) {
                return;
            }
            work.accept(page);
            after = (Long) page.get(page.size() - 1)[MESSAGE_ID];
        }
    }

    private List<@Nullable Object[]> read(Transaction transaction, CopiedTable table, PreparedQuery query,
                                          @Nullable Object... values) throws SQLException {
        return query.query(transaction, rows -> {
            List<@Nullable Object[]> page = new ArrayList<>();
            while (rows.next()) {
                page.add(table.read(rows, nulAllowed, forTarget, target));
            }
            return page;
        }, values);
    }
}
